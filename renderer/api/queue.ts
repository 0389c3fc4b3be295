import { keys } from './keys';
import { useOmniQuery } from './index';

/**
 * The analyst's review queue, kept by main. Screens that list it read it again whenever they mount: main may have
 * changed it since this window last asked (a deep link, a batch, another window), and the call is local and cheap.
 * `{ refresh: false }` for a screen that only needs the ids it already has (the workspace's next and previous).
 */
export function useQueueList({ refresh = true }: { refresh?: boolean } = {}) {
  return useOmniQuery(keys.queue.list(), (api) => api.queue.list({}), refresh ? { staleTime: 0 } : {});
}
