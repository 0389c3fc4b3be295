import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import type { TeamChangesView } from '../../../common/ipc/team';
import type { RecordNotice } from '../../../common/team-review';
import { followTeamChanges } from '../../../renderer/api/team-changes';

/** A login's flood of notices on the record's channel (red team 12): any login may send them, as fast as it likes. */
const notice: RecordNotice = { table: 'claims', environment: 'demo', interviewId: 'iv-1', kind: 'claimed', by: 'beto' };

describe('following the record under a flood of notices', () => {
  const client = new QueryClient();
  afterEach(() => client.clear());

  it("a shown screen's reads finish and show between rounds, instead of each poll cancelling the last", async () => {
    let started = 0;
    let finished = 0;
    const observer = new QueryObserver(client, {
      queryKey: ['queue', 'list'],
      queryFn: async () => {
        started++;
        // A read through main takes a moment.
        await new Promise((resolve) => setTimeout(resolve, 20));
        return `read ${++finished}`;
      },
    });
    const stopShowing = observer.subscribe(() => undefined);
    const shownAtPoll: (string | undefined)[] = [];
    const POLLS = 30;
    const changes = async ({ after }: { after: number }): Promise<TeamChangesView> => {
      shownAtPoll.push(observer.getCurrentResult().data);
      // The flood never stops: every poll finds new notices; after the last one counted, main holds the poll.
      if (shownAtPoll.length >= POLLS) return new Promise(() => undefined);
      return { cursor: after + 1, notices: [notice] };
    };
    const stop = followTeamChanges(client, changes, 0);
    try {
      await expect.poll(() => shownAtPoll.length, { timeout: 30_000 }).toBe(POLLS);
      // Shown from the second poll on (the first read finished before it), and every read started finished but one.
      expect(shownAtPoll.slice(2).every((shown) => shown !== undefined)).toBe(true);
      expect(started - finished).toBeLessThanOrEqual(1);
    } finally {
      stop();
      stopShowing();
    }
  });
});
