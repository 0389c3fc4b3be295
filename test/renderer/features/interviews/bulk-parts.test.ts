import { describe, expect, it } from 'vitest';
import type { BulkResult } from '../../../../common/ipc/bulk';
import { runInParts } from '../../../../renderer/features/interviews/bulk-parts';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `int-${i + 1}`);

/** Refuses every third row, as a team database might. */
const act =
  (calls: string[][]) =>
  async (part: string[]): Promise<BulkResult> => {
    calls.push(part);
    return {
      done: part.filter((id) => Number(id.slice(4)) % 3 !== 0),
      refused: part
        .filter((id) => Number(id.slice(4)) % 3 === 0)
        .map((interviewId) => ({ interviewId, code: 'X', message: { en: 'no', es: 'no' } })),
    };
  };

describe('bulk actions sent in parts', () => {
  it('sends every row once, in order, in parts, adding up what each part did and saying how far it got', async () => {
    const calls: string[][] = [];
    const progress: number[] = [];
    const run = await runInParts(ids(23), 10, act(calls), { onProgress: (n) => progress.push(n) });
    expect(calls.map((c) => c.length)).toEqual([10, 10, 3]);
    expect(calls.flat()).toEqual(ids(23));
    expect(progress).toEqual([10, 20, 23]);
    expect(run.handled).toBe(23);
    expect(run.result.done).toHaveLength(16);
    expect(run.result.refused.map((r) => r.interviewId)).toEqual([
      'int-3',
      'int-6',
      'int-9',
      'int-12',
      'int-15',
      'int-18',
      'int-21',
    ]);
    expect(run.failed).toBeUndefined();
  });

  it('stops between parts when asked, leaving the rest untouched', async () => {
    const calls: string[][] = [];
    let stop = false;
    const run = await runInParts(ids(30), 10, act(calls), {
      onProgress: (n) => (stop = n >= 10),
      stopped: () => stop,
    });
    expect(calls).toHaveLength(1);
    expect(run.handled).toBe(10);
  });

  it('ends at a failed part, keeping what the parts before it did', async () => {
    const calls: string[][] = [];
    const failure = new Error('the record went away');
    const run = await runInParts(ids(25), 10, async (part) => {
      if (calls.length === 1) throw failure;
      return act(calls)(part);
    });
    expect(run).toMatchObject({ handled: 10, failed: failure });
    expect(run.result.done).toHaveLength(7);
  });

  it('ends where main stopped a part (a rate limit), counting the rows that part handled, sending no other', async () => {
    const calls: string[][] = [];
    const limit = { code: 'OMNI_HTTP', httpStatus: 429, message: { en: 'Too many requests', es: 'Demasiadas' } };
    const progress: number[] = [];
    const run = await runInParts(
      ids(30),
      10,
      async (part) => {
        calls.push(part);
        return calls.length === 2
          ? { done: part.slice(0, 4), refused: [], stoppedBy: limit }
          : { done: part, refused: [] };
      },
      { onProgress: (n) => progress.push(n) },
    );
    expect(calls).toHaveLength(2);
    expect(run.handled).toBe(14);
    expect(progress).toEqual([10, 14]);
    expect(run.result).toMatchObject({ stoppedBy: limit });
    expect(run.result.done).toEqual(ids(14));
    expect(run.failed).toBeUndefined();
  });
});
