import type { JsonStore } from '../json-store';
import type { Logger } from '../log';
import type { AuditTrail, ReviewRecord } from '../ports';
import { recordAuditTrail } from './audit-records';
import { ClaimRecords } from './claim-records';
import { DecisionRecords } from './decision-records';
import { DraftRecords } from './draft-records';
import type { OpenRecord } from './open';
import { QueueRecords } from './queue-records';
import { SavedViewRecords } from './saved-view-records';
import { TeamOverviewRecords } from './team-overview-records';
import { TeamSettingsRecords } from './team-settings-records';
import { keepWorkingWhileAway } from './while-away';

/** The record's tables as the services use them, straight onto the database. */
export function reviewRecord(open: OpenRecord): ReviewRecord {
  return {
    engine: open.engine,
    queue: new QueueRecords(open.db),
    drafts: new DraftRecords(open.db),
    decisions: new DecisionRecords(open.db),
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
  opts: { environment: () => string; store: JsonStore; log: Logger; now?: () => number; probeEveryMs?: number },
) {
  const record = reviewRecord(open);
  const audit = recordAuditTrail(open.db, opts.environment, opts.now);
  if (open.engine === 'embedded') return { record, audit, resume: async () => undefined, stop: async () => undefined };
  const away = keepWorkingWhileAway({ db: open.db, record, audit, ...opts });
  // Read once now, so a decision made while the database is away later still knows whether it needs a second reviewer.
  void away.record.teamSettings.get().catch(() => undefined);
  return {
    record: { ...away.record, link: away.view },
    audit: away.audit,
    resume: away.resume,
    stop: away.stop,
  };
}

export { openRecord, type OpenRecord } from './open';
export type { ReviewRecord } from '../ports';
export type { RecordEngine, TeamDatabase } from './engines';
export type { RecordEvents } from './record-events';
