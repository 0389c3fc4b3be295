import { sql, type ExpressionBuilder, type Kysely, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import type { SessionStatus } from '../../common/omni';
import {
  RiskLevel,
  type LocalReviewState,
  type QueueCounts,
  type QueueCursor,
  type QueueEntry,
  type QueueNeighbours,
  type QueueFilter,
  type QueueQuery,
  type QueueScope,
  type QueueSort,
} from '../../common/ipc/queue';
import { ReviewError } from '../errors';
import { refusedByClaim } from './claim-refusal';
import { finiteIso } from './finite-time';
import type { QueueEntryTable, RecordDatabase } from './schema';

/** A queue entry as the record keeps it: the view without what is looked up elsewhere (the vault's token). */
export type StoredEntry = Omit<QueueEntry, 'hasSessionToken'>;

/** Rows per INSERT: PostgreSQL takes at most 65,535 parameters in one statement, 10 per row here. */
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

  /**
   * One page of the queue as filtered, searched and sorted: the `limit` rows after `after`, by key (an index range
   * scan, migration 0002), so a page costs the same at the queue's start and at its end, whatever its length.
   */
  async page(
    environment: string,
    query: QueueQuery,
    after: QueueCursor | undefined,
    limit: number,
  ): Promise<StoredEntry[]> {
    if (after && !cursorFits(query.sort, after)) throw cursorRefused();
    return (await pageQuery(this.db, environment, query, after, limit).execute()).map(fromRow);
  }

  /**
   * How many entries each filter keeps, in one grouped query: all of them, and those the search and the scope (holder,
   * second review, age, risk) keep, by state and status.
   */
  async counts(environment: string, search = '', scope: QueueScope = {}): Promise<QueueCounts> {
    const rows = await this.db
      .selectFrom('queue_entries')
      .where('environment', '=', environment)
      .select((eb) => [
        'local_state',
        'session_status',
        eb.fn.countAll<string>().as('all'),
        eb.fn
          .countAll<string>()
          .filterWhere(eb.and([searched(eb, search), ...scoped(eb, scope)]))
          .as('matching'),
      ])
      .groupBy(['local_state', 'session_status'])
      .execute();
    return {
      total: rows.reduce((sum, r) => sum + Number(r.all), 0),
      matching: rows
        .filter((r) => Number(r.matching) > 0)
        .map((r) => ({
          localState: r.local_state as LocalReviewState,
          status: (r.session_status ?? 'unknown') as SessionStatus | 'unknown',
          count: Number(r.matching),
        })),
    };
  }

  /**
   * The entries before and after one on the queue as filtered, searched and sorted, and its place there. One that the
   * filter no longer keeps (decided meanwhile) keeps its place by its sort key, so next still leads where it did.
   */
  async neighbours(environment: string, interviewId: string, query: QueueQuery): Promise<QueueNeighbours> {
    const { filter, sort, search } = query;
    const shown = () => this.db.selectFrom('queue_entries').where((eb) => kept(eb, environment, filter, search));
    const current = await this.get(environment, interviewId);
    if (!current) {
      const { count } = await shown()
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .executeTakeFirstOrThrow();
      return { index: -1, count: Number(count) };
    }
    const at = cursorOf(sort, current);
    const keys = sortKey(sort);
    let before = shown()
      .select('interview_id')
      .where(compareKey(sort, '<', at));
    for (const key of keys) before = before.orderBy(key, 'desc');
    let after = shown()
      .select('interview_id')
      .where(compareKey(sort, '>', at));
    for (const key of keys) after = after.orderBy(key);
    const [prev, next, place] = await Promise.all([
      before.limit(1).executeTakeFirst(),
      after.limit(1).executeTakeFirst(),
      shown()
        .select((eb) => [
          eb.fn.countAll<string>().as('count'),
          eb.fn
            .countAll<string>()
            .filterWhere(compareKey(sort, '<', at))
            .as('before'),
          eb.fn.countAll<string>().filterWhere('interview_id', '=', interviewId).as('self'),
        ])
        .executeTakeFirstOrThrow(),
    ]);
    return {
      ...(prev ? { prev: prev.interview_id } : {}),
      ...(next ? { next: next.interview_id } : {}),
      index: Number(place.before),
      count: Number(place.count) + (Number(place.self) > 0 ? 0 : 1),
    };
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
              // The newest sighting of the session status wins: an entry written back from a read made before a
              // panel filed a newer one (the opening's move to "in review") must not put the older one back.
              session_status: sql`case when excluded.session_status_seen_at is not null and
                (queue_entries.session_status_seen_at is null
                  or excluded.session_status_seen_at >= queue_entries.session_status_seen_at)
                then excluded.session_status else queue_entries.session_status end`,
              session_status_seen_at: sql`greatest(excluded.session_status_seen_at, queue_entries.session_status_seen_at)`,
              last_opened_at: eb.ref('excluded.last_opened_at'),
              // The highest risk reading's, set by the database (migration 0012): a write of the entry read before
              // a reading was filed (the opening's) must not clear it.
              risk: eb.fn.coalesce('excluded.risk', 'queue_entries.risk'),
            })),
          )
          .execute();
    };
    try {
      // Inside a caller's transaction (an import) it is part of that one.
      if (this.db.isTransaction) await write(this.db);
      else await this.db.transaction().execute(write);
    } catch (error) {
      refusedByQueueFacts(error);
      throw error;
    }
  }

  /**
   * The session status a response carried and when, those columns alone: a whole-entry write from a read made just
   * before (the opening's move to "in review", made meanwhile) would put back what it read.
   */
  async setStatus(environment: string, interviewId: string, status: SessionStatus, seenAt: string): Promise<void> {
    await this.db
      .updateTable('queue_entries')
      .set({ session_status: status, session_status_seen_at: seenAt })
      .where('environment', '=', environment)
      .where('interview_id', '=', interviewId)
      .execute();
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

/** The statement of one page (its plan is checked in the tests: an index range scan for each order). */
export function pageQuery(
  db: Kysely<RecordDatabase>,
  environment: string,
  { filter, sort, search }: QueueQuery,
  after: QueueCursor | undefined,
  limit: number,
) {
  let query = db
    .selectFrom('queue_entries')
    .selectAll()
    .where((eb) => kept(eb, environment, filter, search));
  if (after) query = query.where(compareKey(sort, '>', after));
  for (const key of sortKey(sort)) query = query.orderBy(key);
  return query.limit(limit);
}

/** Where a page that ends on this entry stops, in the given order. */
/** A cursor the database can compare in this order: the added order's key is a time (it is cast to one). */
function cursorFits(sort: QueueSort, cursor: QueueCursor): boolean {
  if (sort !== 'added' || cursor.key === null) return true;
  return (
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(cursor.key) &&
    !Number.isNaN(Date.parse(cursor.key))
  );
}

function cursorRefused(): ReviewError {
  return new ReviewError(
    'INVALID_CURSOR',
    {
      en: 'The queue was asked for the page after a place that is not in this order.',
      es: 'Se pidió a la cola la página siguiente a un lugar que no existe en este orden.',
    },
    { en: 'Reload the queue from its start.', es: 'Vuelve a cargar la cola desde el principio.' },
  );
}

export function cursorOf(sort: QueueSort, entry: StoredEntry): QueueCursor {
  const key =
    sort === 'added'
      ? entry.addedAt
      : sort === 'status'
        ? (entry.sessionStatus ?? null)
        : sort === 'risk'
          ? `${riskRankOf(entry.risk)}|${entry.addedAt}`
          : null;
  return { key, interviewId: entry.interviewId };
}

/**
 * The risk order: high, medium, low, a level newer than the spec, never read. `riskRank` is the same in SQL, and must
 * stay the text of migration 0008's indexes (or they are not used: the plan test says so).
 */
export function riskRankOf(risk: string | undefined): number {
  if (risk === undefined) return 4;
  const known = ['high', 'medium', 'low'].indexOf(risk);
  return known >= 0 ? known : 3;
}
const riskRank = sql`(case when risk is null then 4 when risk = 'high' then 0 when risk = 'medium' then 1 when risk = 'low' then 2 else 3 end)`;

/** The columns each order sorts by, last the id; never-seen statuses go last. Indexed as such by migration 0002. */
function sortKey(sort: QueueSort): RawBuilder<unknown>[] {
  switch (sort) {
    case 'added':
      return [sql.ref('added_at'), sql.ref('interview_id')];
    case 'id':
      return [sql.ref('interview_id')];
    case 'status':
      return [sql`(session_status is null)`, sql`coalesce(session_status, '')`, sql.ref('interview_id')];
    // Highest risk first, and within a level the longest waiting. Indexed by migration 0008 on this very expression.
    case 'risk':
      return [riskRank, sql.ref('added_at'), sql.ref('interview_id')];
  }
}

/** The row's sort key against a cursor's, compared as one row value, which an index range scan answers. */
function compareKey(sort: QueueSort, op: '<' | '>', cursor: QueueCursor): RawBuilder<SqlBool> {
  const [rank, addedAt] = (cursor.key ?? '').split('|');
  const values =
    sort === 'added'
      ? [sql`${cursor.key}::timestamptz`, sql`${cursor.interviewId}`]
      : sort === 'status'
        ? [sql`${cursor.key === null}::boolean`, sql`${cursor.key ?? ''}`, sql`${cursor.interviewId}`]
        : sort === 'risk'
          ? [sql`${Number(rank)}::int`, sql`${addedAt ?? null}::timestamptz`, sql`${cursor.interviewId}`]
          : [sql`${cursor.interviewId}`];
  return sql<SqlBool>`(${sql.join(sortKey(sort))}) ${sql.raw(op)} (${sql.join(values)})`;
}

type QueueRow = ExpressionBuilder<RecordDatabase, 'queue_entries'>;

/** The entries of one environment that a filter and a search keep. */
function kept(eb: QueueRow, environment: string, filter: QueueFilter, search: string) {
  return eb.and([eb('environment', '=', environment), ...narrowedBy(eb, filter, search)]);
}

/**
 * What "Take next" may take within a view: the view's session status, second review, age, risk and search, among the
 * entries to review. Its holder filter does not narrow: taking is always of an interview nobody holds.
 */
export function takeable(eb: QueueRow, filter: QueueFilter, search: string) {
  return eb.and(narrowedBy(eb, { ...filter, state: 'toReview', holder: 'all' }, search));
}

function narrowedBy(eb: QueueRow, filter: QueueFilter, search: string) {
  return [
    ...(filter.state === 'all' ? [] : [eb('local_state', '=', filter.state)]),
    ...(filter.status === 'all'
      ? []
      : [filter.status === 'unknown' ? eb('session_status', 'is', null) : eb('session_status', '=', filter.status)]),
    ...scoped(eb, filter),
    searched(eb, search),
  ];
}

/**
 * The row's claim that has not lapsed (held by this login, someone else, or anyone), as a scalar subquery with LIMIT,
 * not EXISTS: PostgreSQL turns EXISTS into a join whose plan follows the claims table's statistics, and with young or
 * stale ones it read every claim for each queue row (0.5 s for a first page at 100,000 interviews and 10,000 claims);
 * this probes the claim's key once per row read, whatever the statistics.
 */
const claimOf = (eb: QueueRow, holder?: 'me' | 'other') =>
  eb
    .selectFrom('claims')
    .select(sql.lit(true).as('held'))
    .whereRef('claims.environment', '=', 'queue_entries.environment')
    .whereRef('claims.interview_id', '=', 'queue_entries.interview_id')
    .where('claims.expires_at', '>', sql<Date>`now()`)
    .$if(holder === 'me', (q) => q.where('claims.holder', '=', sql<string>`current_user`))
    .$if(holder === 'other', (q) => q.where('claims.holder', '<>', sql<string>`current_user`))
    .limit(1);

/** Whether a decision on the row's interview waits for a second reviewer (a scalar subquery, as in `claimOf`). */
const proposed = (eb: QueueRow, byOthers: boolean) =>
  eb(
    eb
      .selectFrom('decisions')
      .select(sql.lit(true).as('proposed'))
      .whereRef('decisions.environment', '=', 'queue_entries.environment')
      .whereRef('decisions.interview_id', '=', 'queue_entries.interview_id')
      .where('decisions.status', '=', 'proposed')
      .$if(byOthers, (q) => q.where(sql<SqlBool>`decisions.decided_by is distinct from current_user`))
      .limit(1),
    'is not',
    null,
  );

/** When an interview added earlier counts as late: the team's target time ago, on the server's clock. */
const lateBefore = sql<Date>`now() - make_interval(hours => (select target_hours from team_settings))`;

/** The conditions of the scope's filters (holder, second review, age, risk); none for 'all' or absent. */
function scoped(eb: QueueRow, { holder, review, age, risk }: QueueScope) {
  const conditions = [];
  if (holder === 'mine') conditions.push(eb(claimOf(eb, 'me'), 'is not', null));
  else if (holder === 'others') conditions.push(eb(claimOf(eb, 'other'), 'is not', null));
  else if (holder === 'unclaimed') conditions.push(eb(claimOf(eb), 'is', null));
  if (review === 'waiting' || review === 'forMe') conditions.push(proposed(eb, review === 'forMe'));
  if (age === 'pastTarget' || age === 'withinTarget')
    conditions.push(eb('local_state', '<>', 'decided'), eb('added_at', age === 'pastTarget' ? '<' : '>=', lateBefore));
  if (risk === 'unknown') conditions.push(eb.or([eb('risk', 'is', null), eb('risk', 'not in', RiskLevel.options)]));
  else if (risk && risk !== 'all') conditions.push(eb('risk', '=', risk));
  return conditions;
}

/** The id or either label contains the search, any case; `%`, `_` and `\` are searched as themselves. */
function searched(eb: QueueRow, search: string) {
  const words = search.trim();
  if (!words) return eb.lit(true);
  const pattern = `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return eb.or([eb('interview_id', 'ilike', pattern), eb('label', 'ilike', pattern), eb('label_es', 'ilike', pattern)]);
}

function fromRow(row: Selectable<QueueEntryTable>): StoredEntry {
  const seenAt = finiteIso(row.session_status_seen_at);
  const openedAt = finiteIso(row.last_opened_at);
  return {
    interviewId: row.interview_id,
    // An entry of no known arrival counts as the oldest: it is listed, not lost.
    addedAt: finiteIso(row.added_at) ?? new Date(0).toISOString(),
    localState: row.local_state as LocalReviewState,
    ...(row.label !== null ? { label: row.label } : {}),
    ...(row.label_es !== null ? { labelEs: row.label_es } : {}),
    ...(row.session_status !== null ? { sessionStatus: row.session_status as SessionStatus } : {}),
    ...(seenAt ? { sessionStatusSeenAt: seenAt } : {}),
    ...(openedAt ? { lastOpenedAt: openedAt } : {}),
    ...(row.risk !== null ? { risk: row.risk } : {}),
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
    risk: e.risk ?? null,
  };
}

/**
 * The database's refusals of an entry's state (migrations 0012, 0019), in the analyst's words. Anything else is left
 * as is.
 */
function refusedByQueueFacts(error: unknown): void {
  refusedByClaim(error);
  const { constraint } = (error ?? {}) as { constraint?: unknown };
  if (constraint === 'queue_decided_while_decision_open')
    throw new ReviewError(
      'DECISION_ON_FILE',
      {
        en: 'On a team database an interview with its decision on file stays "Decided".',
        es: 'En una base de datos de equipo, una entrevista con su decisión registrada sigue "Decidida".',
      },
      {
        en: 'A proposal is confirmed or overturned in the Decision panel; an admin removes a final decision.',
        es: 'Una propuesta se confirma o se revierte en el panel Decisión; una decisión final la quita un administrador.',
      },
    );
  if (constraint === 'queue_decided_needs_decision')
    throw new ReviewError(
      'NO_DECISION_ON_FILE',
      {
        en: 'On a team database an interview is "Decided" only once its decision is recorded.',
        es: 'En una base de datos de equipo, una entrevista queda "Decidida" solo cuando su decisión está registrada.',
      },
      {
        en: 'Record the decision in the Decision panel: the interview is then decided by itself.',
        es: 'Registra la decisión en el panel Decisión: con eso la entrevista queda decidida.',
      },
    );
}
