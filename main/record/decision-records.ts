import { type Kysely, type Selectable, sql } from 'kysely';
import type { DecisionKind, DecisionRecord } from '../../common/ipc/interview';
import type { DecisionStatus, ReviewVerdict } from '../../common/team-review';
import { ReviewError } from '../errors';
import { refusedByClaim } from './claim-refusal';
import type { DecisionTable, RecordDatabase } from './schema';
import { type ServiceWrite, ServiceWriteRecords } from './service-write-records';

/** Every decision recorded from this app, oldest first per interview, in the review record. */
export class DecisionRecords {
  constructor(private readonly db: Kysely<RecordDatabase>) {}

  /**
   * Records a decision (`final` or `proposed`); who made it is the database's to say (`current_user`), and whether it
   * may: the claim's holder alone, one open decision an interview, four eyes (migration 0006). With `note`, the note
   * that will tell the service is recorded in the same transaction, before anything is sent.
   */
  async add(
    interviewId: string,
    record: DecisionRecord,
    note?: string,
    by?: string,
  ): Promise<{ write?: ServiceWrite }> {
    const write = async (tx: Kysely<RecordDatabase>) => {
      await namedAs(tx, by);
      const { id } = await tx
        .insertInto('decisions')
        .values({
          environment: record.environment,
          interview_id: interviewId,
          decision: record.decision,
          reason_code: record.reasonCode ?? null,
          reason: record.reason,
          acknowledged_findings: JSON.stringify(record.acknowledgedFindings),
          decided_at: record.decidedAt,
          status: record.status,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (note === undefined) return {};
      return { write: await new ServiceWriteRecords(tx).begin(record.environment, interviewId, 'decision', note, id) };
    };
    // Inside a caller's transaction (an import) it is part of that one.
    return (this.db.isTransaction ? write(this.db) : this.db.transaction().execute(write)).catch(refusedByRecord);
  }

  /**
   * A different member confirms or overturns the interview's last decision, a proposal. Confirmed with `note`, the
   * note that tells the service is recorded in the same transaction, to be sent once it commits. The database refuses
   * the proposer (decisions_four_eyes) and anyone but the claim's holder.
   */
  async review(
    environment: string,
    interviewId: string,
    verdict: ReviewVerdict,
    reason: string,
    note?: (proposal: DecisionRecord) => string,
    by?: string,
  ): Promise<{ record: DecisionRecord; write?: ServiceWrite }> {
    // At commit the database checks the claim again (0012): handed over meanwhile, the review is refused.
    return this.db
      .transaction()
      .execute(async (tx) => {
        await namedAs(tx, by);
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
          .catch(refusedByRecord);
        if (!row) throw nothingToReview(interviewId);
        const record = fromRow(row);
        if (!note || verdict !== 'confirmed') return { record };
        const write = await new ServiceWriteRecords(tx).begin(
          environment,
          interviewId,
          'decision',
          note(record),
          row.id,
        );
        return { record, write };
      })
      .catch(refusedByRecord);
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

  /** Which of these interviews (all of the environment's when none are named) have a proposal waiting. */
  async proposals(environment: string, interviewIds?: readonly string[]): Promise<Set<string>> {
    if (interviewIds?.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('decisions')
      .select('interview_id')
      .where('environment', '=', environment)
      .where('status', '=', 'proposed')
      .$if(interviewIds !== undefined, (q) => q.where('interview_id', 'in', interviewIds!))
      .execute();
    return new Set(rows.map((r) => r.interview_id));
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

  /**
   * The interviews of an environment with a decision that took effect (final or confirmed) in `[from, to)`, each once,
   * at its latest such decision, in order of that time (to the millisecond, as the cursor travels), read a page at a
   * time after `after` (the last one of the previous page): a batch of evidence files walks them without holding the
   * whole period.
   */
  async decidedBetween(
    environment: string,
    from: string,
    to: string,
    limit: number,
    after?: { at: string; interviewId: string },
  ): Promise<{ at: string; interviewId: string }[]> {
    // Milliseconds, as the cursor travels in JavaScript; an interview once, at its latest decision in the period.
    const { rows } = await sql<{ interview_id: string; at: Date }>`
      select interview_id, at from (
        select d.interview_id, date_trunc('milliseconds', coalesce(d.reviewed_at, d.decided_at)) as at
        from decisions d
        where d.environment = ${environment} and d.status in ('final', 'confirmed')
          and coalesce(d.reviewed_at, d.decided_at) >= ${new Date(from)}
          and coalesce(d.reviewed_at, d.decided_at) < ${new Date(to)}
          and not exists (
            select 1 from decisions later
            where later.environment = d.environment and later.interview_id = d.interview_id
              and later.status in ('final', 'confirmed')
              and coalesce(later.reviewed_at, later.decided_at) < ${new Date(to)}
              and (coalesce(later.reviewed_at, later.decided_at), later.id) > (coalesce(d.reviewed_at, d.decided_at), d.id))
      ) effective
      ${after ? sql`where (at, interview_id) > (${new Date(after.at)}, ${after.interviewId})` : sql``}
      order by at, interview_id
      limit ${limit}`.execute(this.db);
    return rows.map((r) => ({ at: new Date(r.at).toISOString(), interviewId: r.interview_id }));
  }

  async clear(environment: string): Promise<void> {
    await this.db.deleteFrom('decisions').where('environment', '=', environment).execute();
  }
}

/**
 * The person the decision's trail entry names (migration 0013 writes it): on a team database the login, whatever is
 * set here; on this computer's record, the name the app knows them by. Set for this transaction only.
 */
async function namedAs(tx: Kysely<RecordDatabase>, by: string | undefined): Promise<void> {
  if (by) await sql`select set_config('omni.by', ${by}, true)`.execute(tx);
}

function fromRow(row: Selectable<DecisionTable>): DecisionRecord {
  return {
    decision: row.decision as DecisionKind,
    ...(row.reason_code !== null ? { reasonCode: row.reason_code } : {}),
    ...(row.reason_label_en !== null && row.reason_label_es !== null
      ? { reasonLabel: { en: row.reason_label_en, es: row.reason_label_es } }
      : {}),
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

/** The database's refusals of a decision (migrations 0003 and 0006) by constraint: code, what happened, what next. */
const REFUSALS: Record<string, ConstructorParameters<typeof ReviewError>> = {
  decisions_proposal_waiting: [
    'PROPOSAL_WAITING',
    {
      en: 'A proposal for this interview waits for a second review: it is confirmed or overturned first.',
      es: 'Una propuesta para esta entrevista espera una segunda revisión: primero se confirma o se revierte.',
    },
    {
      en: 'Ask a colleague to review the proposal, or review it yourself if it is not yours.',
      es: 'Pide a un colega que revise la propuesta, o revísala tú si no es tuya.',
    },
  ],
  decisions_already_decided: [
    'ALREADY_DECIDED',
    {
      en: 'This interview is decided already; the team database keeps one decision.',
      es: 'Esta entrevista ya está decidida; la base de datos del equipo guarda una sola decisión.',
    },
    {
      en: 'Reload the interview to see the decision. Only an admin removes a decision.',
      es: 'Vuelve a cargar la entrevista para ver la decisión. Solo un administrador quita una decisión.',
    },
  ],
  decisions_reason_code: [
    'UNKNOWN_REASON_CODE',
    {
      en: "The reason code is not one of the team's codes for this decision now: a supervisor may have just retired it.",
      es: 'El código de motivo no es ahora uno de los del equipo para esta decisión: quizá un supervisor acaba de retirarlo.',
    },
    {
      en: 'Choose one of the codes listed, then record the decision again.',
      es: 'Elige uno de los códigos de la lista y vuelve a registrar la decisión.',
    },
  ],
  decisions_four_eyes: [
    'OWN_PROPOSAL',
    {
      en: 'You proposed this decision, so a different member of the team confirms or overturns it.',
      es: 'Tú propusiste esta decisión, así que otro miembro del equipo la confirma o la revierte.',
    },
    { en: 'Ask a colleague to review it.', es: 'Pide a un colega que la revise.' },
  ],
  decisions_needs_second_reviewer: [
    'SECOND_REVIEW_REQUIRED',
    {
      en: "The team's rule asks for a second reviewer on this approval.",
      es: 'La regla del equipo pide un segundo revisor para esta aprobación.',
    },
    {
      en: 'Approve again: it is recorded as a proposal for a colleague to confirm.',
      es: 'Vuelve a aprobar: se registra como propuesta para que un colega la confirme.',
    },
  ],
};

/** A refusal of the database, in the analyst's words; anything else as it came. */
function refusedByRecord(error: unknown): never {
  refusedByClaim(error);
  const { constraint } = (error ?? {}) as { constraint?: unknown };
  if (typeof constraint === 'string' && Object.hasOwn(REFUSALS, constraint))
    throw new ReviewError(...REFUSALS[constraint]!);
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
