import { type Kysely, type Selectable, sql } from 'kysely';
import type { AuditAction, AuditEntry } from '../../common/views';
import type { AuditTrail } from '../ports';
import { entryHash, GENESIS_HASH } from './audit-chain';
import type { AuditEntryTable, RecordDatabase } from './schema';

/** The trail as the record keeps it: an entry can also be appended as of when it happened (it waited to be sent). */
export interface RecordAuditTrail extends AuditTrail {
  /** The environment new entries are stamped with. */
  environment(): string;
  appendAsOf(
    entry: Parameters<AuditTrail['append']>[0] & { at: string; environment: string },
  ): ReturnType<AuditTrail['append']>;
}

/** Any constant: appends take this transaction-scoped lock, so two never chain onto the same predecessor. */
const APPEND_LOCK = 151_151;
/** Entries read per query while the chain is checked. */
const VERIFY_PAGE = 10_000;

/**
 * The audit trail in the review record: append-only (the database refuses UPDATE, DELETE and TRUNCATE for every role,
 * see migrations.ts), with the same SHA-256 hash chain as before, so a trail imported from a file verifies the same.
 */
export function recordAuditTrail(
  db: Kysely<RecordDatabase>,
  environment: () => string,
  now: () => number = Date.now,
): RecordAuditTrail {
  /** How far the chain is known to hold: entries are never changed, so a checked prefix stays checked. */
  let checked = { count: 0, prevHash: GENESIS_HASH };

  const append: RecordAuditTrail['appendAsOf'] = ({ at, environment: env, interviewId, action, detail }) =>
    db.transaction().execute(async (tx) => {
      // Who writes is the database's to say: the actor is hashed with the entry, and a trigger refuses any other.
      const { rows } = await sql<{ actor: string }>`
        select current_user as actor, pg_advisory_xact_lock(${APPEND_LOCK})`.execute(tx);
      const last = await tx
        .selectFrom('audit_entries')
        .select(['seq', 'hash'])
        .orderBy('seq', 'desc')
        .limit(1)
        .executeTakeFirst();
      // A JSON round trip keeps exactly what will be stored (drops undefined, functions), so the hash matches on verify.
      const body: Omit<AuditEntry, 'hash'> = {
        seq: (last?.seq ?? 0) + 1,
        at,
        environment: env,
        ...(interviewId !== undefined ? { interviewId } : {}),
        action: action as AuditAction,
        detail: JSON.parse(JSON.stringify(detail ?? {})) as Record<string, unknown>,
        prevHash: last?.hash ?? GENESIS_HASH,
        actor: rows[0]!.actor,
      };
      const entry: AuditEntry = { ...body, hash: entryHash(body) };
      await tx.insertInto('audit_entries').values(toRow(entry)).execute();
      return entry;
    });

  return {
    environment,
    appendAsOf: append,
    append: (entry) => append({ ...entry, at: new Date(now()).toISOString(), environment: environment() }),
    async list(filter) {
      let query = db.selectFrom('audit_entries').selectAll().orderBy('seq');
      if (filter?.interviewId !== undefined) query = query.where('interview_id', '=', filter.interviewId);
      return (await query.execute()).map(fromRow);
    },
    async lastRecorded(action, env, interviewIds) {
      let query = db
        .selectFrom('audit_entries')
        .select(['interview_id', (eb) => eb.fn.max('at').as('at')])
        .where('environment', '=', env)
        .where('action', '=', action)
        .where('interview_id', 'is not', null);
      if (interviewIds) {
        if (interviewIds.length === 0) return () => undefined;
        query = query.where('interview_id', 'in', interviewIds);
      }
      const rows = await query.groupBy('interview_id').execute();
      const at = new Map(rows.map((r) => [r.interview_id!, r.at]));
      return (interviewId) => at.get(interviewId);
    },
    async verify() {
      for (;;) {
        const rows = await db
          .selectFrom('audit_entries')
          .selectAll()
          .where('seq', '>', checked.count)
          .orderBy('seq')
          .limit(VERIFY_PAGE)
          .execute();
        if (rows.length === 0) return { ok: true };
        let { count, prevHash } = checked;
        for (const row of rows) {
          const entry = fromRow(row);
          const seq = count + 1;
          if (entry.seq !== seq || entry.prevHash !== prevHash || entryHash(withoutHash(entry)) !== entry.hash)
            return { ok: false, brokenAt: seq };
          count = seq;
          prevHash = entry.hash;
        }
        checked = { count, prevHash };
      }
    },
  };
}

/** Writes entries as they are (an imported trail keeps its own times and hashes); the chain is checked by verify. */
export async function insertAuditEntries(db: Kysely<RecordDatabase>, entries: AuditEntry[]): Promise<void> {
  for (let i = 0; i < entries.length; i += 5_000)
    await db
      .insertInto('audit_entries')
      .values(entries.slice(i, i + 5_000).map(toRow))
      .execute();
}

function toRow(entry: AuditEntry) {
  return {
    seq: entry.seq,
    at: entry.at,
    environment: entry.environment,
    interview_id: entry.interviewId ?? null,
    action: entry.action,
    detail: JSON.stringify(entry.detail),
    prev_hash: entry.prevHash,
    hash: entry.hash,
    actor: entry.actor ?? null,
  };
}

function fromRow(row: Selectable<AuditEntryTable>): AuditEntry {
  return {
    seq: row.seq,
    at: row.at,
    environment: row.environment,
    ...(row.interview_id !== null ? { interviewId: row.interview_id } : {}),
    action: row.action as AuditAction,
    detail: row.detail,
    prevHash: row.prev_hash,
    hash: row.hash,
    ...(row.actor !== null ? { actor: row.actor } : {}),
  };
}

function withoutHash(entry: AuditEntry): Omit<AuditEntry, 'hash'> {
  const { hash: _hash, ...body } = entry;
  return body;
}
