import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueueEntry } from '../../../../common/ipc/queue';
import {
  DEFAULT_VIEW,
  applyView,
  neighbours,
  type QueueView,
} from '../../../../renderer/features/interviews/queue-view';

const entry = (interviewId: string, more: Partial<QueueEntry> = {}): QueueEntry => ({
  interviewId,
  addedAt: '2026-11-01T10:00:00.000Z',
  localState: 'toReview',
  hasSessionToken: false,
  ...more,
});

const entries: QueueEntry[] = [
  entry('c-closed', {
    addedAt: '2026-11-01T10:00:03.000Z',
    sessionStatus: 'Closed',
    localState: 'decided',
    lastOpenedAt: '2026-11-02T09:00:00.000Z',
  }),
  entry('a-alive', {
    addedAt: '2026-11-01T10:00:01.000Z',
    sessionStatus: 'Alive',
    label: 'Fraud ring',
    labelEs: 'Red de fraude',
  }),
  entry('b-unknown', {
    addedAt: '2026-11-01T10:00:02.000Z',
    localState: 'inReview',
    lastOpenedAt: '2026-11-03T09:00:00.000Z',
  }),
];
const ids = (list: QueueEntry[]) => list.map((e) => e.interviewId);
const view = (change: Partial<QueueView>): QueueView => ({ ...DEFAULT_VIEW, ...change });
const english = (e: QueueEntry) => e.label;

describe('applyView', () => {
  it('keeps the queue in the order interviews were added by default', () => {
    expect(ids(applyView(entries, DEFAULT_VIEW, english))).toEqual(['a-alive', 'b-unknown', 'c-closed']);
  });

  it('searches ids and the label in the screen language, ignoring case', () => {
    expect(ids(applyView(entries, view({ search: 'FRAUD' }), english))).toEqual(['a-alive']);
    expect(ids(applyView(entries, view({ search: 'red de' }), (e) => e.labelEs ?? e.label))).toEqual(['a-alive']);
    expect(ids(applyView(entries, view({ search: 'red de' }), english))).toEqual([]);
    expect(ids(applyView(entries, view({ search: '  closed ' }), english))).toEqual(['c-closed']);
  });

  it('filters by local state and by last known session status, "unknown" for none seen', () => {
    expect(ids(applyView(entries, view({ state: 'inReview' }), english))).toEqual(['b-unknown']);
    expect(ids(applyView(entries, view({ status: 'unknown' }), english))).toEqual(['b-unknown']);
    expect(ids(applyView(entries, view({ status: 'Closed', state: 'toReview' }), english))).toEqual([]);
  });

  it('sorts by last opened (newest first, never opened last), id and status (unknown last)', () => {
    expect(ids(applyView(entries, view({ sort: 'opened' }), english))).toEqual(['b-unknown', 'c-closed', 'a-alive']);
    expect(ids(applyView(entries, view({ sort: 'id' }), english))).toEqual(['a-alive', 'b-unknown', 'c-closed']);
    expect(ids(applyView(entries, view({ sort: 'status' }), english))).toEqual(['a-alive', 'c-closed', 'b-unknown']);
  });

  it('does not reorder the list it was given', () => {
    const given = [...entries];
    applyView(given, view({ sort: 'id' }), english);
    expect(ids(given)).toEqual(ids(entries));
  });
});

describe('neighbours', () => {
  const queue = ['q1', 'q2', 'q3', 'q4'];

  it('walks the order the queue last showed, not the whole queue', () => {
    expect(neighbours('q3', ['q4', 'q3', 'q1'], queue)).toEqual({ prev: 'q4', next: 'q1', index: 1, count: 3 });
    expect(neighbours('q4', ['q4', 'q3', 'q1'], queue)).toEqual({ prev: undefined, next: 'q3', index: 0, count: 3 });
    expect(neighbours('q1', ['q4', 'q3', 'q1'], queue)).toEqual({ prev: 'q3', next: undefined, index: 2, count: 3 });
  });

  it('skips interviews removed from the queue since', () => {
    expect(neighbours('q1', ['q1', 'gone', 'q2'], queue)).toMatchObject({ next: 'q2', count: 2 });
  });

  it('walks the whole queue for an interview the shown order does not have (opened from a link)', () => {
    expect(neighbours('q2', ['q4', 'q3'], queue)).toEqual({ prev: 'q1', next: 'q3', index: 1, count: 4 });
  });

  it('has no way for an interview that is not in the queue', () => {
    expect(neighbours('elsewhere', [], queue)).toEqual({ index: -1, count: 4 });
  });
});

describe('the view kept for the window', () => {
  let storage: Map<string, string>;
  beforeEach(() => {
    storage = new Map();
    vi.stubGlobal('window', {
      sessionStorage: {
        getItem: (k: string) => storage.get(k) ?? null,
        setItem: (k: string, v: string) => void storage.set(k, v),
      },
    });
    vi.resetModules();
  });
  afterEach(() => vi.unstubAllGlobals());

  const fresh = () => import('../../../../renderer/features/interviews/queue-view');

  it('survives a reload of the window: view, shown order and last interview', async () => {
    const first = await fresh();
    first.setQueueView({ state: 'toReview', sort: 'id' });
    first.setQueueOrder(['a', 'b']);
    first.setLastVisited('b');
    vi.resetModules();
    const reloaded = await fresh();
    const { result } = renderHookOnce(reloaded.useQueueWalk);
    expect(result).toEqual({
      view: { ...DEFAULT_VIEW, state: 'toReview', sort: 'id' },
      order: ['a', 'b'],
      lastVisited: 'b',
    });
  });

  it('starts from the default view when what is stored is not a view', async () => {
    storage.set('omni-queue-view', JSON.stringify({ view: { search: 1, state: 'everything' }, order: 'x' }));
    const { result } = renderHookOnce((await fresh()).useQueueWalk);
    expect(result).toEqual({ view: DEFAULT_VIEW, order: [], lastVisited: null });
    storage.set('omni-queue-view', '{not json');
    vi.resetModules();
    expect(renderHookOnce((await fresh()).useQueueWalk).result.view).toEqual(DEFAULT_VIEW);
  });

  it('tells its readers of a change, and not of a change to the same values', async () => {
    const store = await fresh();
    const seen: unknown[] = [];
    const unsubscribe = subscribeTo(store, (walk) => seen.push(walk.view.sort));
    store.setQueueView({ sort: 'status' });
    store.setQueueView({ sort: 'status' });
    store.setQueueOrder([]);
    unsubscribe();
    expect(seen).toEqual(['status']);
  });

  it('gives the workspace the same order while only the last visited interview changes, so it does not render again', async () => {
    const store = await fresh();
    store.setQueueOrder(['a', 'b']);
    const before = renderHookOnce(store.useQueueOrder).result;
    store.setLastVisited('a');
    expect(renderHookOnce(store.useQueueOrder).result).toBe(before);
    store.setQueueOrder(['b', 'a']);
    expect(renderHookOnce(store.useQueueOrder).result).toEqual(['b', 'a']);
  });
});

/**
 * The store's hook outside React: useSyncExternalStore is mocked to read the snapshot and hand out the subscription,
 * which is all the hook does with it.
 */
let subscribed: ((listener: () => void) => () => void) | undefined;
vi.mock('react', async (original) => ({
  ...(await original<typeof import('react')>()),
  useSyncExternalStore: (subscribe: (listener: () => void) => () => void, read: () => unknown) => {
    subscribed = subscribe;
    return read();
  },
}));

function renderHookOnce<T>(hook: () => T): { result: T } {
  return { result: hook() };
}

function subscribeTo(
  store: typeof import('../../../../renderer/features/interviews/queue-view'),
  onChange: (walk: ReturnType<typeof store.useQueueWalk>) => void,
) {
  store.useQueueWalk();
  return subscribed!(() => onChange(store.useQueueWalk()));
}
