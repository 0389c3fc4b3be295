import { type Kysely, type Selectable, sql } from 'kysely';
import type { DecisionKind, DecisionRecord } from '../../common/ipc/interview';
import type { DecisionStatus, ReviewVerdict } from '../../common/team-review';
import { ReviewError } from '../errors';
import type { DecisionTable, RecordDatabase } from './schema';

/** Every decision recorded from this app, oldest first per interview, in the review record. */
export class DecisionRecords {
  constructor(private readonly db: Kysely<RecordDatabase>) {}

  /** Records a decision (`final` or `proposed`); who made it is the database's to say (`current_user`). */
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
        status: record.status,
      })
      .execute()
      .catch(refusedByFourEyes);
  }

  /**
   * A different member confirms or overturns the interview's last decision, a proposal. `beforeCommit` runs inside
   * the same transaction, with the proposal's row locked: the confirmation's note is sent there, so it goes once,
   * and a failed send leaves the proposal waiting. The database refuses the proposer (decisions_four_eyes).
   */
  async review(
    environment: string,
    interviewId: string,
    verdict: ReviewVerdict,
    reason: string,
    beforeCommit?: (record: DecisionRecord) => Promise<void>,
  ): Promise<DecisionRecord> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx
        .updateTable('decisions')
        .set({ status: verdict, reviewed_by: sql<string>`current_user`, review_reason: reason })
        .where(
          'id',
          '=',
          tx
            .selectFrom('decisions')
            .select((eb) => eb.fn.max('id').as('id'))
            .where('environment', '=', environment)
            .where('interview_id', '=', interviewId),
        )
        .where('status', '=', 'proposed')
        .returningAll()
        .executeTakeFirst()
        .catch(refusedByFourEyes);
      if (!row) throw nothingToReview(interviewId);
      const record = fromRow(row);
      await beforeCommit?.(record);
      return record;
    });
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
    status: row.status as DecisionStatus,
    ...(row.decided_by !== null ? { decidedBy: row.decided_by } : {}),
    ...(row.reviewed_by !== null ? { reviewedBy: row.reviewed_by } : {}),
    ...(row.review_reason !== null ? { reviewReason: row.review_reason } : {}),
    ...(row.reviewed_at ? { reviewedAt: row.reviewed_at.toISOString() } : {}),
  };
}

/** The database's four-eyes refusals (migration-team-review.ts), in the analyst's words. */
function refusedByFourEyes(error: unknown): never {
  const { constraint } = (error ?? {}) as { constraint?: unknown };
  if (constraint === 'decisions_four_eyes')
    throw new ReviewError(
      'OWN_PROPOSAL',
      {
        en: 'You proposed this decision, so a different member of the team confirms or overturns it.',
        es: 'Tú propusiste esta decisión, así que otro miembro del equipo la confirma o la revierte.',
      },
      {
        en: 'Ask a colleague to review it.',
        es: 'Pide a un colega que la revise.',
      },
    );
  if (constraint === 'decisions_needs_second_reviewer')
    throw new ReviewError(
      'SECOND_REVIEW_REQUIRED',
      {
        en: "The team's rule asks for a second reviewer on this approval.",
        es: 'La regla del equipo pide un segundo revisor para esta aprobación.',
      },
      {
        en: 'Approve again: it is recorded as a proposal for a colleague to confirm.',
        es: 'Vuelve a aprobar: se registra como propuesta para que un colega la confirme.',
      },
    );
  throw error;
}

function nothingToReview(interviewId: string): ReviewError {
  return new ReviewError(
    'NOTHING_TO_REVIEW',
    {
      en: `Interview ${interviewId} has no decision waiting for a second review.`,
      es: `La entrevista ${interviewId} no tiene una decisión en espera de segunda revisión.`,
    },
    {
      en: 'Someone may have reviewed it already: reload the interview.',
      es: 'Quizá alguien ya la revisó: vuelve a cargar la entrevista.',
    },
  );
}
