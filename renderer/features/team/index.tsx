import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { ClaimView, TeamOverviewView, TeamStatusView } from '../../../common/ipc/team';
import type { FourEyesRule, TeamRole, TeamSettings } from '../../../common/team-review';
import { keys, useOmniMutation, useOmniQuery } from '../../api/index';
import { useFormat, useT } from '../../i18n/index';
import { Button, ErrorNotice, Field, Panel } from '../../ui/index';
import { AuditTable } from '../interviews/AuditTable';
import { useAuditLabels } from '../interviews/audit-labels';
import { useDecisionWord } from '../interviews/shared';
import { useAgeText } from '../interviews/team-queue';
import { messages } from './messages';
import './team.css';

/** How often the screen reads the team's state again besides the live notices (ages and leases move with time). */
const REFRESH_MS = 30_000;

/** The supervisor's screen: holders, queue age, proposals, decisions per day, team rules and the team's audit trail. */
export default function TeamScreen() {
  const t = useT(messages);
  const status = useOmniQuery(keys.team.status(), (api) => api.team.status({}));
  const overview = useOmniQuery(keys.team.overview(), (api) => api.team.overview({}), { refetchInterval: REFRESH_MS });
  return (
    <div className="team">
      <h1>{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      {status.data && <WhoAmI status={status.data} />}
      {status.error && <ErrorNotice error={status.error.data} onRetry={() => void status.refetch()} />}
      {overview.error ? (
        <ErrorNotice error={overview.error.data} onRetry={() => void overview.refetch()} />
      ) : (
        <div className="team-grid">
          <Panel title={t('queueAge')} query={overview}>
            {(o) => <QueueAge overview={o} />}
          </Panel>
          <Panel
            title={t('proposals')}
            query={overview}
            isEmpty={(o) => o.proposals.length === 0}
            empty={t('proposalsEmpty')}
          >
            {(o) => <Proposals overview={o} />}
          </Panel>
          <div className="team-wide">
            <Panel
              title={t('holders')}
              query={overview}
              isEmpty={(o) => o.holders.length === 0}
              empty={t('holdersEmpty')}
            >
              {(o) => <Holders holders={o.holders} members={o.members} />}
            </Panel>
          </div>
          <div className="team-wide">
            <Panel
              title={t('perDay')}
              query={overview}
              isEmpty={(o) => o.decisionsByDay.length === 0}
              empty={t('perDayEmpty')}
            >
              {(o) => <PerDay rows={o.decisionsByDay} />}
            </Panel>
          </div>
          <Panel title={t('settings')} query={overview}>
            {(o) => <Rules settings={o.settings} />}
          </Panel>
        </div>
      )}
      {overview.data && <TeamAudit members={overview.data.members} />}
    </div>
  );
}

function useRoleWords() {
  const t = useT(messages);
  const words: Record<TeamRole, string> = {
    reviewer: t('roleReviewer'),
    supervisor: t('roleSupervisor'),
    admin: t('roleAdmin'),
  };
  return (roles: TeamRole[]) => roles.map((r) => words[r]).join(', ');
}

function WhoAmI({ status }: { status: TeamStatusView }) {
  const t = useT(messages);
  const roleWords = useRoleWords();
  return (
    <p className="team-who" data-testid="team-who">
      {status.engine === 'embedded' ? t('embedded') : t('you', { user: status.user, roles: roleWords(status.roles) })}
    </p>
  );
}

function QueueAge({ overview }: { overview: TeamOverviewView }) {
  const t = useT(messages);
  const f = useFormat();
  const age = useAgeText();
  const { waiting, settings } = overview;
  return (
    <dl className="team-figures" data-testid="team-queue-age">
      <div>
        <dt>{t('waiting')}</dt>
        <dd>{f.number(waiting.count)}</dd>
      </div>
      <div>
        <dt>{t('oldest')}</dt>
        <dd>{waiting.oldestAddedAt ? age(waiting.oldestAddedAt) : t('none')}</dd>
      </div>
      <div className={waiting.pastTarget > 0 ? 'team-past-target' : undefined}>
        <dt>{t('pastTarget', { hours: settings.targetHours })}</dt>
        <dd data-testid="team-past-target">{f.number(waiting.pastTarget)}</dd>
      </div>
    </dl>
  );
}

function InterviewLink({ id }: { id: string }) {
  return (
    <Link className="mono" to={`/interviews/${encodeURIComponent(id)}`}>
      {id}
    </Link>
  );
}

function Proposals({ overview }: { overview: TeamOverviewView }) {
  const t = useT(messages);
  const f = useFormat();
  const word = useDecisionWord();
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
            <td>{word(p.decision)}</td>
            <td className="mono">{p.proposedBy}</td>
            <td className="num">{f.dateTime(p.proposedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Holders({ holders, members }: { holders: ClaimView[]; members: TeamOverviewView['members'] }) {
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
            <th scope="col">{t('colFor')}</th>
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
              <td className="num">{f.dateTime(h.expiresAt)}</td>
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

function PerDay({ rows }: { rows: TeamOverviewView['decisionsByDay'] }) {
  const t = useT(messages);
  const f = useFormat();
  // One row per day and reviewer, final (final and confirmed) beside proposed.
  const merged = new Map<string, { day: string; reviewer: string; final: number; proposed: number }>();
  for (const r of rows) {
    const key = `${r.day} ${r.reviewer}`;
    const row = merged.get(key) ?? { day: r.day, reviewer: r.reviewer, final: 0, proposed: 0 };
    if (r.status === 'proposed') row.proposed += r.count;
    else row.final += r.count;
    merged.set(key, row);
  }
  return (
    <table className="table" data-testid="team-per-day">
      <thead>
        <tr>
          <th scope="col">{t('colDay')}</th>
          <th scope="col">{t('colReviewer')}</th>
          <th scope="col" className="num">
            {t('colFinal')}
          </th>
          <th scope="col" className="num">
            {t('colProposed')}
          </th>
        </tr>
      </thead>
      <tbody>
        {[...merged.values()].map((r) => (
          <tr key={`${r.day} ${r.reviewer}`}>
            <td className="num">{r.day}</td>
            <td className="mono">{r.reviewer}</td>
            <td className="num">{f.number(r.final)}</td>
            <td className="num">{f.number(r.proposed)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Rules({ settings }: { settings: TeamSettings }) {
  const t = useT(messages);
  const ruleId = useId();
  const [draft, setDraft] = useState(settings);
  useEffect(() => setDraft(settings), [settings]);
  const save = useOmniMutation((api, s: TeamSettings) => api.team.saveSettings(s), { invalidate: [keys.team.all()] });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(draft);
  };
  const rules: { value: FourEyesRule; label: string }[] = [
    { value: 'high-risk-approvals', label: t('fourEyesHigh') },
    { value: 'all-approvals', label: t('fourEyesAll') },
    { value: 'none', label: t('fourEyesNone') },
  ];
  return (
    <form className="team-rules" onSubmit={onSubmit} data-testid="team-rules">
      <div className="field">
        <label htmlFor={ruleId}>{t('fourEyes')}</label>
        <select
          id={ruleId}
          className="input"
          value={draft.fourEyes}
          onChange={(e) => setDraft({ ...draft, fourEyes: e.target.value as FourEyesRule })}
        >
          {rules.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
      </div>
      <Field
        label={t('targetHours')}
        type="number"
        min={1}
        max={720}
        value={draft.targetHours}
        onChange={(e) => setDraft({ ...draft, targetHours: Number(e.target.value) })}
      />
      <Field
        label={t('leaseMinutes')}
        type="number"
        min={1}
        max={1440}
        value={draft.leaseMinutes}
        onChange={(e) => setDraft({ ...draft, leaseMinutes: Number(e.target.value) })}
      />
      {save.error && <ErrorNotice error={save.error.data} />}
      <div className="team-rules-actions">
        <Button type="submit" variant="primary" disabled={save.isPending}>
          {t('save')}
        </Button>
        {save.isSuccess && (
          <span role="status" className="muted">
            {t('saved')}
          </span>
        )}
      </div>
    </form>
  );
}

function TeamAudit({ members }: { members: TeamOverviewView['members'] }) {
  const t = useT(messages);
  const f = useFormat();
  const labels = useAuditLabels();
  const headingId = useId();
  const reviewerId = useId();
  const actionId = useId();
  const [draft, setDraft] = useState({ reviewer: '', action: '', interviewId: '' });
  const [query, setQuery] = useState(draft);
  const filter = {
    ...(query.reviewer ? { reviewer: query.reviewer } : {}),
    ...(query.action ? { action: query.action } : {}),
    ...(query.interviewId.trim() ? { interviewId: query.interviewId.trim() } : {}),
  };
  const audit = useOmniQuery(keys.team.audit(filter), (api) => api.team.audit(filter));
  const actions = [
    'opened',
    'claimed',
    'released',
    'reassigned',
    'noted',
    'named',
    'decided',
    'played',
    'downloaded',
    'stateChanged',
    'teamSettingsChanged',
  ] as const;
  return (
    <section className="panel team-audit" aria-labelledby={headingId}>
      <div className="panel-header">
        <h2 id={headingId}>{t('audit')}</h2>
      </div>
      <form
        className="team-audit-filters"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(draft);
        }}
      >
        <div className="field">
          <label htmlFor={reviewerId}>{t('auditReviewer')}</label>
          <select
            id={reviewerId}
            className="input"
            value={draft.reviewer}
            onChange={(e) => setDraft({ ...draft, reviewer: e.target.value })}
          >
            <option value="">{t('anyone')}</option>
            {members.map((m) => (
              <option key={m.user} value={m.user}>
                {m.user}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={actionId}>{t('auditAction')}</label>
          <select
            id={actionId}
            className="input"
            value={draft.action}
            onChange={(e) => setDraft({ ...draft, action: e.target.value })}
          >
            <option value="">{t('anyAction')}</option>
            {actions.map((a) => (
              <option key={a} value={a}>
                {labels.action(a)}
              </option>
            ))}
          </select>
        </div>
        <Field
          label={t('auditInterview')}
          mono
          value={draft.interviewId}
          maxLength={128}
          onChange={(e) => setDraft({ ...draft, interviewId: e.target.value })}
        />
        <Button type="submit">{t('search')}</Button>
      </form>
      {audit.error && <ErrorNotice error={audit.error.data} onRetry={() => void audit.refetch()} />}
      {audit.data && (
        <>
          <p className={audit.data.chain.ok ? 'muted small' : 'team-chain-broken'} data-testid="team-audit-chain">
            {audit.data.chain.ok
              ? t('chainOk')
              : t(audit.data.chain.rewritten ? 'chainRewritten' : 'chainBroken', {
                  seq: audit.data.chain.brokenAt,
                })}{' '}
            {t('matched', { shown: audit.data.entries.length, matched: audit.data.matched })}
          </p>
          <p
            className={audit.data.checkpoints.problem ? 'team-chain-broken' : 'muted small'}
            data-testid="team-checkpoints"
          >
            {audit.data.checkpoints.problem
              ? t(`checkpoint_${audit.data.checkpoints.problem.outcome}`, {
                  seq: audit.data.checkpoints.problem.covers,
                })
              : audit.data.checkpoints.last
                ? t('checkpointLast', {
                    n: audit.data.checkpoints.count,
                    seq: audit.data.checkpoints.last.covers,
                    time: audit.data.checkpoints.last.genTime ? f.dateTime(audit.data.checkpoints.last.genTime) : '—',
                  })
                : t('checkpointNone')}
          </p>
          <p className="muted small">{t('chainTrustNote')}</p>
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
                { key: 'interview', header: t('colInterview'), none: t('wholeEnvironment') },
                { key: 'detail', header: t('colDetail') },
              ]}
            />
          )}
        </>
      )}
    </section>
  );
}
