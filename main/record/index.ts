import type { JsonStore } from '../json-store';
import type { Logger } from '../log';
import type { AuditTrail, ChainStatus, ReviewRecord } from '../ports';
import { recordAuditTrail } from './audit-records';
import { ClaimRecords } from './claim-records';
import { DecisionRecords } from './decision-records';
import { DraftRecords } from './draft-records';
import type { OpenRecord } from './open';
import { QueueRecords } from './queue-records';
import { RiskReadingRecords } from './risk-reading-records';
import { ServiceWriteRecords } from './service-write-records';
import { SavedViewRecords } from './saved-view-records';
import { TeamOverviewRecords } from './team-overview-records';
import { TeamSettingsRecords } from './team-settings-records';
import { walkInThread } from './chain-walk';
import { storeWitness, watchTrail } from './trail-witness';
import { keepWorkingWhileAway } from './while-away';

/** The record's tables as the services use them, straight onto the database. */
export function reviewRecord(open: OpenRecord): ReviewRecord {
  return {
    engine: open.engine,
    queue: new QueueRecords(open.db),
    drafts: new DraftRecords(open.db),
    decisions: new DecisionRecords(open.db),
    readings: new RiskReadingRecords(open.db),
    writes: new ServiceWriteRecords(open.db),
    claims: new ClaimRecords(open.db),
    teamSettings: new TeamSettingsRecords(open.db),
    overview: new TeamOverviewRecords(open.db),
    views: new SavedViewRecords(open.db),
    link: () => ({ away: false, pendingWrites: 0 }),
  };
}

/** The audit trail of the record, entries stamped with the active environment. */
export function auditTrailOf(open: OpenRecord, environment: () => string, now?: () => number): AuditTrail {
  return recordAuditTrail(open.db, environment, now);
}

/**
 * The record and its audit trail as the app runs on them. On a team's server they keep working while it is away
 * (while-away.ts); the embedded engine runs in this process and has no network to lose.
 */
export function recordForApp(
  open: OpenRecord,
  opts: {
    environment: () => string;
    store: JsonStore;
    log: Logger;
    now?: () => number;
    probeEveryMs?: number;
    /** Told when the trail's history no longer extends what this app saw (changed behind its back). */
    onTrailBroken?: () => void;
  },
) {
  const record = reviewRecord(open);
  const audit = recordAuditTrail(
    open.db,
    opts.environment,
    opts.now,
    storeWitness(opts.store, open.identity),
    open.threadConnection && walkInThread(open.threadConnection),
  );
  let trail: ChainStatus = { ok: true };
  const heard = (status: ChainStatus) => {
    // Broken again elsewhere counts as news too: the trail is still watched after an alarm.
    const newlyBroken = !status.ok && (trail.ok || trail.brokenAt !== status.brokenAt);
    trail = status;
    if (newlyBroken) {
      opts.log.error('The audit trail no longer verifies: it was changed behind this app', { ...status });
      opts.onTrailBroken?.();
    }
  };
  const verify = () => audit.verify().then((status) => (heard(status), status));
  const withTrail = <T extends object>(view: T) => (trail.ok ? view : { ...view, trail });
  if (open.engine === 'embedded')
    return {
      record: { ...record, link: () => withTrail(record.link()) },
      audit: { ...audit, verify },
      resume: async () => undefined,
      stop: async () => undefined,
      raise: heard,
    };
  const away = keepWorkingWhileAway({ db: open.db, record, audit: { ...audit, verify }, ...opts });
  const watcher = watchTrail(open.db, { verify, suspect: audit.suspect, distrust: audit.distrust }, () => undefined);
  // Read once now, so a decision made while the database is away later still knows whether it needs a second reviewer.
  void away.record.teamSettings.get().catch(() => undefined);
  return {
    record: { ...away.record, link: () => withTrail(away.view()) },
    audit: away.audit,
    resume: away.resume,
    stop: () => (watcher.stop(), away.stop()),
    /** A finding from outside the chain (a checkpoint the history contradicts): the same alarm. */
    raise: heard,
  };
}

export { openRecord, type OpenRecord } from './open';
export type { ReviewRecord } from '../ports';
export type { RecordEngine, TeamDatabase } from './engines';
export type { RecordEvents } from './record-events';
