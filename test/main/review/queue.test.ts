import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryVault } from '../../../main/auth/memory-vault';
import { openRecord, type OpenRecord } from '../../../main/record/open';
import { QueueRecords } from '../../../main/record/queue-records';
import { ReviewQueue, SEEN_REFRESH_MS } from '../../../main/review/queue';
import { engineFactory } from '../../helpers/record-engines';

const engines = engineFactory('embedded');
let record: OpenRecord;
beforeAll(async () => {
  record = await openRecord(await engines.fresh());
}, 60_000);
afterAll(async () => {
  await record.close();
  await engines.dispose();
});

/** A queue of its own per test: one record, an environment each. */
let environments = 0;
function setup() {
  const records = new QueueRecords(record.db);
  const environment = `env-${++environments}`;
  let now = Date.parse('2026-11-23T10:00:00Z');
  const opened = new Map<string, string>();
  const queue = new ReviewQueue(
    records,
    new MemoryVault(),
    () => environment,
    async () => (id) => opened.get(id),
    () => new Date(now),
  );
  const writes = vi.spyOn(records, 'put');
  return { records, environment, queue, writes, opened, advance: (ms: number) => (now += ms) };
}

describe('ReviewQueue', () => {
  it('writes a session status when it changes, and a new sighting of the same one only when the last is stale', async () => {
    const { queue, records, advance } = setup();
    await queue.add([{ interviewId: 'a' }]);
    const writes = vi.spyOn(records, 'setStatus');

    await queue.recordStatus('a', 'Alive');
    expect(writes).toHaveBeenCalledTimes(1);
    expect(await queue.get('a')).toMatchObject({
      sessionStatus: 'Alive',
      sessionStatusSeenAt: '2026-11-23T10:00:00.000Z',
    });

    // The panels of one opening each see it: one write, not one per panel.
    advance(1_000);
    await queue.recordStatus('a', 'Alive');
    await queue.recordStatus('a', 'Alive');
    expect(writes).toHaveBeenCalledTimes(1);

    advance(SEEN_REFRESH_MS);
    await queue.recordStatus('a', 'Alive');
    expect(writes).toHaveBeenCalledTimes(2);
    expect((await queue.get('a'))?.sessionStatusSeenAt).toBe('2026-11-23T10:05:01.000Z');

    advance(1_000);
    await queue.recordStatus('a', 'Closed');
    expect(writes).toHaveBeenCalledTimes(3);
    expect(await queue.get('a')).toMatchObject({
      sessionStatus: 'Closed',
      sessionStatusSeenAt: '2026-11-23T10:05:02.000Z',
    });

    // Nothing to record: no status, or an interview not in the queue.
    await queue.recordStatus('a', undefined);
    await queue.recordStatus('elsewhere', 'Alive');
    expect(writes).toHaveBeenCalledTimes(3);
  });

  it("files a status in its own columns, so a panel's answer never puts back a state it read", async () => {
    const { queue, writes } = setup();
    await queue.add([{ interviewId: 'a' }]);
    writes.mockClear();
    // The panels' answers come while the opening moves the entry to in review: in any order, only the opening
    // writes the whole entry.
    await Promise.all([queue.recordStatus('a', 'Alive'), queue.markOpened('a')]);
    expect(writes).toHaveBeenCalledTimes(1);
    expect(await queue.get('a')).toMatchObject({ localState: 'inReview', sessionStatus: 'Alive' });
  });

  it('an opening writes only a change of local state; when it was opened is read from the trail', async () => {
    const { queue, writes, opened } = setup();
    await queue.add([{ interviewId: 'a' }, { interviewId: 'b' }]);
    await queue.setState('b', 'decided');
    writes.mockClear();

    await queue.markOpened('a');
    expect(writes).toHaveBeenCalledTimes(1);
    expect((await queue.get('a'))?.localState).toBe('inReview');
    // Opened again, or a decided one opened: nothing to write, however large the queue.
    await queue.markOpened('a');
    await queue.markOpened('b');
    expect(writes).toHaveBeenCalledTimes(1);
    expect((await queue.get('b'))?.localState).toBe('decided');
    await expect(queue.markOpened('elsewhere')).rejects.toMatchObject({ data: { code: 'NOT_IN_QUEUE' } });

    opened.set('a', '2026-11-23T10:00:00.000Z');
    expect((await queue.get('a'))?.lastOpenedAt).toBe('2026-11-23T10:00:00.000Z');
    expect((await queue.list()).map((e) => e.lastOpenedAt)).toEqual(['2026-11-23T10:00:00.000Z', undefined]);
  });

  it('keeps the time an earlier version stored with the entry, unless the trail has a later one', async () => {
    const { records, environment, queue, opened } = setup();
    await records.put(environment, [
      {
        interviewId: 'old',
        addedAt: '2026-10-01T00:00:00.000Z',
        localState: 'inReview',
        lastOpenedAt: '2026-10-02T00:00:00.000Z',
      },
      {
        interviewId: 'both',
        addedAt: '2026-10-01T00:00:01.000Z',
        localState: 'inReview',
        lastOpenedAt: '2026-10-02T00:00:00.000Z',
      },
    ]);
    opened.set('both', '2026-11-20T00:00:00.000Z');
    expect((await queue.list()).map((e) => [e.interviewId, e.lastOpenedAt])).toEqual([
      ['old', '2026-10-02T00:00:00.000Z'],
      ['both', '2026-11-20T00:00:00.000Z'],
    ]);
  });

  it('reads a page at a time: a cursor while more follow, the last openings looked up for that page alone', async () => {
    const { environment, queue, opened, advance } = setup();
    const asked: (readonly string[] | undefined)[] = [];
    const paged = new ReviewQueue(
      new QueueRecords(record.db),
      new MemoryVault(),
      () => environment,
      async (_env, ids) => {
        asked.push(ids);
        return (id) => opened.get(id);
      },
    );
    for (const id of ['a', 'b', 'c']) {
      await queue.add([{ interviewId: id }]);
      advance(1_000);
    }
    opened.set('b', '2026-11-23T11:00:00.000Z');
    const query = { filter: { state: 'all', status: 'all' }, sort: 'added', search: '' } as const;
    const first = await paged.page(query, undefined, 2);
    expect(first.rows.map((e) => [e.interviewId, e.lastOpenedAt, e.hasSessionToken])).toEqual([
      ['a', undefined, false],
      ['b', '2026-11-23T11:00:00.000Z', false],
    ]);
    expect(first.next).toEqual({ key: '2026-11-23T10:00:01.000Z', interviewId: 'b' });
    const last = await paged.page(query, first.next, 2);
    expect(last).toEqual({ rows: [expect.objectContaining({ interviewId: 'c' })] });
    expect(asked).toEqual([['a', 'b'], ['c']]);
  });

  it('changes a copy of what it read: an edit of a listed entry, or a failed write, leaves the queue as stored', async () => {
    const { records, queue } = setup();
    await queue.add([{ interviewId: 'a', label: 'First' }]);
    const [listed] = await queue.list();
    listed!.label = 'Edited';
    expect((await queue.get('a'))?.label).toBe('First');

    vi.spyOn(records, 'put').mockRejectedValueOnce(new Error('disk full'));
    await expect(queue.markOpened('a')).rejects.toThrow('disk full');
    expect(await queue.get('a')).toMatchObject({ localState: 'toReview', label: 'First' });
    expect((await queue.get('a'))?.lastOpenedAt).toBeUndefined();
  });
});
