import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { Readable } from 'node:stream';
import { protocol } from 'electron';
import type { MediaStore } from '../media/registry';
import { streamMedia } from '../media/stream';
import { rendererCsp } from '../security-policy';
import { APP_SCHEME, MEDIA_SCHEME } from './schemes';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.bcmap': 'application/octet-stream',
  '.pfb': 'application/octet-stream',
  '.ttf': 'font/ttf',
};

export const APP_CSP = rendererCsp({ mediaSources: [`${MEDIA_SCHEME}:`] });

/** `app://omni/<path>` → a file of the built renderer, never outside it; every answer carries the strict CSP. */
export async function serveAppRequest(request: Request, rendererDir: string): Promise<Response> {
  const url = new URL(request.url);
  const headers = { 'content-security-policy': APP_CSP, 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' };
  if (url.host !== 'omni') return new Response('Not found', { status: 404, headers });
  let relative: string;
  try {
    relative = normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, '') || 'index.html';
  } catch {
    return new Response('Bad path', { status: 400, headers });
  }
  const root = normalize(rendererDir + sep);
  const file = join(root, relative);
  if (!file.startsWith(root)) return new Response('Not found', { status: 404, headers });
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) return new Response('Not found', { status: 404, headers });
  const body = Readable.toWeb(createReadStream(file)) as unknown as ReadableStream<Uint8Array>;
  return new Response(body, { status: 200, headers: { ...headers, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': String(info.size) } });
}

/** `omni-media://media/<id>` → the registered remote URL, streamed with the Range header passed through. */
export async function serveMediaRequest(request: Request, media: MediaStore, fetchImpl?: typeof fetch): Promise<Response> {
  const url = new URL(request.url);
  const id = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (url.host !== 'media' || !id) return new Response('Not found', { status: 404 });
  const result = await streamMedia(media, id, { range: request.headers.get('range'), method: request.method, signal: request.signal }, fetchImpl);
  return new Response(result.body, { status: result.status, headers: result.headers });
}

export function registerProtocolHandlers(opts: { rendererDir: string; media: MediaStore }): void {
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(request, opts.rendererDir));
  protocol.handle(MEDIA_SCHEME, (request) => serveMediaRequest(request, opts.media));
}
