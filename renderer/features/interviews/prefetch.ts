import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { OmniApi } from '../../../preload/contract/index';
import { OmniCallError, ipcErrorOf, keys } from '../../api/index';
import { omni } from '../../api/omni';

/**
 * Starts every panel's call of one interview at once, before the workspace tree renders: the panels' own
 * queries (same keys) then find them in flight. Only for keys not yet in the cache, so re-renders cost nothing.
 */
export function prefetchInterview(client: QueryClient, interviewId: string) {
  const start = <T>(queryKey: QueryKey, fn: (api: OmniApi) => Promise<T>) => {
    if (client.getQueryState(queryKey)) return;
    void client.prefetchQuery({
      queryKey,
      queryFn: async () => {
        try {
          return await fn(omni());
        } catch (error) {
          throw new OmniCallError(ipcErrorOf(error));
        }
      },
    });
  };
  start(keys.interview.rawIdv(interviewId), (api) => api.interview.rawIdv({ interviewId }));
  start(keys.interview.crossDoc(interviewId), (api) => api.interview.crossDoc({ interviewId }));
  start(keys.interview.contracts(interviewId), (api) => api.interview.contracts({ interviewId }));
  start(keys.interview.video(interviewId), (api) => api.interview.video({ interviewId }));
  start(keys.interview.drafts(interviewId), (api) => api.interview.drafts({ interviewId }));
  start(keys.interview.audit(interviewId), (api) => api.interview.audit({ interviewId }));
}
