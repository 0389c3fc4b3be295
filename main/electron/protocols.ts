import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { protocol } from 'electron';
import type { MediaStore } from '../media/registry';
import { streamMedia } from '../media/stream';
import { contentTypeOf, resolveRendererPath } from '../renderer-files';
import { rendererCsp } from '../security-policy';
import { APP_SCHEME, MEDIA_SCHEME } from './schemes';

export const APP_CSP = rendererCsp({ mediaSources: [`${MEDIA_SCHEME}:`] });

/** `app://omni/<path>` → a file of the built renderer, never outside it; every answer carries the strict CSP. */
export async function serveAppRequest(request: Request, rendererDir: string): Promise<Response> {
  const url = new URL(request.url);
  const headers = {
    'content-security-policy': APP_CSP,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  };
  if (url.host !== 'omni') return new Response('Not found', { status: 404, headers });
  const resolved = resolveRendererPath(rendererDir, url.pathname || '/');
  if (resolved === 'bad-path') return new Response('Bad path', { status: 400, headers });
  if (resolved === 'outside') return new Response('Not found', { status: 404, headers });
  const file = resolved.relative === '' ? join(resolved.file, 'index.html') : resolved.file;
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) return new Response('Not found', { status: 404, headers });
  const body = Readable.toWeb(createReadStream(file)) as unknown as ReadableStream<Uint8Array>;
  return new Response(body, {
    status: 200,
    headers: { ...headers, 'content-type': contentTypeOf(file), 'content-length': String(info.size) },
  });
}

/** `omni-media://media/<id>` → the registered remote URL, streamed with the Range header passed through. */
export async function serveMediaRequest(
  request: Request,
  media: MediaStore,
  fetchImpl?: typeof fetch,
): Promise<Response> {
  const url = new URL(request.url);
  const id = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (url.host !== 'media' || !id) return new Response('Not found', { status: 404 });
  const result = await streamMedia(
    media,
    id,
    { range: request.headers.get('range'), method: request.method, signal: request.signal },
    fetchImpl,
  );
  return new Response(result.body, { status: result.status, headers: result.headers });
}

export function registerProtocolHandlers(opts: { rendererDir: string; media: MediaStore }): void {
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(request, opts.rendererDir));
  protocol.handle(MEDIA_SCHEME, (request) => serveMediaRequest(request, opts.media));
}
