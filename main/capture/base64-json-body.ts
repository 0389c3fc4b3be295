/**
 * Builds a JSON request body whose one large field is a file's bytes in base64, as a stream: the file is read in
 * chunks and each chunk is encoded on a 3-byte boundary (leftover 1–2 bytes carry into the next chunk), so neither
 * the file nor its base64 is ever held whole.
 */

const encoder = new TextEncoder();

export interface Base64JsonBodyOptions {
  /** Name of the field that receives the base64 text. */
  field: string;
  /** Size of the source in bytes; needed to announce the exact body length up front. */
  sourceBytes: number;
  /** Other fields of the body (small, serialized normally, written after the base64 field). */
  extra?: Record<string, unknown>;
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
    yield head;
    let carry: Buffer = Buffer.alloc(0);
    let seen = 0;
    for await (const chunk of source) {
      seen += chunk.length;
      const joined = carry.length > 0 ? Buffer.concat([carry, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
      const usable = joined.length - (joined.length % 3);
      if (usable > 0) yield Buffer.from(joined.subarray(0, usable).toString('base64'), 'latin1');
      // Copy the 0–2 leftover bytes so the next read can reuse the source buffer safely.
      carry = Buffer.from(joined.subarray(usable));
    }
    if (carry.length > 0) yield Buffer.from(carry.toString('base64'), 'latin1');
    if (seen !== opts.sourceBytes) {
      throw new Error(`The file changed while it was being read: expected ${opts.sourceBytes} bytes, read ${seen}.`);
    }
    yield tail;
  }

  return { stream: generate(), contentLength };
}
