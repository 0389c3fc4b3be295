import { useSyncExternalStore } from 'react';
import { z } from 'zod';
import { SessionStatus } from '../../../common/omni/common';
import {
  AgeFilter,
  HolderFilter,
  LocalReviewState,
  QueueSort,
  ReviewFilter,
  RiskFilter,
  type QueueCounts,
  type QueueQuery,
  type QueueScope,
} from '../../../common/ipc/queue';

/**
 * How the analyst looks at the queue (search, filters, sort): kept for the window, so coming back from an interview
 * finds the queue as it was left, on the row of the interview just seen, and the workspace's previous and next
 * (queue.neighbours) follow the same filtered, sorted queue. Main does the filtering, searching and sorting.
 */
export const QueueView = z.object({
  search: z.string().max(300),
  state: z.union([LocalReviewState, z.literal('all')]),
  status: z.union([SessionStatus, z.literal('unknown'), z.literal('all')]),
  // Defaults: a view kept by an earlier version (before these filters) still reads.
  holder: HolderFilter.default('all'),
  review: ReviewFilter.default('all'),
  age: AgeFilter.default('all'),
  risk: RiskFilter.default('all'),
  sort: QueueSort,
});
export type QueueView = z.infer<typeof QueueView>;

export const DEFAULT_VIEW: QueueView = {
  search: '',
  state: 'all',
  status: 'all',
  holder: 'all',
  review: 'all',
  age: 'all',
  risk: 'all',
  sort: 'added',
};

/** What main is asked for a view; `search` may lag the field's text (the screen waits for typing to pause). */
export function queueQuery(view: QueueView, search = view.search): QueueQuery {
  const { state, status, sort } = view;
  return { filter: { state, status, ...scopeOf(view) }, sort, search: search.trim() };
}

/** The filters beyond state and status, which the counts apply before counting by state and status. */
export function scopeOf({ holder, review, age, risk }: QueueView): Required<QueueScope> {
  return { holder, review, age, risk };
}

/** A saved view's query as the screen's view. */
export function viewOf({ filter, sort, search }: QueueQuery): QueueView {
  return { ...DEFAULT_VIEW, ...filter, sort, search };
}

/** Whether anything narrows the queue (an empty result then reads "no match", not "empty queue"). */
export const isFiltered = (view: QueueView, search = view.search) =>
  search.trim() !== '' || !sameView({ ...view, search: '', sort: DEFAULT_VIEW.sort }, DEFAULT_VIEW);

/** The entries of the queue that a filter keeps, from the counts of each state and status under the search. */
export function countKept(counts: QueueCounts, state: QueueView['state'], status: QueueView['status']): number {
  return counts.matching
    .filter((c) => (state === 'all' || c.localState === state) && (status === 'all' || c.status === status))
    .reduce((sum, c) => sum + c.count, 0);
}

interface Walk {
  view: QueueView;
  /** The interview the analyst was last in: the queue selects its row on the way back. */
  lastVisited: string | null;
}

const Walk = z.object({ view: QueueView, lastVisited: z.string().max(200).nullable() });
const STORAGE_KEY = 'omni-queue-view';

function load(): Walk {
  try {
    const parsed = Walk.safeParse(JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? 'null'));
    if (parsed.success) return parsed.data;
  } catch {
    // Unreadable (storage off, or not JSON): start from the default view.
  }
  return { view: DEFAULT_VIEW, lastVisited: null };
}

let walk: Walk | undefined;
const listeners = new Set<() => void>();

function current(): Walk {
  return (walk ??= load());
}

function update(change: Partial<Walk>) {
  const before = current();
  const next = { ...before, ...change };
  if (sameView(next.view, before.view) && next.lastVisited === before.lastVisited) return;
  // The view object stays the same when only the last visited changed: the workspace reads it and need not render.
  walk = sameView(next.view, before.view) ? { ...next, view: before.view } : next;
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(walk));
  } catch {
    // A full or disabled storage only loses the view on reload.
  }
  for (const listener of listeners) listener();
}

export const sameView = (a: QueueView, b: QueueView) =>
  (Object.keys(DEFAULT_VIEW) as (keyof QueueView)[]).every((field) => a[field] === b[field]);

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useQueueWalk(): Walk {
  return useSyncExternalStore(subscribe, current, current);
}

/** Only the view: the workspace's next and previous do not re-render when the last visited changes. */
export function useQueueView(): QueueView {
  const view = () => current().view;
  return useSyncExternalStore(subscribe, view, view);
}

export const setQueueView = (change: Partial<QueueView>) => update({ view: { ...current().view, ...change } });
export const setLastVisited = (interviewId: string) => update({ lastVisited: interviewId });
