import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_VIEW,
  countKept,
  isFiltered,
  queueQuery,
  sameView,
  scopeOf,
  viewOf,
} from '../../../../renderer/features/interviews/queue-view';

describe('queueQuery', () => {
  it('asks main for the view, with the search as typed once typing paused, trimmed', () => {
    const view = { ...DEFAULT_VIEW, search: ' demo-c', state: 'toReview' as const, sort: 'id' as const };
    expect(queueQuery(view)).toEqual({
      filter: { state: 'toReview', status: 'all', holder: 'all', review: 'all', age: 'all', risk: 'all' },
      sort: 'id',
      search: 'demo-c',
    });
    expect(queueQuery(view, 'dem')).toMatchObject({ search: 'dem' });
  });

  it('carries the scope filters, and a saved query reads back as the same view', () => {
    const view = { ...DEFAULT_VIEW, holder: 'mine' as const, age: 'pastTarget' as const, risk: 'high' as const };
    expect(scopeOf(view)).toEqual({ holder: 'mine', review: 'all', age: 'pastTarget', risk: 'high' });
    expect(sameView(viewOf(queueQuery(view)), view)).toBe(true);
    // Saved before the scope filters existed: the missing ones read as all.
    expect(viewOf({ filter: { state: 'decided', status: 'all' }, sort: 'added', search: '' })).toEqual({
      ...DEFAULT_VIEW,
      state: 'decided',
    });
  });

  it('calls a view filtered when any filter or the search narrows it, whatever the sort', () => {
    expect(isFiltered(DEFAULT_VIEW)).toBe(false);
    expect(isFiltered({ ...DEFAULT_VIEW, sort: 'id' })).toBe(false);
    expect(isFiltered({ ...DEFAULT_VIEW, risk: 'low' })).toBe(true);
    expect(isFiltered({ ...DEFAULT_VIEW, search: 'x' }, ' ')).toBe(false);
    expect(isFiltered(DEFAULT_VIEW, 'x')).toBe(true);
  });
});

describe('countKept', () => {
  it('sums the counts of the states and statuses a filter keeps', () => {
    const counts = {
      total: 9,
      matching: [
        { localState: 'toReview' as const, status: 'Alive' as const, count: 3 },
        { localState: 'toReview' as const, status: 'unknown' as const, count: 2 },
        { localState: 'decided' as const, status: 'Alive' as const, count: 1 },
      ],
    };
    expect(countKept(counts, 'all', 'all')).toBe(6);
    expect(countKept(counts, 'toReview', 'all')).toBe(5);
    expect(countKept(counts, 'all', 'Alive')).toBe(4);
    expect(countKept(counts, 'decided', 'unknown')).toBe(0);
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

  it('survives a reload of the window: view and last interview', async () => {
    const first = await fresh();
    first.setQueueView({ state: 'toReview', sort: 'id' });
    first.setLastVisited('b');
    vi.resetModules();
    const reloaded = await fresh();
    const { result } = renderHookOnce(reloaded.useQueueWalk);
    expect(result).toEqual({
      view: { ...DEFAULT_VIEW, state: 'toReview', sort: 'id' },
      lastVisited: 'b',
    });
  });

  it('starts from the default view when what is stored is not a view (or a sort main no longer offers)', async () => {
    storage.set('omni-queue-view', JSON.stringify({ view: { search: 1, state: 'everything' }, lastVisited: null }));
    const { result } = renderHookOnce((await fresh()).useQueueWalk);
    expect(result).toEqual({ view: DEFAULT_VIEW, lastVisited: null });
    storage.set('omni-queue-view', JSON.stringify({ view: { ...DEFAULT_VIEW, sort: 'opened' }, lastVisited: 'a' }));
    vi.resetModules();
    expect(renderHookOnce((await fresh()).useQueueWalk).result.view).toEqual(DEFAULT_VIEW);
    // Kept by a version from before the scope filters: read, the filters it lacks as all.
    storage.set(
      'omni-queue-view',
      JSON.stringify({ view: { search: 'x', state: 'decided', status: 'all', sort: 'id' }, lastVisited: 'c' }),
    );
    vi.resetModules();
    expect(renderHookOnce((await fresh()).useQueueWalk).result).toEqual({
      view: { ...DEFAULT_VIEW, search: 'x', state: 'decided', sort: 'id' },
      lastVisited: 'c',
    });
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
    unsubscribe();
    expect(seen).toEqual(['status']);
  });

  it('gives the workspace the same view while only the last visited interview changes, so it does not render again', async () => {
    const store = await fresh();
    store.setQueueView({ sort: 'id' });
    const before = renderHookOnce(store.useQueueView).result;
    store.setLastVisited('a');
    expect(renderHookOnce(store.useQueueView).result).toBe(before);
    store.setQueueView({ sort: 'status' });
    expect(renderHookOnce(store.useQueueView).result).toEqual({ ...DEFAULT_VIEW, sort: 'status' });
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
