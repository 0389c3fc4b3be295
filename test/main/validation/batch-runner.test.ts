import { describe, expect, it } from 'vitest';
import { BatchRunner, type Settled } from '../../../main/validation/batch-runner';

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('BatchRunner', () => {
  it('never runs more than `concurrency` tasks at once and settles every item once', async () => {
    let running = 0;
    let peak = 0;
    const settled = new Map<number, Settled<number>>();
    const runner = new BatchRunner<number, number>({
      items: Array.from({ length: 25 }, (_, i) => i),
      concurrency: 3,
      work: async (n) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 1 + (n % 3)));
        running--;
        return n * 2;
      },
      classify: () => ({ retry: false }),
      onSettled: (i, outcome) => settled.set(i, outcome),
    });
    runner.start();
    await runner.finished;
    expect(peak).toBe(3);
    expect(settled.size).toBe(25);
    expect(settled.get(7)).toEqual({ ok: true, value: 14 });
    expect(runner.progress()).toMatchObject({ state: 'done', done: 25, total: 25, inFlight: 0 });
  });

  it('retries transient failures with growing backoff, honours Retry-After, and gives up after maxAttempts', async () => {
    const delays: number[] = [];
    const attemptsByItem = new Map<string, number>();
    const calls = new Map<string, number>();
    const runner = new BatchRunner<string, string>({
      items: ['flaky', 'down', 'limited'],
      concurrency: 1,
      maxAttempts: 4,
      baseDelayMs: 100,
      random: () => 1,
      sleep: async (ms) => void delays.push(ms),
      work: async (item) => {
        const n = (calls.get(item) ?? 0) + 1;
        calls.set(item, n);
        if (item === 'flaky' && n < 3) throw new Error('503');
        if (item === 'down') throw new Error('503');
        if (item === 'limited' && n === 1) throw new Error('429');
        return 'ok';
      },
      classify: (o) =>
        o.ok
          ? { retry: false }
          : (o.error as Error).message === '429'
            ? { retry: true, retryAfterMs: 2000 }
            : { retry: true },
      onSettled: (i, _o, attempts) => attemptsByItem.set(['flaky', 'down', 'limited'][i]!, attempts),
    });
    runner.start();
    await runner.finished;
    expect(Object.fromEntries(attemptsByItem)).toEqual({ flaky: 3, down: 4, limited: 2 });
    expect(delays).toEqual([100, 200, 100, 200, 400, 2000]);
    expect(runner.progress().retries).toBe(6);
  });

  it('pause lets running tasks finish but starts no new ones; resume continues', async () => {
    const gates = Array.from({ length: 6 }, () => deferred<void>());
    const started: number[] = [];
    const runner = new BatchRunner<number, number>({
      items: [0, 1, 2, 3, 4, 5],
      concurrency: 2,
      work: async (n) => {
        started.push(n);
        await gates[n]!.promise;
        return n;
      },
      classify: () => ({ retry: false }),
      onSettled: () => {},
    });
    runner.start();
    expect(started).toEqual([0, 1]);
    runner.pause();
    expect(runner.progress().state).toBe('pausing');
    gates[0]!.resolve();
    gates[1]!.resolve();
    await tick();
    await tick();
    expect(runner.progress()).toMatchObject({ state: 'paused', done: 2 });
    expect(started).toEqual([0, 1]);
    runner.resume();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const g of gates) g.resolve();
    await runner.finished;
    expect(runner.progress()).toMatchObject({ state: 'done', done: 6 });
  });

  it('cancel aborts running tasks and settles nothing further', async () => {
    let settledCount = 0;
    const runner = new BatchRunner<number, number>({
      items: [0, 1, 2, 3],
      concurrency: 2,
      work: (_item, signal) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
      classify: () => ({ retry: true }),
      onSettled: () => settledCount++,
    });
    runner.start();
    runner.cancel();
    await runner.finished;
    expect(settledCount).toBe(0);
    expect(runner.progress()).toMatchObject({ state: 'cancelled', done: 0, inFlight: 0 });
  });

  it('finishes at once with no items and refuses a zero concurrency', async () => {
    const runner = new BatchRunner({
      items: [],
      concurrency: 2,
      work: async () => 1,
      classify: () => ({ retry: false }),
      onSettled: () => {},
    });
    runner.start();
    await runner.finished;
    expect(runner.progress().state).toBe('done');
    expect(
      () =>
        new BatchRunner({
          items: [],
          concurrency: 0,
          work: async () => 1,
          classify: () => ({ retry: false }),
          onSettled: () => {},
        }),
    ).toThrow(RangeError);
  });
});
