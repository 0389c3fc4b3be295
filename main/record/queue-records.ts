import type { Kysely, Selectable } from 'kysely';
import type { SessionStatus } from '../../common/omni';
import type { LocalReviewState, QueueEntry } from '../../common/ipc/queue';
import type { QueueEntryTable, RecordDatabase } from './schema';

/** A queue entry as the record keeps it: the view without what is looked up elsewhere (the vault's token). */
export type StoredEntry = Omit<QueueEntry, 'hasSessionToken'>;

/** Rows per INSERT: PostgreSQL takes at most 65,535 parameters in one statement, 9 per row here. */
const ROWS_PER_INSERT = 5_000;

/** The analyst's queues, one per environment, in the review record. */
export class QueueRecords {
  constructor(private readonly db: Kysely<RecordDatabase>) {}

  async list(environment: string): Promise<StoredEntry[]> {
    const rows = await this.db
      .selectFrom('queue_entries')
      .selectAll()
      .where('environment', '=', environment)
      .orderBy('added_at')
      .orderBy('interview_id')
      .execute();
    return rows.map(fromRow);
  }

  async get(environment: string, interviewId: string): Promise<StoredEntry | undefined> {
    const row = await this.db
      .selectFrom('queue_entries')
      .selectAll()
      .where('environment', '=', environment)
      .where('interview_id', '=', interviewId)
      .executeTakeFirst();
    return row && fromRow(row);
  }

  async getMany(environment: string, interviewIds: string[]): Promise<Map<string, StoredEntry>> {
    const found = new Map<string, StoredEntry>();
    for (let i = 0; i < interviewIds.length; i += ROWS_PER_INSERT) {
      const rows = await this.db
        .selectFrom('queue_entries')
        .selectAll()
        .where('environment', '=', environment)
        .where('interview_id', 'in', interviewIds.slice(i, i + ROWS_PER_INSERT))
        .execute();
      for (const row of rows) found.set(row.interview_id, fromRow(row));
    }
    return found;
  }

  /** Writes the entries whole (new ones added, existing ones replaced), in one transaction. */
  async put(environment: string, entries: StoredEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const write = async (tx: Kysely<RecordDatabase>) => {
      for (let i = 0; i < entries.length; i += ROWS_PER_INSERT)
        await tx
          .insertInto('queue_entries')
          .values(entries.slice(i, i + ROWS_PER_INSERT).map((e) => toRow(environment, e)))
          .onConflict((oc) =>
            oc.columns(['environment', 'interview_id']).doUpdateSet((eb) => ({
              added_at: eb.ref('excluded.added_at'),
              local_state: eb.ref('excluded.local_state'),
              label: eb.ref('excluded.label'),
              label_es: eb.ref('excluded.label_es'),
              session_status: eb.ref('excluded.session_status'),
              session_status_seen_at: eb.ref('excluded.session_status_seen_at'),
              last_opened_at: eb.ref('excluded.last_opened_at'),
            })),
          )
          .execute();
    };
    // Inside a caller's transaction (an import) it is part of that one.
    if (this.db.isTransaction) await write(this.db);
    else await this.db.transaction().execute(write);
  }

  /** Removes the entry; what it held, or undefined when it was not there. */
  async remove(environment: string, interviewId: string): Promise<StoredEntry | undefined> {
    const row = await this.db
      .deleteFrom('queue_entries')
      .where('environment', '=', environment)
      .where('interview_id', '=', interviewId)
      .returningAll()
      .executeTakeFirst();
    return row && fromRow(row);
  }

  /** Empties an environment's queue; the ids it held. */
  async clear(environment: string): Promise<string[]> {
    const rows = await this.db
      .deleteFrom('queue_entries')
      .where('environment', '=', environment)
      .returning('interview_id')
      .execute();
    return rows.map((r) => r.interview_id);
  }
}

function fromRow(row: Selectable<QueueEntryTable>): StoredEntry {
  return {
    interviewId: row.interview_id,
    addedAt: row.added_at.toISOString(),
    localState: row.local_state as LocalReviewState,
    ...(row.label !== null ? { label: row.label } : {}),
    ...(row.label_es !== null ? { labelEs: row.label_es } : {}),
    ...(row.session_status !== null ? { sessionStatus: row.session_status as SessionStatus } : {}),
    ...(row.session_status_seen_at ? { sessionStatusSeenAt: row.session_status_seen_at.toISOString() } : {}),
    ...(row.last_opened_at ? { lastOpenedAt: row.last_opened_at.toISOString() } : {}),
  };
}

function toRow(environment: string, e: StoredEntry) {
  return {
    environment,
    interview_id: e.interviewId,
    added_at: e.addedAt,
    local_state: e.localState,
    label: e.label ?? null,
    label_es: e.labelEs ?? null,
    session_status: e.sessionStatus ?? null,
    session_status_seen_at: e.sessionStatusSeenAt ?? null,
    last_opened_at: e.lastOpenedAt ?? null,
  };
}
