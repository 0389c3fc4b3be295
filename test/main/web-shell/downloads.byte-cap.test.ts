import { describe, expect, it } from 'vitest';
import { createWebFiles } from '../../../main/web-shell/downloads';

const idOf = (url: string | undefined) => decodeURIComponent(/^\/download\/([^?]+)/.exec(url ?? '')![1]!);
/** Only the size matters to the store; a stand-in keeps the test from allocating hundreds of MB. */
const sized = (bytes: number) => ({ byteLength: bytes }) as Uint8Array;

describe('web shell downloads byte cap (L5)', () => {
  it('keeps at most 256 MB parked by default, dropping the oldest first', async () => {
    const files = createWebFiles('k'.repeat(43));
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const saved = await files.save({ suggestedName: `e${i}.csv`, data: sized(60 * 1024 ** 2), mimeType: 'text/csv' });
      ids.push(idOf(saved?.downloadUrl));
    }
    const kept = ids.map((id) => files.take(id) !== undefined);
    // 4 × 60 MB fit under 256 MB: the last four stay, the six before them are gone.
    expect(kept).toEqual([false, false, false, false, false, false, true, true, true, true]);
  });

  it('honours a given cap, and keeps the newest file even when it alone is over it', async () => {
    const files = createWebFiles('k'.repeat(43), Date.now, { maxParkedBytes: 1000 });
    const save = async (n: number) =>
      idOf((await files.save({ suggestedName: 'x.csv', data: new Uint8Array(n), mimeType: 'text/csv' }))?.downloadUrl);
    const a = await save(400);
    const b = await save(400);
    const c = await save(400);
    const big = await save(5000);
    expect(files.take(a)).toBeUndefined();
    expect(files.take(b)).toBeUndefined();
    expect(files.take(c)).toBeUndefined();
    expect(files.take(big)?.data.byteLength).toBe(5000);
  });
});
