import type { AuditTrail, ReviewRecord } from '../ports';
import { recordAuditTrail } from './audit-records';
import { DecisionRecords } from './decision-records';
import { DraftRecords } from './draft-records';
import type { OpenRecord } from './open';
import { QueueRecords } from './queue-records';

export function reviewRecord(open: OpenRecord): ReviewRecord {
  return {
    engine: open.engine,
    queue: new QueueRecords(open.db),
    drafts: new DraftRecords(open.db),
    decisions: new DecisionRecords(open.db),
  };
}

/** The audit trail of the record, entries stamped with the active environment. */
export function auditTrailOf(open: OpenRecord, environment: () => string, now?: () => number): AuditTrail {
  return recordAuditTrail(open.db, environment, now);
}

export { openRecord, type OpenRecord } from './open';
export type { ReviewRecord } from '../ports';
export type { RecordEngine, TeamDatabase } from './engines';
