import { useId, useState } from 'react';
import type { TeamAuditView, TeamOverviewView } from '../../../common/ipc/team';
import { keys, useOmniQuery } from '../../api/index';
import { useFormat, useT } from '../../i18n/index';
import { Button, ErrorNotice, Field, SelectField } from '../../ui/index';
import { AuditTable } from '../interviews/AuditTable';
import { useAuditLabels } from '../interviews/audit-labels';
import { messages } from './messages';

type AuditSearch = { reviewer: string; action: string; interviewId: string };

const ACTIONS = [
  'opened',
  'claimed',
  'released',
  'reassigned',
  'noted',
  'named',
  'decided',
  'proposed',
  'confirmed',
  'overturned',
  'removed',
  'restored',
  'decisionRemoved',
  'played',
  'downloaded',
  'stateChanged',
  'teamSettingsChanged',
  'tokenShared',
  'tokenUnshared',
] as const;

/** The team's audit trail, searched by reviewer, action and interview, with what its chain and checkpoints say. */
export function TeamAudit({ members }: { members: TeamOverviewView['members'] }) {
  const t = useT(messages);
  const headingId = useId();
  const [query, setQuery] = useState<AuditSearch>({ reviewer: '', action: '', interviewId: '' });
  const filter = {
    ...(query.reviewer ? { reviewer: query.reviewer } : {}),
    ...(query.action ? { action: query.action } : {}),
    ...(query.interviewId.trim() ? { interviewId: query.interviewId.trim() } : {}),
  };
  const audit = useOmniQuery(keys.team.audit(filter), (api) => api.team.audit(filter));
  return (
    // Not a named region itself: its entries' scroll box is the region named by this heading (AuditTable), and two
    // regions of one name are one too many for a screen reader's list of landmarks.
    <section className="panel team-audit">
      <div className="panel-header">
        <h2 id={headingId}>{t('audit')}</h2>
      </div>
      <AuditFilters members={members} initial={query} onSearch={setQuery} />
      {audit.error && <ErrorNotice error={audit.error.data} onRetry={() => void audit.refetch()} />}
      {audit.data && (
        <>
          <TrailStanding audit={audit.data} />
          {audit.data.entries.length === 0 ? (
            <p className="panel-empty">{t('auditEmpty')}</p>
          ) : (
            <AuditTable
              entries={audit.data.entries}
              labelledBy={headingId}
              testId="team-audit"
              classPrefix="team-audit"
              columns={[
                { key: 'seq', header: t('colSeq') },
                { key: 'time', header: t('colTime') },
                { key: 'actor', header: t('colActor') },
                { key: 'action', header: t('colAction') },
                { key: 'interview', header: t('colInterview'), none: t('wholeEnvironment'), team: t('wholeTeam') },
                { key: 'detail', header: t('colDetail') },
              ]}
            />
          )}
        </>
      )}
    </section>
  );
}

/** The search as typed; it runs when submitted. */
function AuditFilters({
  members,
  initial,
  onSearch,
}: {
  members: TeamOverviewView['members'];
  initial: AuditSearch;
  onSearch: (search: AuditSearch) => void;
}) {
  const t = useT(messages);
  const labels = useAuditLabels();
  const [draft, setDraft] = useState(initial);
  return (
    <form
      className="team-audit-filters"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(draft);
      }}
    >
      <SelectField
        className="input"
        label={t('auditReviewer')}
        value={draft.reviewer}
        onChange={(e) => setDraft({ ...draft, reviewer: e.target.value })}
      >
        <option value="">{t('anyone')}</option>
        {members.map((m) => (
          <option key={m.user} value={m.user}>
            {m.user}
          </option>
        ))}
      </SelectField>
      <SelectField
        className="input"
        label={t('auditAction')}
        value={draft.action}
        onChange={(e) => setDraft({ ...draft, action: e.target.value })}
      >
        <option value="">{t('anyAction')}</option>
        {ACTIONS.map((a) => (
          <option key={a} value={a}>
            {labels.action(a)}
          </option>
        ))}
      </SelectField>
      <Field
        label={t('auditInterview')}
        mono
        value={draft.interviewId}
        maxLength={128}
        onChange={(e) => setDraft({ ...draft, interviewId: e.target.value })}
      />
      <Button type="submit">{t('search')}</Button>
    </form>
  );
}

/** Whether the chain holds, what the checkpoints outside the database say, and how far each can be trusted. */
function TrailStanding({ audit }: { audit: TeamAuditView }) {
  const t = useT(messages);
  const f = useFormat();
  const { chain, checkpoints } = audit;
  return (
    <>
      <p className={chain.ok ? 'muted small' : 'team-chain-broken'} data-testid="team-audit-chain">
        {chain.ok ? t('chainOk') : t(chain.rewritten ? 'chainRewritten' : 'chainBroken', { seq: chain.brokenAt })}{' '}
        {t('matched', { shown: audit.entries.length, matched: audit.matched })}
      </p>
      <p className={checkpoints.problem ? 'team-chain-broken' : 'muted small'} data-testid="team-checkpoints">
        {checkpoints.problem
          ? t(`checkpoint_${checkpoints.problem.outcome}`, {
              seq: checkpoints.problem.covers,
              by: checkpoints.problem.by ?? '—',
            })
          : checkpoints.last
            ? t('checkpointLast', {
                n: checkpoints.count,
                seq: checkpoints.last.covers,
                time: checkpoints.last.genTime ? f.dateTime(checkpoints.last.genTime) : '—',
              })
            : t('checkpointNone')}
      </p>
      <p className="muted small">{t('chainTrustNote')}</p>
    </>
  );
}
