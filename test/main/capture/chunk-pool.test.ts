import { describe, expect, it } from 'vitest';
import { ChunkPool, releaseChunk } from '../../../main/capture/chunk-pool';

describe('ChunkPool', () => {
  it('lends fresh buffers until one is given back, then reuses it; foreign chunks are ignored', () => {
    const pool = new ChunkPool(16, { keep: 1 });
    const a = pool.take(10);
    const b = pool.take(16);
    expect(a.length).toBe(10);
    expect(a.buffer).not.toBe(b.buffer);
    releaseChunk(a);
    releaseChunk(a); // a second release of the same write changes nothing
    const c = pool.take(4);
    expect(c.buffer).toBe(a.buffer);
    expect(pool.take(4).buffer).not.toBe(a.buffer);
    releaseChunk(Buffer.alloc(4));
    expect(() => pool.take(17)).toThrow(RangeError);
  });
});
