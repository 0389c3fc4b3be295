import { type Kysely, type Selectable, sql } from 'kysely';
import type { AuditAction, AuditEntry } from '../../common/views';
import type { AuditTrail } from '../ports';
import { entryHash, entryHashV2, GENESIS_HASH } from './audit-chain';
import type { AuditEntryTable, RecordDatabase } from './schema';

/** The trail as the record keeps it: an entry can also be appended as of when it happened (it waited to be sent). */
export interface RecordAuditTrail extends AuditTrail {
  /** The environment new entries are stamped with. */
  environment(): string;
  appendAsOf(
    entry: Parameters<AuditTrail['append']>[0] & { at: string; environment: string },
  ): ReturnType<AuditTrail['append']>;
}

/** Entries read per query while the chain is checked. */
const VERIFY_PAGE = 10_000;

/** What this app last saw of the trail: its head (count and hash), and whether it ever saw the history rewritten. */
export interface WitnessedHead {
  count: number;
  hash: string;
  /** Set once the database's history stopped extending what was seen: never cleared by the app. */
  rewritten?: { brokenAt: number; seenAt: string };
}

/** Where the witness keeps what it saw: this app's own data folder, outside the database. */
export interface TrailWitness {
  load(): WitnessedHead | undefined;
  save(head: WitnessedHead): void;
}

/** A witness that forgets at exit: tests, and readers that keep nothing. */
export function memoryWitness(): TrailWitness {
  let head: WitnessedHead | undefined;
  return { load: () => head, save: (h) => void (head = h) };
}

export type ChainCheck = Awaited<ReturnType<AuditTrail['verify']>>;

/**
 * The audit trail in the review record: append-only (the database refuses UPDATE, DELETE and TRUNCATE for every role,
 * see migrations.ts), its chain computed by the database itself (migration 0006). This app is a witness: it keeps the
 * head it last verified in its own data folder and checks at each verify that the database's history still extends
 * it; the whole trail again when `suspect()` says rows may have changed (and at the first verify of a run).
 */
export function recordAuditTrail(
  db: Kysely<RecordDatabase>,
  environment: () => string,
  now: () => number = Date.now,
  witness: TrailWitness = memoryWitness(),
): RecordAuditTrail & { suspect(): void } {
  let wholeTrailChecked = false;
  let checking: Promise<ChainCheck> | undefined;

  const append: RecordAuditTrail['appendAsOf'] = async ({ at, environment: env, interviewId, action, detail }) => {
    // A JSON round trip keeps exactly what will be stored (drops undefined, functions).
    const row = await db
      .insertInto('audit_entries')
      .values({
        at,
        environment: env,
        interview_id: interviewId ?? null,
        action,
        detail: JSON.stringify(detail ?? {}),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return fromRow(row);
  };

  async function check(): Promise<ChainCheck> {
    const seen = witness.load();
    if (seen?.rewritten) return { ok: false, brokenAt: seen.rewritten.brokenAt, rewritten: true };
    const from = wholeTrailChecked && seen ? seen : { count: 0, hash: GENESIS_HASH };
    const fail = (brokenAt: number, rewritten: boolean): ChainCheck => {
      // A trail that once failed is never called intact again by this app.
      witness.save({ ...(seen ?? from), rewritten: { brokenAt, seenAt: new Date(now()).toISOString() } });
      return { ok: false, brokenAt, ...(rewritten ? { rewritten: true } : {}) };
    };
    // The head this app saw must still be there, unchanged: a history re-chained or cut short no longer extends it.
    if (seen && seen.count > 0) {
      const at = await db.selectFrom('audit_entries').select('hash').where('seq', '=', seen.count).executeTakeFirst();
      if (at?.hash !== seen.hash) return fail(seen.count, true);
    }
    let { count, hash } = from;
    for (;;) {
      const rows = await db
        .selectFrom('audit_entries')
        .selectAll()
        .select(sql<string>`detail::text`.as('detail_text'))
        .where('seq', '>', count)
        .orderBy('seq')
        .limit(VERIFY_PAGE)
        .execute();
      for (const row of rows) {
        const seq = count + 1;
        if (row.seq !== seq || row.prev_hash !== hash || hashOf(row) !== row.hash)
          return fail(seq, seen !== undefined && seq <= seen.count);
        count = seq;
        hash = row.hash;
      }
      if (rows.length < VERIFY_PAGE) break;
    }
    if (seen && count < seen.count) return fail(count + 1, true);
    wholeTrailChecked = true;
    witness.save({ count, hash });
    return { ok: true };
  }

  return {
    environment,
    appendAsOf: append,
    append: (entry) => append({ ...entry, at: new Date(now()).toISOString(), environment: environment() }),
    async list(filter) {
      let query = db.selectFrom('audit_entries').selectAll().orderBy('seq');
      if (filter?.interviewId !== undefined) query = query.where('interview_id', '=', filter.interviewId);
      if (filter?.action !== undefined) query = query.where('action', '=', filter.action);
      if (filter?.seq !== undefined) query = query.where('seq', '=', filter.seq);
      return (await query.execute()).map(fromRow);
    },
    async latest(action) {
      const row = await db
        .selectFrom('audit_entries')
        .selectAll()
        .$if(action !== undefined, (q) => q.where('action', '=', action!))
        .orderBy('seq', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && fromRow(row);
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
    /** One check at a time: callers at once share it. */
    verify() {
      checking ??= check().finally(() => (checking = undefined));
      return checking;
    },
    /** Rows may have changed behind the app: the next verify reads the whole trail again. */
    suspect() {
      wholeTrailChecked = false;
    },
  };
}

function hashOf(row: Selectable<AuditEntryTable> & { detail_text: string }): string {
  if (row.hash_version === 2)
    return entryHashV2({
      seq: row.seq,
      at: row.at,
      environment: row.environment,
      interviewId: row.interview_id ?? undefined,
      action: row.action,
      actor: row.actor ?? '',
      detailText: row.detail_text,
      prevHash: row.prev_hash,
    });
  const { hash: _hash, ...body } = fromRow(row);
  return entryHash(body);
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
