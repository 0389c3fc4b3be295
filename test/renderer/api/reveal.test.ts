import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HOLD_LIMIT_MS, oneTimerPerTask, revealTogether } from '../../../renderer/api/reveal';

/** A call whose answer the test decides when to give. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Records when each revealed answer was seen, in test-clock ms. */
function watch<T>(name: string, p: Promise<T>, seen: string[]) {
  p.then(
    (v) => seen.push(`${name}=${String(v)}@${Date.now()}`),
    (e: unknown) => seen.push(`${name}!${(e as Error).message}@${Date.now()}`),
  );
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => vi.useRealTimers());

describe('revealTogether', () => {
  it('shows the answers of calls started in one tick together, when the last of them arrives', async () => {
    const [a, b, c] = [deferred<number>(), deferred<number>(), deferred<number>()];
    const seen: string[] = [];
    watch('a', revealTogether(a.promise), seen);
    watch('b', revealTogether(b.promise), seen);
    watch('c', revealTogether(c.promise), seen);
    a.resolve(1);
    await vi.advanceTimersByTimeAsync(10);
    c.resolve(3);
    await vi.advanceTimersByTimeAsync(10);
    expect(seen).toEqual([]);
    b.resolve(2);
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual(['a=1@20', 'c=3@20', 'b=2@20']);
  });

  it('does not hold a call made alone', async () => {
    const seen: string[] = [];
    watch('alone', revealTogether(Promise.resolve('x')), seen);
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual(['alone=x@0']);
  });

  it('holds an answer at most HOLD_LIMIT_MS for a slow one, then shows it; the slow one comes when it comes', async () => {
    const [fast, slow] = [deferred<string>(), deferred<string>()];
    const seen: string[] = [];
    watch('fast', revealTogether(fast.promise), seen);
    watch('slow', revealTogether(slow.promise), seen);
    fast.resolve('f');
    await vi.advanceTimersByTimeAsync(HOLD_LIMIT_MS - 1);
    expect(seen).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen).toEqual([`fast=f@${HOLD_LIMIT_MS}`]);
    await vi.advanceTimersByTimeAsync(5_000);
    slow.resolve('s');
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual([`fast=f@${HOLD_LIMIT_MS}`, `slow=s@${HOLD_LIMIT_MS + 5_000}`]);
  });

  it('keeps each failure with its own call, revealed with the rest', async () => {
    const [ok, bad] = [deferred<string>(), deferred<string>()];
    const seen: string[] = [];
    watch('ok', revealTogether(ok.promise), seen);
    watch('bad', revealTogether(bad.promise), seen);
    bad.reject(new Error('RATE_LIMITED'));
    await vi.advanceTimersByTimeAsync(5);
    expect(seen).toEqual([]);
    ok.resolve('fine');
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual(['bad!RATE_LIMITED@5', 'ok=fine@5']);
  });

  it('does not join a call started in a later tick to an earlier group', async () => {
    const first = deferred<string>();
    const seen: string[] = [];
    watch('first', revealTogether(first.promise), seen);
    await Promise.resolve();
    const later = deferred<string>();
    watch('later', revealTogether(later.promise), seen);
    later.resolve('l');
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual(['later=l@0']);
    first.resolve('f');
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual(['later=l@0', 'first=f@0']);
  });
});

describe('oneTimerPerTask', () => {
  it('runs the notifications made in one task in one timer, in order', () => {
    const ran: string[] = [];
    const schedule = oneTimerPerTask();
    schedule(() => ran.push('a'));
    schedule(() => ran.push('b'));
    schedule(() => ran.push('c'));
    expect(vi.getTimerCount()).toBe(1);
    expect(ran).toEqual([]);
    vi.runOnlyPendingTimers();
    expect(ran).toEqual(['a', 'b', 'c']);
  });

  it('gives a notification made while the timer runs a timer of its own', () => {
    const ran: string[] = [];
    const schedule = oneTimerPerTask();
    schedule(() => {
      ran.push('first');
      schedule(() => ran.push('later'));
    });
    vi.runOnlyPendingTimers();
    expect(ran).toEqual(['first']);
    vi.runOnlyPendingTimers();
    expect(ran).toEqual(['first', 'later']);
  });

  it('runs the others when one throws, and lets the error surface', () => {
    const ran: string[] = [];
    const schedule = oneTimerPerTask();
    schedule(() => {
      throw new Error('render failed');
    });
    schedule(() => ran.push('next'));
    vi.runOnlyPendingTimers();
    expect(ran).toEqual(['next']);
    expect(() => vi.runOnlyPendingTimers()).toThrow('render failed');
  });
});
