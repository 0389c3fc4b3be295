import { sql, type Kysely } from 'kysely';
import type { Draft, DraftKind, DecisionRecord, Drafts } from '../../common/ipc/interview';
import type { AuditAction, AuditEntry } from '../../common/views';
import type { RecordLinkView } from '../../common/ipc/app';
import type { TeamSettings } from '../../common/team-review';
import { ReviewError } from '../errors';
import type { JsonStore } from '../json-store';
import type { Logger } from '../log';
import type { AuditTrail, ReviewRecord } from '../ports';
import type { RecordAuditTrail } from './audit-records';
import type { StoredEntry } from './queue-records';
import type { RecordDatabase } from './schema';

/** Settings key of the writes made while the team database was away, oldest first, until it takes them. */
export const PENDING_WRITES_KEY = 'record.pendingWrites';
/** Writes the record refused when they were sent late (a rule they broke meanwhile), kept for whoever looks. */
export const REFUSED_WRITES_KEY = 'record.refusedWrites';
const PROBE_EVERY_MS = 2_000;

/** A write the record could not take yet, kept on this computer (the settings file, 0600) as plain data. */
export type PendingWrite =
  | { kind: 'draft'; environment: string; interviewId: string; draftKind: DraftKind; draft: Draft | null }
  | { kind: 'queue'; environment: string; entry: StoredEntry }
  | { kind: 'decision'; interviewId: string; record: DecisionRecord }
  | {
      kind: 'audit';
      at: string;
      environment: string;
      interviewId?: string;
      action: AuditAction;
      detail: Record<string, unknown>;
    };

/**
 * Whether an error means the database cannot be reached (refused, reset, timed out, shut down), as opposed to a query
 * it refused: only the first kind is waited out.
 */
export function isConnectionLost(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code } = error as { code?: unknown };
  if (typeof code === 'string') {
    if (/^E(CONNREFUSED|CONNRESET|TIMEDOUT|HOSTUNREACH|NETUNREACH|NOTFOUND|PIPE|AI_AGAIN)$/.test(code)) return true;
    // SQLSTATE class 08 (connection exception) and 57P01–57P03 (the server shutting down or starting).
    if (/^08/.test(code) || /^57P0[123]$/.test(code)) return true;
  }
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended/i.test(
    error.message,
  );
}

export const recordAway = () =>
  new ReviewError(
    'RECORD_AWAY',
    {
      en: 'The team database cannot be reached right now.',
      es: 'No se puede llegar a la base de datos del equipo en este momento.',
    },
    {
      en: 'What is open stays open and what you type is kept on this computer; this is retried by itself once the database is back.',
      es: 'Lo que está abierto sigue abierto y lo que escribes se guarda en esta computadora; se reintenta solo en cuanto vuelva la base de datos.',
    },
    { retryable: true },
  );

/** SQLSTATE 55P03: a lock was not granted within the session's `lock_timeout` (engines.ts, `LockWaits`). */
function isLockWaitOver(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === '55P03';
}

/**
 * SQLSTATE 53200 "out of shared memory": the server's lock table is full, which one login's session-level advisory
 * locks can do to every other's writes (red team 21). Whose cannot be read then: reading the locks takes locks too.
 */
function isLockTableFull(error: unknown): boolean {
  return (
    error instanceof Error && (error as { code?: unknown }).code === '53200' && /shared memory/i.test(error.message)
  );
}

const recordLocksFull = () =>
  new ReviewError(
    'RECORD_BUSY',
    {
      en: 'The team database has no room for more locks: a session holds a great many (a login’s own tool, most often).',
      es: 'La base de datos del equipo no tiene lugar para más bloqueos: una sesión tiene tomados muchísimos (casi siempre la herramienta propia de algún usuario).',
    },
    {
      en: 'Nothing was recorded or sent, and what you typed is kept. Ask whoever administers the database to end the session that holds them (pg_locks says whose).',
      es: 'No se registró ni se envió nada, y lo que escribiste se conserva. Pide a quien administra la base de datos que cierre la sesión que los tiene (pg_locks dice de quién).',
    },
    { retryable: true },
  );

/**
 * What a change takes, as far as the app knows it: the record's tables it writes, whether it writes on the trail (its
 * advisory lock), the interview a decision is recorded on (that interview's key, migration 0006). Unknown: anything.
 */
interface Takes {
  tables: string[];
  trail: boolean;
  decided?: { environment: string; interviewId: string };
}

/** What each kind of write kept for later takes (while-away keeps drafts, queue entries, decisions, trail entries). */
const TAKES: Record<PendingWrite['kind'], Takes> = {
  draft: { tables: ['drafts'], trail: false },
  queue: { tables: ['queue_entries'], trail: false },
  audit: { tables: ['audit_entries'], trail: true },
  decision: { tables: ['decisions', 'queue_entries', 'claims', 'service_writes', 'audit_entries'], trail: true },
};

/**
 * The logins whose sessions hold what a change may wait for, besides this one (red teams 21 and 23 found logins named
 * that the change never waited for, and row locks never named):
 * - the advisory locks the change takes: the trail's (every entry, decision and service write), the interview's (a
 *   decision); for a change of unknown kind, this login's saved views' too. Any login may take these, at session level
 *   too (red team 20); a key of another's is none of this change's business.
 * - a lock on a table the change writes that keeps rows from being written: row locks (`FOR UPDATE`, a write in
 *   progress) and `LOCK TABLE` in SHARE mode or stronger, which any login that may delete from a table can take.
 * Which session the change waited for cannot be read once its wait is over; these are the ones it could have been.
 * Other logins' sessions are visible in `pg_locks` and by name in `pg_stat_activity`, not their queries or since when.
 */
async function lockHolders(db: Kysely<RecordDatabase>, takes?: Takes): Promise<string[]> {
  const keys = !takes
    ? sql`(151151, hashtext('omni saved views ' || current_user))`
    : takes.trail
      ? sql`(151151)`
      : sql`(null)`;
  const interviewKey = takes?.decided
    ? sql`(l.objsubid = 2 and l.classid = hashtext(${takes.decided.environment})::oid
            and l.objid = hashtext(${takes.decided.interviewId})::oid)`
    : sql`false`;
  const tables = takes
    ? sql`(select c.oid from pg_class c where c.relnamespace = current_schema()::regnamespace
            and c.relname in (${sql.join(takes.tables)}))`
    : sql`(select c.oid from pg_class c where c.relnamespace = current_schema()::regnamespace)`;
  const { rows } = await sql<{ login: string }>`
    select distinct a.usename as login from pg_locks l join pg_stat_activity a on a.pid = l.pid
    where l.granted and l.pid <> pg_backend_pid() and a.usename is not null
      and l.database = (select oid from pg_database where datname = current_database())
      and ((l.locktype = 'advisory'
          and ((l.objsubid = 1 and ((l.classid::int8 << 32) | l.objid::int8) in ${keys}) or ${interviewKey}))
        or (l.locktype = 'relation'
          and l.mode in ('RowShareLock', 'RowExclusiveLock', 'ShareLock', 'ShareRowExclusiveLock', 'ExclusiveLock',
            'AccessExclusiveLock')
          and l.relation in ${tables}))
    order by 1`.execute(db);
  return rows.map((r) => r.login);
}

/** A change that waited its most for a lock another session holds: whose, when it can be told, and what to do. */
function recordBusy(holders: string[]): ReviewError {
  const who = holders.join(', ');
  return new ReviewError(
    'RECORD_BUSY',
    holders.length > 0
      ? {
          en: `The team database kept this change waiting: a session of ${who} holds what it needs (a transaction left open).`,
          es: `La base de datos del equipo dejó este cambio en espera: una sesión de ${who} tiene tomado lo que necesita (una transacción que quedó abierta).`,
        }
      : {
          en: 'The team database kept this change waiting: another session holds what it needs (a transaction left open).',
          es: 'La base de datos del equipo dejó este cambio en espera: otra sesión tiene tomado lo que necesita (una transacción que quedó abierta).',
        },
    {
      en: `Nothing was recorded or sent, and what you typed is kept. Try again in a moment; if it lasts, ask ${holders.length > 0 ? who : 'your team'} to finish, or whoever administers the database to end that session.`,
      es: `No se registró ni se envió nada, y lo que escribiste se conserva. Inténtalo de nuevo en un momento; si continúa, pide a ${holders.length > 0 ? who : 'tu equipo'} que termine, o a quien administra la base de datos que cierre esa sesión.`,
    },
    { retryable: true, ...(holders.length > 0 ? { details: { holders } } : {}) },
  );
}

export interface WhileAwayDeps {
  db: Kysely<RecordDatabase>;
  record: ReviewRecord;
  audit: RecordAuditTrail;
  /** Where the waiting writes are kept: the settings file, so they survive a restart. */
  store: JsonStore;
  log: Logger;
  now?: () => number;
  probeEveryMs?: number;
}

/**
 * The review record as the services see it when it lives on a team's server that may go away mid-session (a restart,
 * a network cut). Reads fail with a clear `RECORD_AWAY`, except those of what is open (its queue entry and drafts,
 * as last read); writes are kept on this computer in order and go through once, oldest first, when a probe finds the
 * server back. While any write waits, new ones queue behind it, so the record receives them in the order they were made.
 */
export function keepWorkingWhileAway({
  db,
  record,
  audit,
  store,
  log,
  now = Date.now,
  probeEveryMs = PROBE_EVERY_MS,
}: WhileAwayDeps) {
  let awaySince: string | undefined;
  let reason: string | undefined;
  let probe: ReturnType<typeof setInterval> | undefined;
  let flushing: Promise<void> | undefined;
  /** What was last read or written of the open interviews, to answer for them while away. */
  const knownEntries = new Map<string, StoredEntry | undefined>();
  const knownDrafts = new Map<string, Drafts>();
  const knownDecisions = new Map<string, DecisionRecord | undefined>();
  const key = (environment: string, interviewId: string) => `${environment}\u0000${interviewId}`;

  const pending = () => store.get<PendingWrite[]>(PENDING_WRITES_KEY) ?? [];
  const setPending = (writes: PendingWrite[]) =>
    writes.length === 0 ? store.delete(PENDING_WRITES_KEY) : store.set(PENDING_WRITES_KEY, writes);

  function markAway(error: unknown) {
    if (awaySince === undefined) {
      awaySince = new Date(now()).toISOString();
      log.warn('The team database went away; writes wait on this computer', { reason: String(error) });
    }
    reason = error instanceof Error ? error.message : String(error);
    probe ??= setInterval(() => void tryToFlush(), probeEveryMs);
    probe.unref?.();
  }

  async function apply(write: PendingWrite) {
    switch (write.kind) {
      case 'draft':
        return record.drafts.put(write.environment, write.interviewId, write.draftKind, write.draft ?? undefined);
      case 'queue':
        return record.queue.put(write.environment, [write.entry]);
      case 'decision':
        return record.decisions.add(write.interviewId, write.record);
      case 'audit': {
        const { kind: _kind, ...entry } = write;
        await audit.appendAsOf(entry);
        return;
      }
    }
  }

  /** Sends the waiting writes, oldest first, each removed from the file once the record took it. */
  function tryToFlush(): Promise<void> {
    flushing ??= (async () => {
      try {
        await sql`select 1`.execute(db);
        let sent = 0;
        for (let writes = pending(); writes.length > 0; writes = pending()) {
          try {
            await apply(writes[0]!);
            sent++;
          } catch (error) {
            if (isConnectionLost(error)) throw error;
            // Refused for good (a rule of the record): kept aside in the settings file, so it neither blocks the
            // writes behind it nor disappears.
            store.set(REFUSED_WRITES_KEY, [...(store.get<PendingWrite[]>(REFUSED_WRITES_KEY) ?? []), writes[0]]);
            log.error('The team database refused a write made while it was away; it is kept aside', {
              kind: writes[0]!.kind,
              reason: error instanceof Error ? error.message : String(error),
            });
          }
          setPending(pending().slice(1));
        }
        if (awaySince !== undefined) log.info('The team database is back; the waiting writes went through', { sent });
        awaySince = undefined;
        reason = undefined;
        clearInterval(probe);
        probe = undefined;
      } catch (error) {
        markAway(error);
      } finally {
        flushing = undefined;
      }
    })();
    return flushing;
  }

  /** A lock waited for its most, said with whose session holds the trail; any other error as it is. */
  async function busyOr(error: unknown, takes?: Takes): Promise<unknown> {
    if (isLockTableFull(error)) return recordLocksFull();
    if (!isLockWaitOver(error)) return error;
    return recordBusy(await lockHolders(db, takes).catch(() => []));
  }

  /** Runs a write now, or keeps it for later when the record is away or older writes still wait. */
  async function write(kept: PendingWrite, run: () => Promise<void>): Promise<void> {
    if (awaySince === undefined && pending().length === 0) {
      try {
        return await run();
      } catch (error) {
        if (!isConnectionLost(error)) throw await busyOr(error, TAKES[kept.kind]);
        markAway(error);
      }
    }
    setPending([...pending(), kept]);
    probe ??= setInterval(() => void tryToFlush(), probeEveryMs);
    probe.unref?.();
  }

  /**
   * A read that only the record can answer (or a write that is not kept for later): while away it says so, in the
   * analyst's words.
   */
  async function read<T>(run: () => Promise<T>, whileAway?: () => T, takes?: Takes): Promise<T> {
    if (awaySince !== undefined && whileAway) return whileAway();
    try {
      return await run();
    } catch (error) {
      if (!isConnectionLost(error)) throw await busyOr(error, takes);
      markAway(error);
      if (whileAway) return whileAway();
      throw recordAway();
    }
  }

  /** The writes that wait, laid over what was last read, for the entries and drafts of what is open. */
  function waitingEntry(environment: string, interviewId: string): StoredEntry | undefined {
    let entry = knownEntries.get(key(environment, interviewId));
    for (const w of pending())
      if (w.kind === 'queue' && w.environment === environment && w.entry.interviewId === interviewId) entry = w.entry;
    return entry;
  }
  function waitingDrafts(environment: string, interviewId: string, read: Drafts): Drafts {
    const drafts: Drafts = { ...read };
    for (const w of pending())
      if (w.kind === 'draft' && w.environment === environment && w.interviewId === interviewId) {
        if (w.draft) drafts[w.draftKind] = w.draft;
        else delete drafts[w.draftKind];
      }
    return drafts;
  }

  const { queue, drafts, decisions, readings, writes, claims, teamSettings, overview, views } = record;
  /** The team's rules as last read: a decision made while away still knows whether it needs a second reviewer. */
  let knownSettings: TeamSettings | undefined;
  const wrapped: ReviewRecord = {
    ...record,
    queue: {
      list: (environment) => read(() => queue.list(environment)),
      page: (environment, query, after, limit) => read(() => queue.page(environment, query, after, limit)),
      counts: (environment, search, scope) => read(() => queue.counts(environment, search, scope)),
      neighbours: (environment, id, query) => read(() => queue.neighbours(environment, id, query)),
      getMany: (environment, ids) => read(() => queue.getMany(environment, ids)),
      remove: (environment, id) => read(() => queue.remove(environment, id)),
      clear: (environment) => read(() => queue.clear(environment)),
      // What a response said of the interview only decorates the queue: while away it is let go, not kept for later.
      setStatus: (environment, id, status, seenAt) =>
        read(
          () => queue.setStatus(environment, id, status, seenAt),
          () => undefined,
        ),
      async get(environment, interviewId) {
        const fromRecord = await read(
          async () => {
            const entry = await queue.get(environment, interviewId);
            knownEntries.set(key(environment, interviewId), entry);
            return entry;
          },
          () => {
            if (!knownEntries.has(key(environment, interviewId))) throw recordAway();
            return undefined;
          },
        );
        return fromRecord && pending().length === 0 ? fromRecord : waitingEntry(environment, interviewId);
      },
      async put(environment, entries) {
        for (const entry of entries) knownEntries.set(key(environment, entry.interviewId), entry);
        // Many entries at once is an import: it needs the record, and a half-kept import would be worse than none.
        if (entries.length !== 1) return read(() => queue.put(environment, entries));
        return write({ kind: 'queue', environment, entry: entries[0]! }, () => queue.put(environment, entries));
      },
    },
    drafts: {
      clear: (environment) => read(() => drafts.clear(environment)),
      async get(environment, interviewId) {
        const fromRecord = await read(
          async () => {
            const found = await drafts.get(environment, interviewId);
            knownDrafts.set(key(environment, interviewId), found);
            return found;
          },
          () => knownDrafts.get(key(environment, interviewId)) ?? {},
        );
        return waitingDrafts(environment, interviewId, fromRecord);
      },
      put: (environment, interviewId, draftKind, draft) =>
        write({ kind: 'draft', environment, interviewId, draftKind, draft: draft ?? null }, () =>
          drafts.put(environment, interviewId, draftKind, draft),
        ),
    },
    decisions: {
      async last(environment, interviewId) {
        const at = key(environment, interviewId);
        const fromRecord = await read(
          async () => {
            const found = await decisions.last(environment, interviewId);
            knownDecisions.set(at, found);
            return found;
          },
          () => {
            if (!knownDecisions.has(at)) throw recordAway();
            return knownDecisions.get(at);
          },
        );
        let last = fromRecord;
        for (const w of pending())
          if (w.kind === 'decision' && w.interviewId === interviewId && w.record.environment === environment)
            last = w.record;
        return last;
      },
      all: (environment, interviewId) => read(() => decisions.all(environment, interviewId)),
      decidedBetween: (environment, from, to, limit, after) =>
        read(() => decisions.decidedBetween(environment, from, to, limit, after)),
      // Only decorates the queue: unknown while away, rather than an error.
      proposals: (environment, ids) =>
        read(
          () => decisions.proposals(environment, ids),
          () => new Set<string>(),
        ),
      clear: (environment) => read(() => decisions.clear(environment)),
      // The database allows a decision before anything is sent about it: while away it is refused, not kept for
      // later (its reason stays a draft on this computer).
      add: (interviewId, decision, note, by) =>
        read(() => decisions.add(interviewId, decision, note, by), undefined, {
          ...TAKES.decision,
          decided: { environment: decision.environment, interviewId },
        }),
      review: (environment, interviewId, verdict, reason, note, by) =>
        read(() => decisions.review(environment, interviewId, verdict, reason, note, by)),
    },
    // A reading while away is let go: four eyes then judges on the readings on file, or asks for a second reviewer.
    readings: {
      add: (environment, interviewId, level, highFindings) =>
        read(
          () => readings.add(environment, interviewId, level, highFindings),
          () => undefined,
        ),
      all: (environment, interviewId) => read(() => readings.all(environment, interviewId)),
    },
    // What goes to the service is recorded first: while away nothing is sent.
    writes: {
      begin: (environment, interviewId, kind, body, decisionId) =>
        read(() => writes.begin(environment, interviewId, kind, body, decisionId)),
      settle: (id, state, answer) => read(() => writes.settle(id, state, answer)),
      unsent: (environment, interviewId, kind) => read(() => writes.unsent(environment, interviewId, kind)),
      history: (environment, interviewId) => read(() => writes.history(environment, interviewId)),
      writeBytes: (environment, interviewId) => read(() => writes.writeBytes(environment, interviewId)),
    },
    // A claim is only worth what the database says right now: while away it is refused, not kept for later.
    claims: {
      takeNext: (environment, within) => read(() => claims.takeNext(environment, within)),
      claim: (environment, interviewId) => read(() => claims.claim(environment, interviewId)),
      renew: (environment, interviewId) => read(() => claims.renew(environment, interviewId)),
      release: (environment, interviewId, anyHolder) => read(() => claims.release(environment, interviewId, anyHolder)),
      reassign: (environment, interviewId, to) => read(() => claims.reassign(environment, interviewId, to)),
      holders: (environment) => read(() => claims.holders(environment)),
    },
    teamSettings: {
      get: () =>
        read(
          async () => (knownSettings = await teamSettings.get()),
          () => {
            if (!knownSettings) throw recordAway();
            return knownSettings;
          },
        ),
      set: (settings) => read(() => teamSettings.set(settings)),
      reasonCodes: () => read(() => teamSettings.reasonCodes()),
      setReasonCodes: (codes) => read(() => teamSettings.setReasonCodes(codes)),
      whoAmI: () => read(() => teamSettings.whoAmI()),
    },
    // The supervisor's figures are worth only what the database says now.
    views: {
      list: () => read(() => views.list()),
      save: (name, query, shared) => read(() => views.save(name, query, shared)),
      remove: (id) => read(() => views.remove(id)),
    },
    overview: {
      waiting: (environment, targetHours, now) => read(() => overview.waiting(environment, targetHours, now)),
      proposals: (environment) => read(() => overview.proposals(environment)),
      decisionsByDay: (environment, now) => read(() => overview.decisionsByDay(environment, now)),
      decisionsByCode: (environment, now) => read(() => overview.decisionsByCode(environment, now)),
      members: () => read(() => overview.members()),
      searchAudit: (query) => read(() => overview.searchAudit(query)),
    },
  };

  const wrappedAudit: AuditTrail = {
    async append(entry, opts) {
      // A write that must land now (a checkpoint, its token just issued) is not kept for later: it fails while away.
      if (opts?.waitAtMostMs !== undefined) return read(() => audit.append(entry, opts));
      const at = new Date(now()).toISOString();
      const environment = audit.environment();
      let appended: AuditEntry | undefined;
      await write({ kind: 'audit', at, environment, ...entry, detail: entry.detail ?? {} }, async () => {
        appended = await audit.append(entry, opts);
      });
      // Kept for later: it has no place in the chain yet (seq 0, no hash) until the record takes it.
      return appended ?? { seq: 0, at, environment, ...entry, prevHash: '', hash: '' };
    },
    list: (filter) => read(() => audit.list(filter)),
    latest: (action, beforeSeq) => read(() => audit.latest(action, beforeSeq)),
    furthestCheckpoint: (options) => read(() => audit.furthestCheckpoint(options)),
    chain: (filter) => read(() => audit.chain(filter)),
    interviewBytes: (interviewId) => read(() => audit.interviewBytes(interviewId)),
    verify: () => read(() => audit.verify()),
    // Whether a contract was sealed only decorates the contracts panel: unknown while away, rather than an error.
    latestContractSeals: (environment, ids) =>
      read(
        () => audit.latestContractSeals(environment, ids),
        () => new Map(),
      ),
    // When an interview was last opened only decorates the queue: unknown while away, rather than an error.
    lastRecorded: (action, environment, ids) =>
      read(
        () => audit.lastRecorded(action, environment, ids),
        () => () => undefined,
      ),
  };

  return {
    record: wrapped,
    audit: wrappedAudit,
    view(): RecordLinkView {
      const waiting = pending().length;
      return awaySince !== undefined
        ? { away: true, since: awaySince, pendingWrites: waiting, ...(reason ? { reason } : {}) }
        : { away: false, pendingWrites: waiting };
    },
    /** Writes left by a run that ended while the database was away go out at start, when it is there. */
    resume: () => (pending().length > 0 ? tryToFlush() : Promise.resolve()),
    stop() {
      clearInterval(probe);
      probe = undefined;
      return flushing ?? Promise.resolve();
    },
  };
}
