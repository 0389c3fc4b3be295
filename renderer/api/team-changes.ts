import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { keys } from './keys';
import { omni } from './omni';
import { readAgain } from './read-again';

/** How long main holds a poll with nothing new; under the web shell's request timeout. */
const POLL_WAIT_MS = 25_000;
/** After a failed poll (main restarting, the team database away), before the next. */
const RETRY_AFTER_MS = 2_000;

/**
 * Follows the review record's notices (another analyst claims, releases or decides) with a long poll to main, and
 * refreshes what shows them: the queue, the holders and the team's views. Mounted once, by the frame. Called without
 * revealTogether: a poll waits for seconds, and the reads started beside it must not wait with it.
 */
export function useTeamChanges(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let stopped = false;
    let cursor = 0;
    const loop = async () => {
      while (!stopped) {
        try {
          const { cursor: next, notices } = await omni().team.changes({ after: cursor, waitMs: POLL_WAIT_MS });
          if (stopped) return;
          cursor = next;
          if (notices.length === 0) continue;
          void readAgain(queryClient, { queryKey: keys.queue.all() });
          void readAgain(queryClient, { queryKey: keys.team.all() });
          // Notices may have been missed: every interview's decision bar reads again too.
          if (notices.some((n) => n.kind === 'resync'))
            void readAgain(queryClient, {
              predicate: (q) => q.queryKey[0] === 'interview' && q.queryKey[2] === 'overview',
            });
          for (const id of new Set(notices.filter((n) => n.table === 'decisions').map((n) => n.interviewId)))
            void readAgain(queryClient, { queryKey: keys.interview.overview(id) });
        } catch {
          await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
        }
      }
    };
    void loop();
    return () => {
      stopped = true;
    };
  }, [queryClient]);
}
