/**
 * Builds a JSON request body whose one large field is a file's bytes in base64, as a stream: the file is read in
 * chunks and each chunk is encoded on a 3-byte boundary (leftover 1–2 bytes carry into the next chunk), so neither
 * the file nor its base64 is ever held whole.
 */

import { Base64Encoder } from './base64-simd';
import { ChunkPool } from './chunk-pool';

const encoder = new TextEncoder();

export interface Base64JsonBodyOptions {
  /** Name of the field that receives the base64 text. */
  field: string;
  /** Size of the source in bytes; needed to announce the exact body length up front. */
  sourceBytes: number;
  /** Other fields of the body (small, serialized normally, written after the base64 field). */
  extra?: Record<string, unknown>;
  /** The encoder whose `inputBuffers` the source reads into, if any; otherwise a fresh one. */
  encoder?: Base64Encoder;
  /**
   * The most bytes one source chunk holds. Given, the output comes from a ChunkPool that the writer refills
   * (`releaseChunk`); otherwise every output chunk is a fresh buffer.
   */
  chunkBytes?: number;
}

export interface Base64JsonBody {
  stream: AsyncIterable<Uint8Array>;
  /** Exact byte length of the body, for `Content-Length`. */
  contentLength: number;
}

/** Length of the base64 text for `bytes` input bytes (with padding). */
export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

function frame(field: string, extra: Record<string, unknown> | undefined): { head: Uint8Array; tail: Uint8Array } {
  // The tail is built with JSON.stringify so extra values are escaped exactly as JSON requires.
  const extraJson = extra ? JSON.stringify(extra) : '{}';
  const tailText = extraJson === '{}' ? '"}' : `",${extraJson.slice(1)}`;
  return { head: encoder.encode(`{${JSON.stringify(field)}:"`), tail: encoder.encode(tailText) };
}

/**
 * Wraps `source` (raw bytes, any chunk sizes) into the JSON body. Throws if the source yields a different number
 * of bytes than announced, since the announced Content-Length would then be a lie.
 */
export function base64JsonBody(source: AsyncIterable<Uint8Array>, opts: Base64JsonBodyOptions): Base64JsonBody {
  const { head, tail } = frame(opts.field, opts.extra);
  const contentLength = head.length + base64Length(opts.sourceBytes) + tail.length;

  async function* generate(): AsyncGenerator<Uint8Array> {
    const base64 = opts.encoder ?? new Base64Encoder();
    const pool = opts.chunkBytes
      ? new ChunkPool(base64Length(opts.chunkBytes + 3), { slots: base64.outputSlots() })
      : undefined;
    yield head;
    const carry = Buffer.alloc(3);
    let carried = 0;
    let seen = 0;
    for await (const chunk of source) {
      seen += chunk.length;
      // The first 3 − carried bytes of this chunk complete the carried triple.
      const fill = carried > 0 ? Math.min(3 - carried, chunk.length) : 0;
      carry.set(chunk.subarray(0, fill), carried);
      carried += fill;
      const whole = carried === 3 ? 3 : 0;
      const usable = chunk.length - fill - ((chunk.length - fill) % 3);
      if (whole + usable > 0) {
        // Not the previous chunk's buffer: the socket may still hold it. The pool lends one the writer gave back.
        const out = pool ? pool.take(((whole + usable) / 3) * 4) : Buffer.allocUnsafeSlow(((whole + usable) / 3) * 4);
        const at = whole ? base64.encodeTriples(carry, 0, 3, out, 0) : 0;
        if (whole) carried = 0;
        base64.encodeTriples(chunk, fill, fill + usable, out, at);
        yield out;
      }
      // Copy the 0–2 leftover bytes so the next read can reuse the source buffer safely.
      const rest = chunk.subarray(fill + usable);
      carry.set(rest, carried);
      carried += rest.length;
    }
    if (carried > 0) yield Buffer.from(Buffer.from(carry.subarray(0, carried)).toString('base64'), 'latin1');
    if (seen !== opts.sourceBytes) {
      throw new Error(`The file changed while it was being read: expected ${opts.sourceBytes} bytes, read ${seen}.`);
    }
    yield tail;
  }

  return { stream: generate(), contentLength };
}
