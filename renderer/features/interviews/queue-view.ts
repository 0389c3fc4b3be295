import { useSyncExternalStore } from 'react';
import { z } from 'zod';
import { SessionStatus } from '../../../common/omni/common';
import { LocalReviewState, type QueueEntry } from '../../../common/ipc/queue';

/**
 * How the analyst looks at the queue (search, filters, sort) and the way through it that view gives: kept for the
 * window, so coming back from an interview finds the queue as it was left, on the row of the interview just seen,
 * and the workspace's previous and next follow the same filtered, sorted list.
 */
export const SortKey = z.enum(['added', 'opened', 'id', 'status']);
export type SortKey = z.infer<typeof SortKey>;

export const QueueView = z.object({
  search: z.string().max(300),
  state: z.union([LocalReviewState, z.literal('all')]),
  status: z.union([SessionStatus, z.literal('unknown'), z.literal('all')]),
  sort: SortKey,
});
export type QueueView = z.infer<typeof QueueView>;

export const DEFAULT_VIEW: QueueView = { search: '', state: 'all', status: 'all', sort: 'added' };

const ORDERS: Record<SortKey, (a: QueueEntry, b: QueueEntry) => number> = {
  added: (a, b) => a.addedAt.localeCompare(b.addedAt) || a.interviewId.localeCompare(b.interviewId),
  opened: (a, b) =>
    (b.lastOpenedAt ?? '').localeCompare(a.lastOpenedAt ?? '') || a.interviewId.localeCompare(b.interviewId),
  id: (a, b) => a.interviewId.localeCompare(b.interviewId),
  // Interviews whose status was never seen go last.
  status: (a, b) =>
    Number(!a.sessionStatus) - Number(!b.sessionStatus) ||
    (a.sessionStatus ?? '').localeCompare(b.sessionStatus ?? '') ||
    a.interviewId.localeCompare(b.interviewId),
};

/** The entries a view shows, in its order. `labelOf`: an entry's label in the screen's language (search matches it). */
export function applyView(
  entries: readonly QueueEntry[],
  view: QueueView,
  labelOf: (entry: QueueEntry) => string | undefined,
): QueueEntry[] {
  const q = view.search.trim().toLowerCase();
  return entries
    .filter(
      (e) =>
        (!q || e.interviewId.toLowerCase().includes(q) || (labelOf(e) ?? '').toLowerCase().includes(q)) &&
        (view.state === 'all' || e.localState === view.state) &&
        (view.status === 'all' || (e.sessionStatus ?? 'unknown') === view.status),
    )
    .sort(ORDERS[view.sort]);
}

/**
 * The interviews before and after `current` on the way the queue last showed (`order`): the order is kept as the
 * analyst saw it, so an interview that moves when opened (sorted by last opened) or leaves the filter when decided
 * does not change where next leads. An interview not on that way (opened from a link) walks the whole queue.
 */
export function neighbours(
  current: string,
  order: readonly string[],
  queue: readonly string[],
): { prev?: string; next?: string; index: number; count: number } {
  const inQueue = new Set(queue);
  const known = order.filter((id) => id === current || inQueue.has(id));
  const way = known.includes(current) ? known : [...queue];
  const index = way.indexOf(current);
  if (index < 0) return { index, count: way.length };
  return { prev: way[index - 1], next: way[index + 1], index, count: way.length };
}

interface Walk {
  view: QueueView;
  /** The ids the queue showed, in its order, when it was last on screen. */
  order: string[];
  /** The interview the analyst was last in: the queue selects its row on the way back. */
  lastVisited: string | null;
}

const Walk = z.object({
  view: QueueView,
  order: z.array(z.string().max(200)).max(100_000),
  lastVisited: z.string().max(200).nullable(),
});
const STORAGE_KEY = 'omni-queue-view';

function load(): Walk {
  try {
    const parsed = Walk.safeParse(JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? 'null'));
    if (parsed.success) return parsed.data;
  } catch {
    // Unreadable (storage off, or not JSON): start from the default view.
  }
  return { view: DEFAULT_VIEW, order: [], lastVisited: null };
}

let walk: Walk | undefined;
const listeners = new Set<() => void>();

function current(): Walk {
  return (walk ??= load());
}

function update(change: Partial<Walk>) {
  const before = current();
  const next = { ...before, ...change };
  if (sameView(next.view, before.view) && next.lastVisited === before.lastVisited && sameIds(next.order, before.order))
    return;
  walk = next;
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // A full or disabled storage only loses the view on reload.
  }
  for (const listener of listeners) listener();
}

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);
const sameView = (a: QueueView, b: QueueView) =>
  a.search === b.search && a.state === b.state && a.status === b.status && a.sort === b.sort;

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useQueueWalk(): Walk {
  return useSyncExternalStore(subscribe, current, current);
}

/** Only the order: the workspace's next and previous do not re-render when the last visited changes. */
export function useQueueOrder(): readonly string[] {
  const order = () => current().order;
  return useSyncExternalStore(subscribe, order, order);
}

export const setQueueView = (change: Partial<QueueView>) => update({ view: { ...current().view, ...change } });
export const setQueueOrder = (order: string[]) => update({ order });
export const setLastVisited = (interviewId: string) => update({ lastVisited: interviewId });
