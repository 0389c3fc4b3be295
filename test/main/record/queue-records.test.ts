import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueCursor, QueueQuery, QueueScope, QueueSort } from '../../../common/ipc/queue';
import { ClaimRecords } from '../../../main/record/claim-records';
import { DecisionRecords } from '../../../main/record/decision-records';
import { openRecord, type OpenRecord } from '../../../main/record/open';
import { QueueRecords, cursorOf, pageQuery, type StoredEntry } from '../../../main/record/queue-records';
import { ENGINES, engineFactory } from '../../helpers/record-engines';

const ALL: QueueQuery = { filter: { state: 'all', status: 'all' }, sort: 'added', search: '' };

/** Ids chosen so that every collation sorts them alike (lowercase letters and digits only). */
const ENTRIES: StoredEntry[] = [
  { interviewId: 'e1', addedAt: '2026-11-20T09:00:00.000Z', localState: 'toReview', sessionStatus: 'Closed' },
  { interviewId: 'b2', addedAt: '2026-11-20T09:00:00.000Z', localState: 'inReview', label: 'Ana Pérez' },
  { interviewId: 'a3', addedAt: '2026-11-21T09:00:00.000Z', localState: 'decided', sessionStatus: 'Alive' },
  {
    interviewId: 'd4',
    addedAt: '2026-11-19T09:00:00.000Z',
    localState: 'toReview',
    sessionStatus: 'Alive',
    label: 'Luis',
    labelEs: 'Luis 100%',
  },
  { interviewId: 'c5', addedAt: '2026-11-22T09:00:00.000Z', localState: 'toReview' },
];

describe.each(ENGINES)('the queue read a page at a time, on the %s engine', (kind) => {
  const engines = engineFactory(kind);
  let record: OpenRecord;
  let queue: QueueRecords;
  beforeAll(async () => {
    record = await openRecord(await engines.fresh());
    queue = new QueueRecords(record.db);
    await queue.put('demo', ENTRIES);
    await queue.put('production', [{ interviewId: 'p1', addedAt: '2026-11-20T00:00:00.000Z', localState: 'toReview' }]);
  }, 60_000);
  afterAll(async () => {
    await record?.close();
    await engines.dispose();
  });

  /** Every page of a view, `limit` rows each, following the cursors. */
  async function walk(query: QueueQuery, limit: number): Promise<string[][]> {
    const pages: string[][] = [];
    let after: QueueCursor | undefined;
    for (;;) {
      const rows = await queue.page('demo', query, after, limit);
      pages.push(rows.map((r) => r.interviewId));
      if (rows.length < limit) return pages;
      after = cursorOf(query.sort, rows.at(-1)!);
    }
  }

  it.each<[QueueSort, string[]]>([
    ['added', ['d4', 'b2', 'e1', 'a3', 'c5']],
    ['id', ['a3', 'b2', 'c5', 'd4', 'e1']],
    // Never-seen statuses last.
    ['status', ['a3', 'd4', 'e1', 'b2', 'c5']],
  ])('pages through the %s order by key, each row once, ties broken by id', async (sort, order) => {
    expect((await walk({ ...ALL, sort }, 2)).flat()).toEqual(order);
    expect(await walk({ ...ALL, sort }, 2)).toHaveLength(3);
    expect((await walk({ ...ALL, sort }, 10))[0]).toEqual(order);
  });

  it('sorts by risk, highest first, then by waiting time, each page after the last by key', async () => {
    await queue.put('risky', [
      { interviewId: 'r1', addedAt: '2026-11-22T09:00:00.000Z', localState: 'toReview', risk: 'low' },
      { interviewId: 'r2', addedAt: '2026-11-21T09:00:00.000Z', localState: 'toReview' },
      { interviewId: 'r3', addedAt: '2026-11-23T09:00:00.000Z', localState: 'toReview', risk: 'high' },
      { interviewId: 'r4', addedAt: '2026-11-20T09:00:00.000Z', localState: 'toReview', risk: 'medium' },
      { interviewId: 'r5', addedAt: '2026-11-19T09:00:00.000Z', localState: 'toReview', risk: 'high' },
      // A level newer than the spec: after the known ones, before the never-read.
      { interviewId: 'r6', addedAt: '2026-11-18T09:00:00.000Z', localState: 'toReview', risk: 'critical' },
      { interviewId: 'r7', addedAt: '2026-11-19T09:00:00.000Z', localState: 'decided', risk: 'high' },
    ]);
    const risk: QueueQuery = { ...ALL, sort: 'risk' };
    const pages = async (query: QueueQuery, limit: number) => {
      const out: string[][] = [];
      let after: QueueCursor | undefined;
      for (;;) {
        const rows = await queue.page('risky', query, after, limit);
        out.push(rows.map((r) => r.interviewId));
        if (rows.length < limit) return out;
        after = cursorOf(query.sort, rows.at(-1)!);
      }
    };
    const order = ['r5', 'r7', 'r3', 'r4', 'r1', 'r6', 'r2'];
    expect((await pages(risk, 2)).flat()).toEqual(order);
    expect((await pages(risk, 3)).flat()).toEqual(order);
    expect((await pages(risk, 10))[0]).toEqual(order);
    // Filtered views sort the same way, and the workspace's next and previous follow it.
    const toReview: QueueQuery = { ...risk, filter: { state: 'toReview', status: 'all' } };
    expect((await pages(toReview, 2)).flat()).toEqual(['r5', 'r3', 'r4', 'r1', 'r6', 'r2']);
    expect(await queue.neighbours('risky', 'r4', toReview)).toEqual({ prev: 'r3', next: 'r1', index: 2, count: 6 });
  });

  it('filters by local state and by session status, unknown meaning never seen, in SQL', async () => {
    const ids = async (filter: QueueQuery['filter']) =>
      (await queue.page('demo', { ...ALL, filter }, undefined, 100)).map((r) => r.interviewId);
    expect(await ids({ state: 'toReview', status: 'all' })).toEqual(['d4', 'e1', 'c5']);
    expect(await ids({ state: 'toReview', status: 'Alive' })).toEqual(['d4']);
    expect(await ids({ state: 'all', status: 'unknown' })).toEqual(['b2', 'c5']);
    expect(await ids({ state: 'decided', status: 'Closed' })).toEqual([]);
    // A filtered view pages too.
    expect((await walk({ ...ALL, filter: { state: 'toReview', status: 'all' } }, 1)).flat()).toEqual([
      'd4',
      'e1',
      'c5',
    ]);
  });

  it('searches the id and both labels, any case, with % and _ taken as themselves', async () => {
    const ids = async (search: string) =>
      (await queue.page('demo', { ...ALL, search }, undefined, 100)).map((r) => r.interviewId);
    expect(await ids('B2')).toEqual(['b2']);
    expect(await ids('  pérez ')).toEqual(['b2']);
    expect(await ids('ANA')).toEqual(['b2']);
    expect(await ids('100%')).toEqual(['d4']);
    expect(await ids('%')).toEqual(['d4']);
    expect(await ids('_')).toEqual([]);
    expect(await ids('')).toHaveLength(5);
  });

  it('counts per local state and session status in one query, the search applied, the total without it', async () => {
    const sorted = (c: Awaited<ReturnType<QueueRecords['counts']>>) => ({
      ...c,
      matching: [...c.matching].sort((a, b) =>
        `${a.localState}${a.status}`.localeCompare(`${b.localState}${b.status}`),
      ),
    });
    expect(sorted(await queue.counts('demo'))).toEqual({
      total: 5,
      matching: [
        { localState: 'decided', status: 'Alive', count: 1 },
        { localState: 'inReview', status: 'unknown', count: 1 },
        { localState: 'toReview', status: 'Alive', count: 1 },
        { localState: 'toReview', status: 'Closed', count: 1 },
        { localState: 'toReview', status: 'unknown', count: 1 },
      ],
    });
    expect(await queue.counts('demo', 'luis')).toEqual({
      total: 5,
      matching: [{ localState: 'toReview', status: 'Alive', count: 1 }],
    });
    expect(await queue.counts('nowhere')).toEqual({ total: 0, matching: [] });
  });

  it('filters by holder, second review, age against the team target and risk, and counts under them', async () => {
    const now = Date.now();
    const hoursAgo = (h: number) => new Date(now - h * 3_600_000).toISOString();
    await queue.put('scope', [
      { interviewId: 's1', addedAt: hoursAgo(48), localState: 'toReview', risk: 'high' },
      { interviewId: 's2', addedAt: hoursAgo(30), localState: 'decided', risk: 'low' },
      { interviewId: 's3', addedAt: hoursAgo(2), localState: 'inReview', risk: 'CRITICAL' },
      { interviewId: 's4', addedAt: hoursAgo(1), localState: 'toReview' },
      { interviewId: 's5', addedAt: hoursAgo(26), localState: 'inReview', risk: 'medium' },
    ]);
    const claims = new ClaimRecords(record.db);
    await claims.claim('scope', 's1');
    await claims.claim('scope', 's3');
    await sql`update claims set expires_at = now() - interval '1 minute' where interview_id = 's3'`.execute(record.db);
    await new DecisionRecords(record.db).add('s5', {
      decision: 'approve',
      reason: 'Fine',
      acknowledgedFindings: ['checkFraudRisk (HIGH, 0.9)'],
      decidedAt: hoursAgo(0),
      environment: 'scope',
      status: 'proposed',
    });
    const ids = async (scope: QueueScope) =>
      (await queue.page('scope', { ...ALL, filter: { ...ALL.filter, ...scope } }, undefined, 100)).map(
        (r) => r.interviewId,
      );
    // The one user of this record holds s1; s3's claim lapsed.
    expect(await ids({ holder: 'mine' })).toEqual(['s1']);
    expect(await ids({ holder: 'unclaimed' })).toEqual(['s2', 's5', 's3', 's4']);
    expect(await ids({ holder: 'others' })).toEqual([]);
    expect(await ids({ review: 'waiting' })).toEqual(['s5']);
    // Proposed by this same user: not one for them to confirm.
    expect(await ids({ review: 'forMe' })).toEqual([]);
    // The default target is 24 h; decided ones are not waiting at all.
    expect(await ids({ age: 'pastTarget' })).toEqual(['s1', 's5']);
    expect(await ids({ age: 'withinTarget' })).toEqual(['s3', 's4']);
    expect(await ids({ risk: 'high' })).toEqual(['s1']);
    expect(await ids({ risk: 'medium' })).toEqual(['s5']);
    // Not read yet, or read with a level the spec does not list.
    expect(await ids({ risk: 'unknown' })).toEqual(['s3', 's4']);
    expect(await ids({ holder: 'unclaimed', age: 'pastTarget', risk: 'medium' })).toEqual(['s5']);
    expect(await ids({ holder: 'all', review: 'all', age: 'all', risk: 'all' })).toHaveLength(5);

    expect(await queue.counts('scope', '', { age: 'pastTarget' })).toEqual({
      total: 5,
      matching: expect.arrayContaining([
        { localState: 'toReview', status: 'unknown', count: 1 },
        { localState: 'inReview', status: 'unknown', count: 1 },
      ]),
    });
    expect((await queue.counts('scope', 's1', { age: 'pastTarget' })).matching).toEqual([
      { localState: 'toReview', status: 'unknown', count: 1 },
    ]);
    expect(await queue.neighbours('scope', 's5', { ...ALL, filter: { ...ALL.filter, age: 'pastTarget' } })).toEqual({
      prev: 's1',
      index: 1,
      count: 2,
    });
  });

  it('keeps the filed risk when the entry is written again from a read made before it was filed', async () => {
    const entry: StoredEntry = { interviewId: 'r1', addedAt: '2026-11-20T09:00:00.000Z', localState: 'toReview' };
    await queue.put('risk', [entry]);
    await queue.put('risk', [{ ...entry, risk: 'medium' }]);
    await queue.put('risk', [{ ...entry, localState: 'inReview' }]);
    expect(await queue.get('risk', 'r1')).toMatchObject({ localState: 'inReview', risk: 'medium' });
    await queue.put('risk', [{ ...entry, risk: 'high' }]);
    expect((await queue.get('risk', 'r1'))?.risk).toBe('high');
  });

  it('gives the neighbours and place of an interview on the filtered, sorted way', async () => {
    expect(await queue.neighbours('demo', 'e1', ALL)).toEqual({ prev: 'b2', next: 'a3', index: 2, count: 5 });
    expect(await queue.neighbours('demo', 'd4', ALL)).toEqual({ next: 'b2', index: 0, count: 5 });
    expect(await queue.neighbours('demo', 'c5', { ...ALL, sort: 'id' })).toEqual({
      prev: 'b2',
      next: 'd4',
      index: 2,
      count: 5,
    });
    const toReview: QueueQuery = { ...ALL, filter: { state: 'toReview', status: 'all' } };
    expect(await queue.neighbours('demo', 'e1', toReview)).toEqual({ prev: 'd4', next: 'c5', index: 1, count: 3 });
    // Decided meanwhile, so no longer kept by the filter: it keeps its place between the same two.
    expect(await queue.neighbours('demo', 'a3', toReview)).toEqual({ prev: 'e1', next: 'c5', index: 2, count: 4 });
    expect(await queue.neighbours('demo', 'c5', { ...toReview, search: 'e1' })).toEqual({
      prev: 'e1',
      index: 1,
      count: 2,
    });
    expect(await queue.neighbours('demo', 'elsewhere', toReview)).toEqual({ index: -1, count: 3 });
  });

  it('reads the first page of each order through its index, not a scan and sort of the queue', async () => {
    // 5,000 rows already make a scan and sort dearer than the index for a page of 100 (more only make it more so);
    // 20,000 cost 22 s of the test loop on the embedded engine, each row through the queue's triggers.
    const bulk = Array.from({ length: 5_000 }, (_, i) => ({
      interviewId: `bulk${String(i).padStart(5, '0')}`,
      addedAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
      localState: i % 3 === 0 ? ('decided' as const) : ('toReview' as const),
      ...(i % 2 ? { sessionStatus: 'Alive' as const } : {}),
    }));
    await queue.put('bulk', bulk);
    await sql`analyze queue_entries`.execute(record.db);
    const plan = async (query: QueueQuery, after?: QueueCursor) => {
      const page = pageQuery(record.db, 'bulk', query, after, 100).compile();
      const { rows } = await record.db.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain ${page.sql}`, [...page.parameters]),
      );
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    };
    const toReview = { ...ALL, filter: { state: 'toReview' as const, status: 'all' as const } };
    expect(await plan(ALL)).toMatch(/Index Scan using queue_entries_order/);
    expect(await plan(toReview)).toMatch(/Index Scan using queue_entries_state_order/);
    expect(await plan({ ...ALL, sort: 'status' })).toMatch(/Index Scan using queue_entries_status_order/);
    expect(await plan({ ...ALL, sort: 'id' })).toMatch(/Index Scan using queue_entries_pk/);
    const after = cursorOf('added', bulk[3_750]!);
    expect(await plan(toReview, after)).toMatch(/Index Cond: .*added_at/);
    expect(await plan(ALL, after)).not.toMatch(/Sort|Seq Scan/);

    // The views that look at claims, proposals and risk page the same way, whatever the other tables' statistics:
    // a tenth claimed, a tenth high risk, and claims never analyzed.
    await queue.put(
      'bulk',
      bulk.filter((_, i) => i % 10 === 1).map((entry) => ({ ...entry, risk: 'high' })),
    );
    await sql`
      insert into claims (environment, interview_id, holder, expires_at)
      select environment, interview_id, 'someone', now() + interval '1 day'
      from queue_entries where environment = 'bulk' and interview_id like '%5'`.execute(record.db);
    for (const scope of [{ holder: 'unclaimed' }, { holder: 'mine' }, { review: 'waiting' }] as const) {
      const scoped = await plan({ ...toReview, filter: { ...toReview.filter, ...scope } });
      expect(scoped).toMatch(/Index Scan using queue_entries_state_order/);
      expect(scoped).not.toMatch(/Sort|Seq Scan|Materialize|Hash/);
    }
    await sql`analyze queue_entries`.execute(record.db);
    expect(await plan({ ...ALL, filter: { ...ALL.filter, risk: 'high' } })).toMatch(
      /Index Scan using queue_entries_(risk_)?order/,
    );

    // The sort by risk (migration 0008): each page an index scan in its order, also after a cursor, never a sort.
    const byRisk = { ...ALL, sort: 'risk' as const };
    const byRiskToReview = { ...toReview, sort: 'risk' as const };
    const riskAfter = cursorOf('risk', { ...bulk[3_751]!, risk: 'high' });
    for (const [query, index] of [
      [byRisk, 'queue_entries_risk_sort'],
      [byRiskToReview, 'queue_entries_state_risk_sort'],
    ] as const) {
      for (const cursor of [undefined, riskAfter]) {
        const risky = await plan(query, cursor);
        expect(risky).toMatch(new RegExp(`Index Scan using ${index}`));
        expect(risky).not.toMatch(/Sort|Seq Scan/);
      }
    }
  }, 60_000);
});
