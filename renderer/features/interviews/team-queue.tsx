import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { QueueEntry, QueueQuery } from '../../../common/ipc/queue';
import type { ClaimView } from '../../../common/ipc/team';
import { keys, useOmniMutation, useOmniQuery } from '../../api/index';
import { useShortcut } from '../../ui/shortcuts';
import { useFormat, useT } from '../../i18n/index';
import { Button, ErrorNotice } from '../../ui/index';
import { messages } from './messages';

/**
 * The shared queue's team side: "Take next" (the oldest interview nobody holds, claimed for this analyst), who holds
 * each row and since when, how long each has waited and how many are past the team's target. The frame's long poll
 * (api/team-changes.ts) refreshes these when anyone claims, releases or decides.
 */

/** "45 min", "3 h", "2 d 4 h": how long something has waited, to the unit that matters. */
export function useAgeText() {
  const t = useT(messages);
  return useCallback(
    (fromIso: string, now = Date.now()) => {
      const minutes = Math.max(0, Math.floor((now - new Date(fromIso).getTime()) / 60_000));
      if (minutes < 60) return t('ageMinutes', { n: minutes });
      const hours = Math.floor(minutes / 60);
      if (hours < 48) return t('ageHours', { n: hours });
      return t('ageDays', { n: Math.floor(hours / 24), h: hours % 24 });
    },
    [t],
  );
}

function useTeamStatus() {
  return useOmniQuery(keys.team.status(), (api) => api.team.status({}));
}

/** Whether this analyst may hand interviews over: a supervisor (or admin) on a team database. */
export function useSupervisor(): boolean {
  const roles = useTeamStatus().data?.roles ?? [];
  return useOnTeamDatabase() && (roles.includes('supervisor') || roles.includes('admin'));
}

/** Whether the record is a team's database (the frame already asks where the record is: the same cached read). */
export function useOnTeamDatabase(): boolean {
  return useOmniQuery(keys.app.recordLink(), (api) => api.app.recordLink({})).data?.engine === 'team';
}

/** Who holds each interview, on a team database; undefined on this computer's record, where nobody else can. */
export function useHolders(): Map<string, ClaimView> | undefined {
  const team = useOnTeamDatabase();
  const holders = useOmniQuery(keys.team.holders(), (api) => api.team.holders({}), { enabled: team });
  return useMemo(
    () => (team ? new Map((holders.data ?? []).map((c) => [c.interviewId, c])) : undefined),
    [team, holders.data],
  );
}

/** A row's age, marked when it is past the team's target (decided ones are not waiting). */
export function useWaitingAge() {
  const t = useT(messages);
  const ageText = useAgeText();
  const targetHours = useTeamStatus().data?.settings.targetHours;
  return (entry: QueueEntry) => {
    const text = ageText(entry.addedAt);
    const late =
      targetHours !== undefined &&
      entry.localState !== 'decided' &&
      Date.now() - new Date(entry.addedAt).getTime() > targetHours * 3_600_000;
    return late ? (
      <span className="queue-late" title={t('pastTargetTitle', { hours: targetHours })}>
        {text}
      </span>
    ) : (
      text
    );
  };
}

export function HolderCell({ claim }: { claim: ClaimView | undefined }) {
  const t = useT(messages);
  const f = useFormat();
  const ageText = useAgeText();
  if (!claim) return <span className="muted">{t('holderNobody')}</span>;
  return (
    <span
      className={claim.mine ? 'queue-holder mine' : 'queue-holder'}
      title={t('holderSince', { time: f.dateTime(claim.claimedAt) })}
      data-testid="queue-holder"
    >
      {claim.mine ? t('holderYou') : <span className="mono">{claim.holder}</span>}
      <span className="small muted"> · {ageText(claim.claimedAt)}</span>
    </span>
  );
}

/** "N past the 24 h target" beside the count, when any are. */
export function PastTarget() {
  const t = useT(messages);
  const f = useFormat();
  const status = useTeamStatus().data;
  if (!status || status.waiting.pastTarget === 0) return null;
  return (
    <span className="queue-late" data-testid="queue-past-target">
      {t('queuePastTarget', { n: f.number(status.waiting.pastTarget), hours: status.settings.targetHours })} ·{' '}
    </span>
  );
}

/** Takes the oldest free interview to review; within the queue's view when it is filtered or searched. */
export function TakeNext({ within }: { within?: Pick<QueueQuery, 'filter' | 'search'> }) {
  const t = useT(messages);
  const navigate = useNavigate();
  const [none, setNone] = useState<'all' | 'view' | null>(null);
  const take = useOmniMutation((api, _input: void) => api.team.takeNext(within ? { within } : {}), {
    invalidate: [keys.team.all(), keys.queue.all()],
    onSuccess: (claim) => {
      setNone(claim !== null ? null : within ? 'view' : 'all');
      if (claim) navigate(`/interviews/${encodeURIComponent(claim.interviewId)}`);
    },
  });
  useShortcut({
    keys: 'n',
    description: { en: messages.en.takeNext, es: messages.es.takeNext },
    run: () => take.mutate(),
  });
  return (
    <div className="take-next">
      <Button variant="primary" onClick={() => take.mutate()} disabled={take.isPending} data-testid="take-next">
        {within ? t('takeNextInView') : t('takeNext')}
      </Button>
      {none && (
        <span role="status" className="small muted" data-testid="take-next-none">
          {none === 'view' ? t('takeNextNoneInView') : t('takeNextNone')}
        </span>
      )}
      {take.error && <ErrorNotice error={take.error.data} />}
    </div>
  );
}
