import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { ROW_BYTES } from './chain-pages.mjs';
import { refusedByClaim } from './claim-refusal';
import type { RecordDatabase } from './schema';

/** What the service is sent about an interview: a note, the name, or a decision's note. */
export type ServiceWriteKind = 'notes' | 'name' | 'decision';

/** A write recorded before it is sent: its key goes with every attempt, so the service keeps it once. */
export interface ServiceWrite {
  id: string;
  idempotencyKey: string;
  body: string;
  decisionId?: number;
}

/**
 * The database first, the service second: a write is recorded here (and thereby allowed: the claim's holder alone,
 * migration 0006) before it is sent, then settled with what the service answered by the login that wrote it.
 */
export class ServiceWriteRecords {
  constructor(private readonly db: Kysely<RecordDatabase>) {}

  async begin(
    environment: string,
    interviewId: string,
    kind: ServiceWriteKind,
    body: string,
    decisionId?: number,
  ): Promise<ServiceWrite> {
    const row = await this.db
      .insertInto('service_writes')
      .values({
        environment,
        interview_id: interviewId,
        kind,
        body,
        idempotency_key: randomUUID(),
        decision_id: decisionId ?? null,
      })
      .returning(['id', 'idempotency_key', 'body', 'decision_id'])
      .executeTakeFirstOrThrow();
    return toWrite(row);
  }

  /**
   * What the service answered: taken (`sent`) or not (`refused`, with its words); a refused one may be sent again. A
   * note or name taken goes on the trail as it is settled (migration 0016), naming `by` on this computer's record (on a
   * team database, the login).
   */
  async settle(id: string, state: 'sent' | 'refused', answer: unknown, by?: string): Promise<void> {
    const settle = async (db: Kysely<RecordDatabase>) => {
      if (by) await sql`select set_config('omni.by', ${by}, true)`.execute(db);
      await db
        .updateTable('service_writes')
        .set({ state, answer: JSON.stringify(answer ?? null) })
        .where('id', '=', id)
        .where('written_by', '=', sql<string>`current_user`)
        .execute();
    };
    try {
      await (this.db.isTransaction ? settle(this.db) : this.db.transaction().execute(settle));
    } catch (error) {
      // Settled sent only by the interview's live holder (migration 0019), as it was sent.
      refusedByClaim(error);
      throw error;
    }
  }

  /** How many bytes one interview's writes take (texts, keys, answers, each row's own): what its evidence file holds. */
  async writeBytes(environment: string, interviewId: string): Promise<number> {
    const row = await this.db
      .selectFrom('service_writes')
      .select(
        sql<string | null>`sum(octet_length(body) + octet_length(idempotency_key)
          + coalesce(octet_length(answer::text), 0) + ${sql.lit(ROW_BYTES)})`.as('bytes'),
      )
      .where('environment', '=', environment)
      .where('interview_id', '=', interviewId)
      .executeTakeFirst();
    return Number(row?.bytes ?? 0);
  }

  /** Every write about one interview, oldest first, by anyone, with what the service answered. */
  async history(environment: string, interviewId: string): Promise<ServiceWriteHistoryRow[]> {
    const rows = await this.db
      .selectFrom('service_writes')
      .selectAll()
      .where('environment', '=', environment)
      .where('interview_id', '=', interviewId)
      .orderBy('written_at')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      kind: r.kind as ServiceWriteKind,
      body: r.body,
      idempotencyKey: r.idempotency_key,
      ...(r.decision_id !== null ? { decisionId: r.decision_id } : {}),
      writtenBy: r.written_by,
      writtenAt: new Date(r.written_at).toISOString(),
      state: r.state,
      ...(r.answered_at ? { answeredAt: new Date(r.answered_at).toISOString() } : {}),
      answer: r.answer ?? null,
    }));
  }

  /** This login's last write of a kind for the interview that the service has not taken, to send again as it was. */
  async unsent(environment: string, interviewId: string, kind: ServiceWriteKind): Promise<ServiceWrite | undefined> {
    const row = await this.db
      .selectFrom('service_writes')
      .select(['id', 'idempotency_key', 'body', 'decision_id', 'state'])
      .where('environment', '=', environment)
      .where('interview_id', '=', interviewId)
      .where('kind', '=', kind)
      .where('written_by', '=', sql<string>`current_user`)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && row.state !== 'sent' ? toWrite(row) : undefined;
  }
}

/** A write as the record keeps it, with the service's answer as read: what an evidence file carries. */
export interface ServiceWriteHistoryRow {
  kind: ServiceWriteKind;
  body: string;
  idempotencyKey: string;
  decisionId?: number;
  writtenBy: string;
  writtenAt: string;
  state: string;
  answeredAt?: string;
  answer: unknown;
}

export function toWrite(row: {
  id: string;
  idempotency_key: string;
  body: string;
  decision_id: number | null;
}): ServiceWrite {
  return {
    id: String(row.id),
    idempotencyKey: row.idempotency_key,
    body: row.body,
    ...(row.decision_id !== null ? { decisionId: row.decision_id } : {}),
  };
}
