import { createReadStream } from 'node:fs';

/** A multiple of 3 so almost every chunk encodes to base64 without a carry. */
export const READ_CHUNK_BYTES = 3 * 256 * 1024;

/**
 * Reads a file chunk by chunk, reporting the bytes read so far after each chunk. Aborting the signal stops the
 * read and makes the iteration throw an AbortError.
 */
export async function* fileChunks(
  path: string,
  opts: { signal?: AbortSignal; onBytes?: (bytesRead: number) => void; chunkBytes?: number } = {},
): AsyncGenerator<Uint8Array> {
  const stream = createReadStream(path, { highWaterMark: opts.chunkBytes ?? READ_CHUNK_BYTES, signal: opts.signal });
  let read = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      read += chunk.length;
      opts.onBytes?.(read);
      yield chunk;
    }
  } finally {
    stream.destroy();
  }
}
