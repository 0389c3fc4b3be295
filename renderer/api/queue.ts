import { keepPreviousData, queryOptions, useInfiniteQuery, useQuery, type InfiniteData } from '@tanstack/react-query';
import {
  QUEUE_PAGE_MAX,
  type QueueCounts,
  type QueueCursor,
  type QueueNeighbours,
  type QueuePage,
  type QueueQuery,
  type QueueScope,
} from '../../common/ipc/queue';
import type { OmniCallError } from './errors';
import { keys } from './keys';
import { queryOmni, useOmniQuery } from './index';

/**
 * The analyst's review queue, kept by main. Screens that list it read it again whenever they mount: main may have
 * changed it since this window last asked (a deep link, a batch, another window), and the call is local and cheap.
 * The whole list is for the pickers of other screens; the queue screen reads it a page at a time (useQueuePages).
 */
export function useQueueList() {
  return useOmniQuery(keys.queue.list(), (api) => api.queue.list({}), { staleTime: 0 });
}

/** Rows per page of the queue screen: a few screens' worth, so scrolling rarely waits. */
export const QUEUE_PAGE = 100;

interface PageParam {
  after?: QueueCursor;
  limit: number;
}

/** The page after those read: QUEUE_PAGE rows, or as many as it takes to have `reach` rows read; none after the last. */
export function nextPage(last: QueuePage, pages: readonly QueuePage[], reach: number): PageParam | undefined {
  if (!last.next) return undefined;
  const read = pages.reduce((n, p) => n + p.rows.length, 0);
  return { after: last.next, limit: Math.min(QUEUE_PAGE_MAX, Math.max(QUEUE_PAGE, reach - read)) };
}

/**
 * The queue as filtered, searched and sorted, one page at a time as the table asks (`fetchNextPage`). `reach`: how
 * many rows the screen wants loaded (the row of the interview just seen, far down): the next page is made long enough
 * to get there in one call. Read again on mount, like the list; a new view shows the last one's rows until it arrives.
 */
export function useQueuePages(query: QueueQuery, reach = 0) {
  return useInfiniteQuery<QueuePage, OmniCallError, InfiniteData<QueuePage, PageParam>, readonly unknown[], PageParam>({
    queryKey: keys.queue.pages(query),
    queryFn: ({ pageParam }) => queryOmni((api) => api.queue.page({ ...query, ...pageParam })),
    initialPageParam: { limit: QUEUE_PAGE },
    getNextPageParam: (last, pages) => nextPage(last, pages, reach),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

/** How many entries each state and status keeps under the search and scope, and the whole queue's length. */
export function useQueueCounts(search: string, scope: QueueScope) {
  return useOmniQuery<QueueCounts>(keys.queue.counts(search, scope), (api) => api.queue.counts({ search, scope }), {
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

/** The interviews before and after one on the queue as filtered and sorted, and its place there (queue.neighbours). */
export function neighboursQuery(interviewId: string, query: QueueQuery) {
  return queryOptions<QueueNeighbours, OmniCallError>({
    queryKey: keys.queue.neighbours(interviewId, query),
    queryFn: () => queryOmni((api) => api.queue.neighbours({ ...query, interviewId })),
  });
}

export function useQueueNeighbours(interviewId: string | null, query: QueueQuery) {
  return useQuery({ ...neighboursQuery(interviewId ?? '', query), enabled: interviewId !== null });
}
