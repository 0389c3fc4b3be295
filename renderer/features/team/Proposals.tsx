import type { TeamOverviewView } from '../../../common/ipc/team';
import { useBilingual, useFormat, useT } from '../../i18n/index';
import { useDecisionWord } from '../interviews/shared';
import { InterviewLink } from './InterviewLink';
import { messages } from './messages';

/** Decisions waiting for a second reviewer. */
export function Proposals({ overview }: { overview: TeamOverviewView }) {
  const t = useT(messages);
  const f = useFormat();
  const word = useDecisionWord();
  const bilingual = useBilingual();
  const codeLabel = (p: (typeof overview.proposals)[number]) => {
    const found = overview.reasonCodes.find((c) => c.decision === p.decision && c.code === p.reasonCode);
    return found ? bilingual(found) : p.reasonCode;
  };
  return (
    <table className="table" data-testid="team-proposals">
      <thead>
        <tr>
          <th scope="col">{t('colInterview')}</th>
          <th scope="col">{t('colDecision')}</th>
          <th scope="col">{t('colProposedBy')}</th>
          <th scope="col">{t('colSince')}</th>
        </tr>
      </thead>
      <tbody>
        {overview.proposals.map((p) => (
          <tr key={p.interviewId}>
            <td>
              <InterviewLink id={p.interviewId} />
            </td>
            <td>
              {word(p.decision)}
              {p.reasonCode && <span className="small muted"> · {codeLabel(p)}</span>}
            </td>
            <td className="mono">{p.proposedBy}</td>
            <td>{f.dateTime(p.proposedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
