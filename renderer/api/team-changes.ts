import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { TeamChangesView } from '../../common/ipc/team';
import { keys } from './keys';
import { omni } from './omni';
import { readAgain } from './read-again';

/** How long main holds a poll with nothing new; under the web shell's request timeout. */
const POLL_WAIT_MS = 25_000;
/** After a failed poll (main restarting, the team database away), before the next. */
const RETRY_AFTER_MS = 2_000;
/** The least time between two rounds of reads that notices set off. */
const ROUND_MS = 100;

type Changes = (input: { after: number; waitMs: number }) => Promise<TeamChangesView>;

/**
 * Follows the review record's notices (another analyst claims, releases or decides) with a long poll to main, and
 * refreshes what shows them: the queue, the holders and the team's views. Mounted once, by the frame. Called without
 * revealTogether: a poll waits for seconds, and the reads started beside it must not wait with it.
 */
export function useTeamChanges(): void {
  const queryClient = useQueryClient();
  useEffect(() => followTeamChanges(queryClient, (input) => omni().team.changes(input)), [queryClient]);
}

/**
 * The loop behind useTeamChanges; the function returned stops it. Any login may notify on the record's channel: a
 * flood of notices set off a round of reads at each poll, each round cancelling the last's, so a screen opened
 * meanwhile never finished its first read and one already shown kept stale data (red team 12). A round's reads now
 * finish before the next poll, and rounds are `roundMs` apart at least.
 */
export function followTeamChanges(queryClient: QueryClient, changes: Changes, roundMs = ROUND_MS): () => void {
  let stopped = false;
  let cursor = 0;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const loop = async () => {
    while (!stopped) {
      try {
        const { cursor: next, notices } = await changes({ after: cursor, waitMs: POLL_WAIT_MS });
        if (stopped) return;
        cursor = next;
        if (notices.length === 0) continue;
        const started = Date.now();
        const reads = [
          readAgain(queryClient, { queryKey: keys.queue.all() }),
          readAgain(queryClient, { queryKey: keys.team.all() }),
        ];
        // Notices may have been missed: every interview's decision bar reads again too.
        if (notices.some((n) => n.kind === 'resync'))
          reads.push(
            readAgain(queryClient, { predicate: (q) => q.queryKey[0] === 'interview' && q.queryKey[2] === 'overview' }),
          );
        for (const id of new Set(notices.filter((n) => n.table === 'decisions').map((n) => n.interviewId)))
          reads.push(readAgain(queryClient, { queryKey: keys.interview.overview(id) }));
        await Promise.allSettled(reads);
        await pause(Math.max(0, roundMs - (Date.now() - started)));
      } catch {
        await pause(RETRY_AFTER_MS);
      }
    }
  };
  void loop();
  return () => {
    stopped = true;
  };
}
