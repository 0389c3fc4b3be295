import {
  QueryClient,
  hashKey,
  notifyManager,
  partialMatchKey,
  useMutation,
  useQuery,
  useQueryClient,
  type Query,
  type QueryKey,
  type UseMutationOptions,
  type UseQueryOptions,
} from '@tanstack/react-query';
import { useMemo, useSyncExternalStore } from 'react';
import type { OmniApi } from '../../common/ipc/index';
import { OmniCallError, ipcErrorOf } from './errors';
import { keys } from './keys';
import { omni } from './omni';
import { oneTimerPerTask, revealTogether } from './reveal';
import { readAgain } from './read-again';

/**
 * Data access convention: components never call `window.omni` directly; they use
 *   useOmniQuery(keys.x.y(id), (api) => api.domain.method({ ... }))
 *   useOmniMutation((api, input) => api.domain.method(input), { invalidate: [keys.x.all(id)] })
 * Errors arrive as OmniCallError with `.data` (bilingual IpcErrorData) for <Panel> and <ErrorNotice>.
 */
export { keys } from './keys';
export { readAgain } from './read-again';
export { OmniCallError, ipcErrorOf } from './errors';

export function createQueryClient(): QueryClient {
  notifyManager.setScheduler(oneTimerPerTask());
  return new QueryClient({
    defaultOptions: {
      // The main-process client already retries idempotent calls with backoff; a second layer would only delay errors.
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

/** One call through the bridge, its failure as an OmniCallError: what every query and mutation of the app runs. */
export async function callOmni<T>(fn: (api: OmniApi) => Promise<T>): Promise<T> {
  try {
    return await fn(omni());
  } catch (error) {
    throw new OmniCallError(ipcErrorOf(error));
  }
}

/** A read for a query: like callOmni, its answer shown together with those of reads started in the same tick. */
export function queryOmni<T>(fn: (api: OmniApi) => Promise<T>): Promise<T> {
  return revealTogether(callOmni(fn));
}

export function useOmniQuery<T>(
  queryKey: QueryKey,
  fn: (api: OmniApi) => Promise<T>,
  options: Omit<UseQueryOptions<T, OmniCallError, T, QueryKey>, 'queryKey' | 'queryFn'> = {},
) {
  return useQuery<T, OmniCallError, T, QueryKey>({ queryKey, queryFn: () => queryOmni(fn), ...options });
}

export interface LoadState {
  /** Whether any of the queries is fetching. */
  fetching: boolean;
  /** When the last of them received its data (ms since epoch; 0 when none has); held while they fetch. */
  updatedAt: number;
}

/**
 * The load state of the queries under `prefix` (exactly `prefix` with `exact`). React Query's useIsFetching matches
 * every cached query against its filter on every event of the cache, hashing the key each time; with a day's
 * interviews cached that cost ~8 ms of each opening. Here only changes of matching queries are looked at, and the
 * cheap fetch status is checked before the key.
 */
export function useQueriesUnder(prefix: QueryKey, { exact = false }: { exact?: boolean } = {}): LoadState {
  const cache = useQueryClient().getQueryCache();
  const prefixHash = hashKey(prefix);
  const store = useMemo(() => {
    const key = JSON.parse(prefixHash) as QueryKey;
    const matches = (query: Query) => (exact ? query.queryHash === prefixHash : partialMatchKey(query.queryKey, key));
    const queries = () =>
      exact ? [cache.get(prefixHash)].filter((q) => q !== undefined) : cache.getAll().filter(matches);
    let state: LoadState = { fetching: false, updatedAt: 0 };
    const read = (): LoadState => {
      const now = queries();
      const fetching = now.some((q) => q.state.fetchStatus === 'fetching');
      const updatedAt = fetching ? state.updatedAt : Math.max(0, ...now.map((q) => q.state.dataUpdatedAt));
      // The same object while nothing changed, as useSyncExternalStore requires.
      if (fetching !== state.fetching || updatedAt !== state.updatedAt) state = { fetching, updatedAt };
      return state;
    };
    read();
    return {
      subscribe: (onChange: () => void) => {
        const notify = notifyManager.batchCalls(onChange);
        return cache.subscribe((event) => {
          // Only these change a fetch status or data; observers coming and going do not.
          if ((event.type === 'updated' || event.type === 'added' || event.type === 'removed') && matches(event.query))
            notify();
        });
      },
      read,
    };
  }, [cache, prefixHash, exact]);
  return useSyncExternalStore(store.subscribe, store.read, store.read);
}

export function useOmniMutation<I, T>(
  fn: (api: OmniApi, input: I) => Promise<T>,
  options: Omit<UseMutationOptions<T, OmniCallError, I>, 'mutationFn'> & {
    invalidate?: QueryKey[] | ((data: T, input: I) => QueryKey[]);
  } = {},
) {
  const queryClient = useQueryClient();
  const { invalidate, onSuccess, ...rest } = options;
  return useMutation<T, OmniCallError, I>({
    mutationFn: (input) => callOmni((api) => fn(api, input)),
    ...rest,
    onSuccess: async (data, input, ...more) => {
      const toInvalidate = typeof invalidate === 'function' ? invalidate(data, input) : (invalidate ?? []);
      await Promise.all(toInvalidate.map((queryKey) => readAgain(queryClient, { queryKey })));
      await onSuccess?.(data, input, ...more);
    },
  });
}

/** Switching environment changes every answer, so every cached query is dropped. */
export function useSwitchEnvironment() {
  const queryClient = useQueryClient();
  return useOmniMutation((api, id: string) => api.settings.setActiveEnvironment({ id }), {
    onSuccess: async (data) => {
      await queryClient.resetQueries();
      queryClient.setQueryData(keys.settings.environments(), data);
    },
  });
}
