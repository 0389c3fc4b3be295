import type { Kysely, Selectable } from 'kysely';
import type { DecisionKind, DecisionRecord } from '../../common/ipc/interview';
import type { DecisionTable, RecordDatabase } from './schema';

/** Every decision recorded from this app, oldest first per interview, in the review record. */
export class DecisionRecords {
  constructor(private readonly db: Kysely<RecordDatabase>) {}

  async add(interviewId: string, record: DecisionRecord): Promise<void> {
    await this.db
      .insertInto('decisions')
      .values({
        environment: record.environment,
        interview_id: interviewId,
        decision: record.decision,
        reason: record.reason,
        acknowledged_findings: JSON.stringify(record.acknowledgedFindings),
        decided_at: record.decidedAt,
      })
      .execute();
  }

  async last(environment: string, interviewId: string): Promise<DecisionRecord | undefined> {
    const row = await this.db
      .selectFrom('decisions')
      .selectAll()
      .where('environment', '=', environment)
      .where('interview_id', '=', interviewId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && fromRow(row);
  }

  async all(environment: string, interviewId: string): Promise<DecisionRecord[]> {
    const rows = await this.db
      .selectFrom('decisions')
      .selectAll()
      .where('environment', '=', environment)
      .where('interview_id', '=', interviewId)
      .orderBy('id')
      .execute();
    return rows.map(fromRow);
  }

  async clear(environment: string): Promise<void> {
    await this.db.deleteFrom('decisions').where('environment', '=', environment).execute();
  }
}

function fromRow(row: Selectable<DecisionTable>): DecisionRecord {
  return {
    decision: row.decision as DecisionKind,
    reason: row.reason,
    acknowledgedFindings: row.acknowledged_findings,
    decidedAt: row.decided_at.toISOString(),
    environment: row.environment,
  };
}
