import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';

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
    return new Promise<Response>((resolve, reject) => {
      const req = transport.request(url, { method: init?.method ?? 'POST', headers, ...(init?.signal ? { signal: init.signal } : {}) });
      req.once('response', (res) => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (Array.isArray(value)) value.forEach((v) => responseHeaders.append(name, v));
          else if (value !== undefined) responseHeaders.set(name, value);
        }
        const status = res.statusCode ?? 500;
        const stream = NULL_BODY_STATUS.has(status) ? null : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
        if (!stream) res.resume();
        resolve(new Response(stream, { status, statusText: res.statusMessage ?? '', headers: responseHeaders }));
      });
      req.once('error', reject);
      // pipeline waits for the socket to drain before pulling the next chunk: memory stays at a few chunks.
      pipeline(Readable.fromWeb(body as unknown as NodeWebReadableStream<Uint8Array>, { highWaterMark: 1 }), req).catch((error: unknown) => {
        // A server may answer (e.g. 413) before the body is complete; the response already settled the promise.
        reject(error);
      });
    });
  };
}
