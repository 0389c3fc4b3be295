import { useId, useState } from 'react';
import type { ClaimView, TeamOverviewView } from '../../../common/ipc/team';
import { keys, useOmniMutation } from '../../api/index';
import { useFormat, useT } from '../../i18n/index';
import { Button, ErrorNotice } from '../../ui/index';
import { useAgeText } from '../interviews/team-queue';
import { InterviewLink } from './InterviewLink';
import { messages } from './messages';

/** Who holds which interview, for how long; a supervisor hands one over, a holder lets theirs go. */
export function Holders({ holders, members }: { holders: ClaimView[]; members: TeamOverviewView['members'] }) {
  const t = useT(messages);
  const f = useFormat();
  const age = useAgeText();
  const invalidate = [keys.team.all(), keys.queue.all()];
  const reassign = useOmniMutation((api, input: { interviewId: string; to: string }) => api.team.reassign(input), {
    invalidate,
  });
  const release = useOmniMutation((api, interviewId: string) => api.team.release({ interviewId }), { invalidate });
  const error = reassign.error ?? release.error;
  return (
    <>
      {error && <ErrorNotice error={error.data} />}
      <table className="table" data-testid="team-holders">
        <thead>
          <tr>
            <th scope="col">{t('colInterview')}</th>
            <th scope="col">{t('colHolder')}</th>
            <th scope="col" className="num">
              {t('colFor')}
            </th>
            <th scope="col">{t('colExpires')}</th>
            <th scope="col">{t('colActions')}</th>
          </tr>
        </thead>
        <tbody>
          {holders.map((h) => (
            <tr key={h.interviewId}>
              <td>
                <InterviewLink id={h.interviewId} />
              </td>
              <td className="mono">{h.holder}</td>
              <td className="num">{age(h.claimedAt)}</td>
              <td>{f.dateTime(h.expiresAt)}</td>
              <td>
                <HandOver
                  claim={h}
                  members={members.map((m) => m.user).filter((u) => u !== h.holder)}
                  onHandOver={(to) => reassign.mutate({ interviewId: h.interviewId, to })}
                  busy={reassign.isPending}
                />
                {h.mine && (
                  <Button onClick={() => release.mutate(h.interviewId)} disabled={release.isPending}>
                    {t('release')}
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function HandOver({
  claim,
  members,
  onHandOver,
  busy,
}: {
  claim: ClaimView;
  members: string[];
  onHandOver: (to: string) => void;
  busy: boolean;
}) {
  const t = useT(messages);
  const id = useId();
  const [to, setTo] = useState(members[0] ?? '');
  if (members.length === 0) return null;
  return (
    <span className="team-handover">
      <label htmlFor={id} className="visually-hidden">
        {t('reassignTo')} ({claim.interviewId})
      </label>
      <select id={id} className="input" value={to} onChange={(e) => setTo(e.target.value)}>
        {members.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
      <Button onClick={() => to && onHandOver(to)} disabled={busy || !to}>
        {t('reassign')}
      </Button>
    </span>
  );
}
