import { hashKey, queryOptions, type InfiniteData, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { OmniApi } from '../../../common/ipc/index';
import type { OpenedInterview } from '../../../common/ipc/interview';
import type { QueueEntry, QueuePage } from '../../../common/ipc/queue';
import { keys, queryOmni, readAgain, type OmniCallError } from '../../api/index';

/**
 * Opening an interview is a write (audit entry, last opened, local state), recorded once per visit: a query that
 * never goes stale and is not retried, so no refetch repeats it; the workspace drops it when the visit ends. Its
 * answer carries the overview and the trail with this opening in it, which seed those panels without another call.
 */
export function openingQuery(client: QueryClient, interviewId: string) {
  return queryOptions<OpenedInterview, OmniCallError>({
    queryKey: keys.interview.opening(interviewId),
    queryFn: async () => {
      const overviewKey = keys.interview.overview(interviewId);
      const auditKey = keys.interview.audit(interviewId);
      const changed = watchInvalidations(client, [overviewKey, auditKey]);
      let opened: OpenedInterview;
      try {
        opened = await queryOmni((api) => api.interview.open({ interviewId }));
      } finally {
        changed.stop();
      }
      // What changed while the opening was on its way (a play recorded, a claim taken) is newer than its answer:
      // those panels are read again instead of seeded with what the opening read before the change.
      if (changed.has(overviewKey)) void readAgain(client, { queryKey: overviewKey, exact: true });
      else client.setQueryData(overviewKey, opened.overview);
      // A trail read that started before this opening was recorded must not land after it and hide it.
      await client.cancelQueries({ queryKey: auditKey, exact: true });
      if (changed.has(auditKey)) void readAgain(client, { queryKey: auditKey, exact: true });
      else client.setQueryData(auditKey, opened.audit);
      // The entry as opened (in review, just opened) wherever the queue's rows are cached; one cached nowhere (opened
      // from a link) may be new to the queue, which is read again.
      const entry = opened.overview.entry;
      let found = false;
      const update = (rows: QueueEntry[]) =>
        rows.map((e) => {
          if (e.interviewId !== interviewId) return e;
          found = true;
          return entry;
        });
      client.setQueryData<QueueEntry[]>(keys.queue.list(), (list) => list && update(list));
      client.setQueriesData<InfiniteData<QueuePage>>(
        { queryKey: keys.queue.allPages() },
        (data) => data && { ...data, pages: data.pages.map((page) => ({ ...page, rows: update(page.rows) })) },
      );
      if (!found) void readAgain(client, { queryKey: keys.queue.all() });
      return opened;
    },
    staleTime: Infinity,
    // Long enough to outlive the wait between a navigation that starts it and the workspace that reads it.
    gcTime: 60_000,
    retry: false,
    refetchOnMount: false,
    refetchOnReconnect: false,
    refetchOnWindowFocus: false,
  });
}

/** Which of these queries were marked stale (a write announced a change) between now and `stop()`. */
function watchInvalidations(client: QueryClient, queryKeys: QueryKey[]) {
  const watched = new Set(queryKeys.map((key) => hashKey(key)));
  // One already stale announces no second change: it counts as changed, and is read again rather than seeded.
  const seen = new Set(queryKeys.filter((key) => client.getQueryState(key)?.isInvalidated).map((key) => hashKey(key)));
  const stop = client.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'invalidate' && watched.has(event.query.queryHash))
      seen.add(event.query.queryHash);
  });
  return { stop, has: (key: QueryKey) => seen.has(hashKey(key)) };
}

/**
 * Starts the opening and every panel's call of one interview at once, as the navigation begins and before any
 * of the workspace renders: the panels' own queries (same keys) then find them in flight. Only for keys not yet in
 * the cache, so calling it again costs nothing. The trail is not asked for: the opening answers with it.
 */
export function prefetchInterview(client: QueryClient, interviewId: string) {
  const opening = openingQuery(client, interviewId);
  if (!client.getQueryState(opening.queryKey)) void client.prefetchQuery(opening);
  const start = <T>(queryKey: QueryKey, fn: (api: OmniApi) => Promise<T>) => {
    if (client.getQueryState(queryKey)) return;
    void client.prefetchQuery({ queryKey, queryFn: () => queryOmni(fn) });
  };
  start(keys.interview.rawIdv(interviewId), (api) => api.interview.rawIdv({ interviewId }));
  start(keys.interview.crossDoc(interviewId), (api) => api.interview.crossDoc({ interviewId }));
  start(keys.interview.contracts(interviewId), (api) => api.interview.contracts({ interviewId }));
  start(keys.interview.video(interviewId), (api) => api.interview.video({ interviewId }));
  start(keys.interview.drafts(interviewId), (api) => api.interview.drafts({ interviewId }));
}
