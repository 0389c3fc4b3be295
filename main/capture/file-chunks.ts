import { open } from 'node:fs/promises';

/**
 * A multiple of 3 so every chunk but the last encodes to base64 without a carry. 144 KiB keeps each chunk's
 * base64 text small enough for V8's young generation, where it is reclaimed within milliseconds; chunks of a few
 * MB survive to the old generation and let a 500 MB import's garbage pile up past 64 MB.
 */
export const READ_CHUNK_BYTES = 3 * 48 * 1024;

/**
 * Reads a file chunk by chunk into one reused buffer, reporting the bytes read so far after each chunk.
 * The yielded chunk is only valid until the next iteration (the consumer encodes or copies it first): reusing
 * the buffer keeps a 500 MB read from allocating 500 MB of short-lived buffers. Aborting the signal stops the
 * read with an AbortError.
 */
export async function* fileChunks(
  path: string,
  opts: { signal?: AbortSignal; onBytes?: (bytesRead: number) => void; chunkBytes?: number } = {},
): AsyncGenerator<Uint8Array> {
  const handle = await open(path, 'r');
  const buffer = Buffer.allocUnsafe(opts.chunkBytes ?? READ_CHUNK_BYTES);
  let read = 0;
  try {
    for (;;) {
      opts.signal?.throwIfAborted();
      // Fill the whole buffer when the file allows, so chunk boundaries stay on multiples of 3.
      let filled = 0;
      while (filled < buffer.length) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, read + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      if (filled === 0) return;
      read += filled;
      opts.onBytes?.(read);
      yield buffer.subarray(0, filled);
      if (filled < buffer.length) return;
    }
  } finally {
    await handle.close();
  }
}
