import { keys, useOmniQuery } from '../../api/index';
import { useT } from '../../i18n/index';
import { messages } from './messages';

/**
 * 'Deleted' or 'Closed' when the service said so for this interview, else undefined. The contract links carry the
 * status on each answer; the overview holds the last one main recorded. Both observed, neither fetched from here.
 */
export function useEndedSession(interviewId: string): 'Deleted' | 'Closed' | undefined {
  const contracts = useOmniQuery(
    keys.interview.contracts(interviewId),
    (api) => api.interview.contracts({ interviewId }),
    { enabled: false },
  );
  const overview = useOmniQuery(
    keys.interview.overview(interviewId),
    (api) => api.interview.overview({ interviewId }),
    {
      enabled: false,
    },
  );
  const status = contracts.data?.data.sessionStatus ?? overview.data?.entry.sessionStatus;
  return status === 'Deleted' || status === 'Closed' ? status : undefined;
}

/**
 * What every panel says in place of its own "nothing here" when the session has ended: an empty or refused answer
 * is then the session's state, not a missing result. Undefined while the session is alive.
 */
export function useEndedSessionText(interviewId: string): string | undefined {
  const t = useT(messages);
  const ended = useEndedSession(interviewId);
  return ended === 'Deleted' ? t('sessionDeletedEmpty') : ended === 'Closed' ? t('sessionClosedEmpty') : undefined;
}
