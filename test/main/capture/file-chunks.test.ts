import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileChunks } from '../../../main/capture/file-chunks';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capture-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('fileChunks', () => {
  it('reads a file in bounded chunks, reports progress and stops on abort', async () => {
    const path = join(dir, 'chunks.bin');
    await writeFile(path, Buffer.alloc(10_000, 7));
    const seen: number[] = [];
    const sizes: number[] = [];
    for await (const c of fileChunks(path, { chunkBytes: 3000, onBytes: (n) => seen.push(n) })) sizes.push(c.length);
    expect(sizes).toEqual([3000, 3000, 3000, 1000]);
    expect(seen).toEqual([3000, 6000, 9000, 10000]);

    const distinct = join(dir, 'distinct.bin');
    const bytes = Buffer.from(Array.from({ length: 9000 }, (_, i) => (i * 131 + 7) & 0xff));
    await writeFile(distinct, bytes);
    const parts: Buffer[] = [];
    for await (const c of fileChunks(distinct, { chunkBytes: 3000 })) {
      const held = Buffer.from(c);
      // While the consumer works on a chunk the next one is read ahead; it must land in the other buffer.
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(Buffer.compare(held, c)).toBe(0);
      parts.push(held);
    }
    expect(Buffer.concat(parts).equals(bytes)).toBe(true);
    for await (const _ of fileChunks(distinct, { chunkBytes: 3000 })) break;

    const controller = new AbortController();
    const read = (async () => {
      for await (const _ of fileChunks(path, { chunkBytes: 3000, signal: controller.signal })) controller.abort();
    })();
    await expect(read).rejects.toMatchObject({ name: 'AbortError' });
  });
});
