import type { Kysely } from 'kysely';
import type { RecordDatabase } from './schema';

/**
 * Each reading of an interview's checks: who read which risk, when (migration 0006). Append-only and attributed by
 * the database; four eyes is judged on every reading on file, not on what the decider writes with the decision.
 */
export class RiskReadingRecords {
  constructor(private readonly db: Kysely<RecordDatabase>) {}

  async add(environment: string, interviewId: string, level: string, highFindings: string[]): Promise<void> {
    await this.db
      .insertInto('risk_readings')
      .values({ environment, interview_id: interviewId, level, high_findings: JSON.stringify(highFindings) })
      .execute();
  }

  async all(
    environment: string,
    interviewId: string,
  ): Promise<{ level: string; highFindings: string[]; readBy: string; readAt: string }[]> {
    const rows = await this.db
      .selectFrom('risk_readings')
      .selectAll()
      .where('environment', '=', environment)
      .where('interview_id', '=', interviewId)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      level: r.level,
      highFindings: r.high_findings,
      readBy: r.read_by,
      readAt: r.read_at.toISOString(),
    }));
  }
}
