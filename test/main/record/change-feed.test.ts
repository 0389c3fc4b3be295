import { describe, expect, it } from 'vitest';
import type { RecordNotice } from '../../../common/team-review';
import { ChangeFeed } from '../../../main/record/change-feed';

const notice = (interviewId: string): RecordNotice => ({
  table: 'claims',
  environment: 'demo',
  interviewId,
  kind: 'claimed',
  by: 'ana',
});

describe('ChangeFeed', () => {
  it('answers a poll at once with what came after its cursor', async () => {
    const feed = new ChangeFeed();
    feed.push(notice('a'));
    feed.push(notice('b'));
    const first = await feed.since(0, 1000);
    expect(first.notices.map((n) => n.interviewId)).toEqual(['a', 'b']);
    feed.push(notice('c'));
    const next = await feed.since(first.cursor, 1000);
    expect(next.notices.map((n) => n.interviewId)).toEqual(['c']);
  });

  it('holds a poll until the next notice, and wakes it at once', async () => {
    const feed = new ChangeFeed();
    const started = Date.now();
    const poll = feed.since(0, 10_000);
    setTimeout(() => feed.push(notice('late')), 50);
    const answer = await poll;
    expect(answer.notices.map((n) => n.interviewId)).toEqual(['late']);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('answers an empty poll after its wait, and a cursor from before a restart as new', async () => {
    const feed = new ChangeFeed();
    expect(await feed.since(0, 20)).toEqual({ cursor: 0, notices: [] });
    feed.push(notice('x'));
    expect((await feed.since(99, 20)).notices.map((n) => n.interviewId)).toEqual(['x']);
  });

  it('wakes every waiting poll when closed', async () => {
    const feed = new ChangeFeed();
    const poll = feed.since(0, 60_000);
    feed.close();
    await expect(poll).resolves.toEqual({ cursor: 0, notices: [] });
  });

  it('follows the record from the start: waits until it is heard, and says to read again when heard too late', async () => {
    let hear: ((n: RecordNotice) => void) | undefined;
    let heard!: () => void;
    const events = {
      subscribe: (fn: (n: RecordNotice) => void) => ((hear = fn), () => (hear = undefined)),
      listening: () => new Promise<void>((resolve) => (heard = resolve)),
    };
    const feed = new ChangeFeed();
    const started = Date.now();
    const stop = await feed.follow(events, 50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect((await feed.since(0, 0)).notices).toEqual([]);
    heard();
    await expect.poll(async () => (await feed.since(0, 0)).notices.map((n) => n.kind)).toEqual(['resync']);
    hear?.(notice('a'));
    expect((await feed.since(1, 0)).notices.map((n) => n.interviewId)).toEqual(['a']);
    stop();
    expect(hear).toBeUndefined();

    // Heard in time: nothing to read again.
    const onTime = new ChangeFeed();
    await onTime.follow({ subscribe: () => () => undefined, listening: () => Promise.resolve() }, 5_000);
    expect((await onTime.since(0, 0)).notices).toEqual([]);
  });
});
