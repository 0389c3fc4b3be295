import http from 'node:http';
import https from 'node:https';
import { Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import { releaseChunk } from './chunk-pool';

/**
 * A `fetch` for OmniClient that sends streamed request bodies (video import) over node:http with backpressure.
 * Node 20's built-in fetch reads a streamed request body ahead of the socket: a 500 MB upload ends up held in
 * memory almost whole. Requests without a streamed body go to the regular fetch unchanged.
 */
const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

export function streamingFetch(base: typeof fetch = globalThis.fetch.bind(globalThis)): typeof fetch {
  return async (input, init) => {
    const body = init?.body;
    if (!(body instanceof ReadableStream)) return base(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    const transport = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : undefined;
    if (!transport) throw new TypeError(`Unsupported protocol ${url.protocol}`);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    headers['accept-encoding'] ??= 'gzip, deflate, br';
    return new Promise<Response>((resolve, reject) => {
      const req = transport.request(url, {
        method: init?.method ?? 'POST',
        headers,
        ...(init?.signal ? { signal: init.signal } : {}),
      });
      req.once('response', (res) => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (Array.isArray(value)) value.forEach((v) => responseHeaders.append(name, v));
          else if (value !== undefined) responseHeaders.set(name, value);
        }
        const status = res.statusCode ?? 500;
        // As fetch does: the body comes decoded, so an encoded answer reads as the JSON it is, not "not JSON".
        const decoder = NULL_BODY_STATUS.has(status) ? undefined : decoderFor(res.headers['content-encoding']);
        if (decoder) {
          responseHeaders.delete('content-encoding');
          responseHeaders.delete('content-length');
          res.once('error', (e) => decoder.destroy(e));
          res.pipe(decoder);
        }
        const stream = NULL_BODY_STATUS.has(status)
          ? null
          : (Readable.toWeb(decoder ?? res) as unknown as ReadableStream<Uint8Array>);
        if (!stream) res.resume();
        resolve(new Response(stream, { status, statusText: res.statusMessage ?? '', headers: responseHeaders }));
      });
      req.once('error', reject);
      // A server may answer (e.g. 413) before the body is complete; the response already settled the promise.
      sendBody(body as ReadableStream<Uint8Array>, req).catch(reject);
    });
  };
}

function decoderFor(encoding: string | undefined): Transform | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

/**
 * Writes the body with backpressure: after each write the next chunk is produced (read and encoded) while this one
 * drains, and no more is asked for until the socket drains, so memory stays at a few chunks. Each chunk goes back
 * to its pool (`releaseChunk`) once Node has handed it to the kernel.
 */
async function sendBody(body: ReadableStream<Uint8Array>, req: http.ClientRequest): Promise<void> {
  const reader = body.getReader();
  let next = reader.read();
  try {
    for (;;) {
      const { value, done } = await next;
      if (done) break;
      if (req.destroyed) {
        // Aborted, failed or answered early: the request's own 'error' (if any) settles the call.
        next.catch(() => undefined);
        await reader.cancel().catch(() => undefined);
        return;
      }
      const flushed = req.write(value, (error) => {
        if (!error) releaseChunk(value);
      });
      next = reader.read();
      if (!flushed) await drained(req);
    }
    req.end();
  } catch (error) {
    next.catch(() => undefined);
    await reader.cancel(error).catch(() => undefined);
    req.destroy(error instanceof Error ? error : undefined);
    throw error;
  }
}

/** Resolves on 'drain' or when the request closes first (the loop then stops); rejects when it fails. */
function drained(req: http.ClientRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      req.off('drain', onDrain).off('error', onError).off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onError = (error: Error) => settle(error);
    const onClose = () => settle();
    req.on('drain', onDrain).on('error', onError).on('close', onClose);
  });
}
