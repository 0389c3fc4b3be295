import { type Expression, type ExpressionBuilder, type Kysely, type Selectable, type SqlBool, sql } from 'kysely';
import type { AuditAction, AuditEntry } from '../../common/views';
import { currentSecrets, redact } from '../log';

/**
 * The held secrets the trail withholds: long enough that a hash, a folio or a time never holds one by chance (a
 * one-character server token rewrote a checkpoint's hash, red team 19). Real keys and tokens are far longer.
 */
const trailSecrets = () => currentSecrets().filter((secret) => secret.length >= 16);
import type { AuditTrail, ChainLink } from '../ports';
import { chainRowHash, chainRowPreimage, extendChain, GENESIS_HASH } from './audit-chain';
import { CHAIN_PAGE, chainPagesBySize, ENTRY_BYTES_SQL } from './chain-pages.mjs';
import type { ChainWalk, ChainWalker } from './chain-walk';
import type { AuditEntryTable, RecordDatabase } from './schema';

const ENTRY_BYTES = sql.raw<string>(ENTRY_BYTES_SQL);

/** The trail as the record keeps it: an entry can also be appended as of when it happened (it waited to be sent). */
export interface RecordAuditTrail extends AuditTrail {
  /** The environment new entries are stamped with. */
  environment(): string;
  appendAsOf(
    entry: Parameters<AuditTrail['append']>[0] & { at: string; environment: string },
    opts?: Parameters<AuditTrail['append']>[1],
  ): ReturnType<AuditTrail['append']>;
}

/** What this app last saw of the trail: its head (count and hash), and whether it ever saw the history rewritten. */
export interface WitnessedHead {
  count: number;
  hash: string;
  /**
   * Set once the database's history stopped extending what was seen: never cleared by the app. The trail is still
   * watched after it (red team 22: an app in alarm had stopped checking, so a later rewrite went unseen): `brokenAt` and
   * `seenAt` are the latest break's, and `rebase` says the head above is the old one, to be taken again from the whole
   * trail as it now is.
   */
  rewritten?: { brokenAt: number; seenAt: string; rebase?: true };
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
 * see migrations/), its chain computed by the database itself (migration 0006). This app is a witness: it keeps the
 * head it last verified in its own data folder and checks at each verify that the database's history still extends
 * it; the rows changed since its last check when `suspect()` says some may have, and the whole trail at the first
 * verify of a run and after `distrust()`.
 */
export function recordAuditTrail(
  db: Kysely<RecordDatabase>,
  environment: () => string,
  now: () => number = Date.now,
  witness: TrailWitness = memoryWitness(),
  /** Walks the whole trail elsewhere (a thread of its own, chain-walk.ts); default: here, a page at a time. */
  walkWhole?: ChainWalker,
): RecordAuditTrail & { suspect(): void; distrust(): void } {
  let wholeTrailChecked = false;
  /** Rows may have changed behind the app since `horizon` (the oldest transaction running at its last check). */
  let rowsSuspect = false;
  let horizon: string | undefined;
  let checking: Promise<ChainCheck> | undefined;

  const append: RecordAuditTrail['appendAsOf'] = async (
    { at, environment: env, interviewId, action, detail },
    opts,
  ) => {
    // A JSON round trip keeps exactly what will be stored (drops undefined, functions). No held secret is: the trail
    // keeps every entry forever and every export copies it (a folio echoing the API key went on it, red team 18).
    const insert = (into: Kysely<RecordDatabase>) =>
      into
        .insertInto('audit_entries')
        .values({
          at,
          environment: env,
          interview_id: interviewId ?? null,
          action,
          detail: JSON.stringify(redact(detail ?? {}, trailSecrets())),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    const row =
      opts?.waitAtMostMs === undefined
        ? await insert(db)
        : await db.transaction().execute(async (tx) => {
            // The chain's lock (an advisory lock any login can hold) is waited for this long at most.
            await sql`select set_config('lock_timeout', ${`${Math.ceil(opts.waitAtMostMs!)}ms`}, true)`.execute(tx);
            return insert(tx);
          });
    return fromRow(row);
  };

  /** The columns an entry's hash covers, `detail` as its stored text (parsed only for hash version 1). */
  const chainRows = () =>
    db
      .selectFrom('audit_entries')
      .select([
        'seq',
        'at',
        'environment',
        'interview_id',
        'action',
        'actor',
        'prev_hash',
        'hash',
        'hash_version',
        sql<string>`detail::text`.as('detail_text'),
      ]);

  type Narrow = (eb: ExpressionBuilder<RecordDatabase, 'audit_entries'>) => Expression<SqlBool>;
  const everyEntry: Narrow = () => sql<SqlBool>`true`;
  /** The entries after `after` (in order, narrowed by `narrow`), in pages bounded by their details' size. */
  function chainPages(after: number, narrow: Narrow = everyEntry) {
    return chainPagesBySize(
      after,
      (from) =>
        db
          .selectFrom('audit_entries')
          .select(['seq', sql<string>`${ENTRY_BYTES}`.as('bytes')])
          .where('seq', '>', from)
          .where(narrow)
          .orderBy('seq')
          .limit(CHAIN_PAGE)
          .execute(),
      (from, upTo) =>
        chainRows().where('seq', '>', from).where('seq', '<=', upTo).where(narrow).orderBy('seq').execute(),
    );
  }

  /**
   * The rows written or changed by transactions this app had not seen at its last check (their `xmin` is at or past
   * the oldest transaction running then): each must still hash to itself and link to its neighbours. One scan of a
   * narrow column instead of hashing the whole trail again. The first broken entry, if any.
   */
  async function changedRowsBreak(horizon: string, upTo: number): Promise<number | undefined> {
    const changedSince: Narrow = (eb) =>
      // age() is integer arithmetic on the transaction ids, cheaper per row than comparing their text.
      eb.and([sql<SqlBool>`age(xmin) <= age(${horizon}::text::xid)`, eb('seq', '<=', upTo)]);
    for await (const rows of chainPages(0, changedSince)) {
      const broken = await brokenAmong(rows);
      if (broken !== undefined) return broken;
    }
    return undefined;
  }

  /** The first of `changed` that no longer hashes to itself or links to its neighbours. */
  async function brokenAmong(changed: Awaited<ReturnType<ReturnType<typeof chainRows>['execute']>>) {
    if (changed.length === 0) return undefined;
    const seqs = changed.flatMap((row) => [row.seq - 1, row.seq + 1]);
    const around = new Map(
      (
        await db.selectFrom('audit_entries').select(['seq', 'hash', 'prev_hash']).where('seq', 'in', seqs).execute()
      ).map((r) => [r.seq, r]),
    );
    for (const row of changed) {
      const before = row.seq === 1 ? GENESIS_HASH : around.get(row.seq - 1)?.hash;
      const after = around.get(row.seq + 1);
      if (chainRowHash(row) !== row.hash || row.prev_hash !== before || (after && after.prev_hash !== row.hash))
        return row.seq;
    }
    return undefined;
  }

  /** From a verified head to the end, in pages read here. */
  async function walkHere(from: { count: number; hash: string }): Promise<ChainWalk> {
    let walked: ChainWalk = { ok: true, ...from };
    for await (const rows of chainPages(from.count)) {
      walked = extendChain(walked, rows);
      if (!walked.ok) return walked;
    }
    return walked;
  }

  async function check(): Promise<ChainCheck> {
    const stored = witness.load();
    const alarm = stored?.rewritten;
    // After a break, the head this app had seen is gone: the trail as it now is becomes the head to watch from.
    const seen = alarm?.rebase ? undefined : stored;
    const fail = (brokenAt: number, rewritten: boolean): ChainCheck => {
      // A trail that once failed is never called intact again by this app; what breaks it later is said too.
      witness.save({
        ...(stored ?? { count: 0, hash: GENESIS_HASH }),
        rewritten: { brokenAt, seenAt: new Date(now()).toISOString(), rebase: true },
      });
      return { ok: false, brokenAt, ...(rewritten || alarm ? { rewritten: true } : {}) };
    };
    // Every transaction not yet committed now is one this check cannot see: the next targeted check starts there.
    const { rows: snapshot } = await sql<{ xmin: string }>`
      select (pg_snapshot_xmin(pg_current_snapshot())::text::bigint % 4294967296)::text as xmin`.execute(db);
    const nextHorizon = snapshot[0]!.xmin;
    // The head this app saw must still be there, unchanged: a history re-chained or cut short no longer extends it.
    if (seen && seen.count > 0) {
      const at = await db.selectFrom('audit_entries').select('hash').where('seq', '=', seen.count).executeTakeFirst();
      if (at?.hash !== seen.hash) return fail(seen.count, true);
    }
    // Whatever changed since the horizon is looked at by this check (the changed rows, or the whole trail), or the
    // horizon stays where it was: a check that looked at neither must not move past a change it did not see.
    const whole = !(wholeTrailChecked && seen);
    const scanned = !whole && rowsSuspect && horizon !== undefined;
    if (scanned) {
      const broken = await changedRowsBreak(horizon!, seen!.count);
      if (broken !== undefined) return fail(broken, true);
    }
    const from = whole ? { count: 0, hash: GENESIS_HASH } : seen!;
    const walked = await (whole && walkWhole ? walkWhole(from) : walkHere(from));
    if (!walked.ok) return fail(walked.brokenAt, seen !== undefined && walked.brokenAt <= seen.count);
    const { count, hash } = walked;
    if (seen && count < seen.count) return fail(count + 1, true);
    wholeTrailChecked = true;
    if (whole || scanned) {
      rowsSuspect = false;
      horizon = nextHorizon;
    }
    if (alarm) {
      const { rebase: _rebase, ...since } = alarm;
      witness.save({ count, hash, rewritten: since });
      return { ok: false, brokenAt: alarm.brokenAt, rewritten: true };
    }
    witness.save({ count, hash });
    return { ok: true };
  }

  return {
    environment,
    appendAsOf: append,
    append: (entry, opts) => append({ ...entry, at: new Date(now()).toISOString(), environment: environment() }, opts),
    async list(filter) {
      let query = db.selectFrom('audit_entries').selectAll().orderBy('seq');
      if (filter?.interviewId !== undefined) query = query.where('interview_id', '=', filter.interviewId);
      if (filter?.action !== undefined) query = query.where('action', '=', filter.action);
      if (filter?.seq !== undefined) query = query.where('seq', '=', filter.seq);
      if (filter?.afterSeq !== undefined) query = query.where('seq', '>', filter.afterSeq);
      if (filter?.limit !== undefined) query = query.limit(filter.limit);
      return (await query.execute()).map(fromRow);
    },
    async chain({ interviewId, fromSeq, toSeq, preimages }) {
      const links: ChainLink[] = [];
      // Paged by seq, so a long range never sits in memory as rows and texts at once.
      const within: Narrow = (eb) =>
        eb.and([
          ...(toSeq !== undefined ? [eb('seq', '<=', toSeq)] : []),
          ...(interviewId !== undefined ? [eb('interview_id', '=', interviewId)] : []),
        ]);
      for await (const rows of chainPages((fromSeq ?? 1) - 1, within))
        for (const row of rows)
          links.push({
            seq: row.seq,
            hash: row.hash,
            hashVersion: row.hash_version,
            ...(preimages ? { preimage: chainRowPreimage(row) } : {}),
          });
      return links;
    },
    async interviewBytes(interviewId) {
      const row = await db
        .selectFrom('audit_entries')
        .select(sql<string | null>`sum(${ENTRY_BYTES})`.as('bytes'))
        .where('interview_id', '=', interviewId)
        .executeTakeFirst();
      return Number(row?.bytes ?? 0);
    },
    async latest(action, beforeSeq) {
      const row = await db
        .selectFrom('audit_entries')
        .selectAll()
        .$if(action !== undefined, (q) => q.where('action', '=', action!))
        .$if(beforeSeq !== undefined, (q) => q.where('seq', '<', beforeSeq!))
        .orderBy('seq', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && fromRow(row);
    },
    async furthestCheckpoint({ passOver, below }) {
      // How far a checkpoint says it reaches (its detail's `seq`); one that names no entry reaches nowhere.
      const reach = sql<number>`case when detail->>'seq' ~ '^[0-9]{1,15}$' then (detail->>'seq')::bigint end`;
      const row = await db
        .selectFrom('audit_entries')
        .selectAll()
        .where('action', '=', 'checkpoint')
        .where(reach, 'is not', null)
        .$if(passOver.length > 0, (q) =>
          q.where((eb) => eb.or([eb('actor', 'is', null), eb('actor', 'not in', passOver)])),
        )
        .$if(below !== undefined, (q) => q.where(sql<boolean>`(${reach}, seq) < (${below!.reach}, ${below!.seq})`))
        .orderBy(reach, 'desc')
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
    async latestContractSeals(env, contractIds) {
      if (contractIds.length === 0) return new Map();
      // Through audit_entries_last_recorded (environment, action, interview_id, seq): a contract's seal has no
      // interview, so the read is one index range over this environment's contract seals, never the rest of the
      // trail (opened, played, noted...); each seal's detail is read once, the newest per id kept by the database.
      // Measured on a trail of 1,000,000 entries holding 2,000 seals here and 2,000 in another environment: an index
      // scan of those 2,000 rows, 8-9 ms warm (28 ms cold); list({ action: 'signed' }) read every seal of every
      // environment, 90 ms, and would grow with all of them. The cost grows with this environment's seals alone.
      const id = sql<string>`detail->>'signedContractId'`;
      const rows = await db
        .selectFrom('audit_entries')
        .selectAll()
        .distinctOn(id)
        .where('environment', '=', env)
        .where('action', '=', 'signed')
        .where('interview_id', 'is', null)
        .where(sql<string>`detail->>'kind'`, '=', 'contract')
        .where(id, 'in', [...new Set(contractIds)])
        .orderBy(id)
        .orderBy('seq', 'desc')
        .execute();
      const seals = new Map<string, AuditEntry>();
      for (const row of rows) {
        const entry = fromRow(row);
        const sealed = entry.detail['signedContractId'];
        // Matched by the database; kept only when the stored id is exactly the one asked for.
        if (typeof sealed === 'string' && contractIds.includes(sealed)) seals.set(sealed, entry);
      }
      return seals;
    },
    /** One check at a time: callers at once share it. */
    verify() {
      checking ??= check().finally(() => (checking = undefined));
      return checking;
    },
    /** Rows may have changed behind the app: the next verify checks those written or changed since its last one. */
    suspect() {
      rowsSuspect = true;
    },
    /** The next verify reads the whole trail again (now and then, whatever the signs say). */
    distrust() {
      wholeTrailChecked = false;
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
