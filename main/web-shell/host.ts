import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import { IPC_BATCH_ROUTE, type BatchedAnswer, type BatchedCall, type IpcErrorData, type IpcResult } from '../../common/ipc/define';
import type { Router } from '../ipc/router';
import { streamMedia } from '../media/stream';
import type { MediaStore } from '../media/registry';
import { contentTypeOf, resolveRendererPath } from '../renderer-files';
import { rendererCsp } from '../security-policy';
import { sameSecret, verifyPath } from './tokens';
import type { DownloadStore } from './downloads';
import { SHELL_KEY_HEADER } from '../../common/web-shell';

/**
 * The web shell's loopback host: serves the built renderer, `/ipc/<channel>` (the same router as Electron's
 * ipcMain), `/media/<id>` and `/download/<id>`. Every request must name this host exactly (`Host`), and carry
 * no foreign `Origin` (no DNS rebinding, no cross-site calls). IPC needs the per-launch key in a header; media and
 * downloads a short-lived signature made with it. The page itself (HTML, JS, CSS) holds no secret and is served on
 * the Host/Origin check alone, since a browser cannot add headers to a navigation. Everything else: 403.
 */
const MAX_IPC_BODY_BYTES = 64 * 1024 * 1024;
const MAX_BATCH_CALLS = 64;
/** A browser may take a while to start; a code left unused longer than this is refused. */
const OPEN_CODE_TTL_MS = 5 * 60 * 1000;

export interface HostOptions {
  router: Router;
  staticDir: string;
  media: MediaStore;
  downloads: DownloadStore;
  /** Per-launch key; only its holder (the page that got it in the URL fragment) may call IPC. */
  key: string;
  port?: number;
  now?: () => number;
  fetch?: typeof fetch;
  onError?: (error: unknown) => void;
  /** Largest IPC request body; default 64 MB. */
  maxIpcBodyBytes?: number;
  /** `PUT /staging`: streams a picked file into a temp file (main/capture/web-staging.ts); same key check as IPC. */
  staging?: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}

export interface Host {
  /** Origin of the host, e.g. http://127.0.0.1:5173 */
  origin: string;
  port: number;
  /**
   * An address that opens the app once, for the system browser: a command line (xdg-open, open) is readable by
   * other local users, so it carries a one-time code, which `/open` exchanges for the key in a redirect.
   */
  oneTimeOpenUrl(): string;
  close(): Promise<void>;
}

const CSP = rendererCsp({ mediaSources: [] });

function securityHeaders(res: ServerResponse) {
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('cross-origin-opener-policy', 'same-origin');
  res.setHeader('cross-origin-resource-policy', 'same-origin');
  // Only features Chromium knows: an unknown one ('bluetooth') makes it log a warning on every page load.
  res.setHeader('permissions-policy', 'camera=(), microphone=(), geolocation=(), usb=(), serial=(), hid=(), payment=()');
}

export async function startHost(opts: HostOptions): Promise<Host> {
  const now = opts.now ?? Date.now;
  const maxIpcBodyBytes = opts.maxIpcBodyBytes ?? MAX_IPC_BODY_BYTES;
  let origin = '';
  let hostHeader = '';
  /** One-time open codes and when each expires. */
  const openCodes = new Map<string, number>();

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      opts.onError?.(error);
      if (!res.headersSent) sendText(res, 500, 'Internal error');
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    securityHeaders(res);
    const url = parseRequestUrl(req.url, origin);
    if (!url) return sendText(res, 400, 'Bad path');
    const isIpc = url.pathname === IPC_BATCH_ROUTE || url.pathname.startsWith('/ipc/');
    if (!isOwnRequest(req)) return forbidden(res, isIpc);

    if (url.pathname === IPC_BATCH_ROUTE) return handleIpcBatch(req, res);
    if (isIpc) return handleIpc(req, res, url.pathname.slice('/ipc/'.length));
    if (url.pathname === '/staging' && opts.staging) {
      const key = req.headers[SHELL_KEY_HEADER];
      if (req.headers.origin !== origin || !sameSecret(typeof key === 'string' ? key : undefined, opts.key)) return forbidden(res, true);
      return opts.staging(req, res);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'Method not allowed');
    if (url.pathname === '/open') return handleOpen(res, url.searchParams.get('code'));
    if (url.pathname.startsWith('/media/')) return handleMedia(req, res, url);
    if (url.pathname.startsWith('/download/')) return handleDownload(res, url);
    return serveStatic(req, res, url.pathname);
  }

  /** Host must be exactly ours; Origin, when sent, too; a browser saying the request is cross-site is refused. */
  function isOwnRequest(req: IncomingMessage): boolean {
    if (req.headers.host !== hostHeader) return false;
    const requestOrigin = req.headers.origin;
    if (requestOrigin !== undefined && requestOrigin !== origin) return false;
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
    return true;
  }

  /** The checks every IPC request passes, then its JSON body; undefined when an error was already sent. */
  async function readIpcRequest(req: IncomingMessage, res: ServerResponse): Promise<{ input: unknown } | undefined> {
    const key = req.headers[SHELL_KEY_HEADER];
    // Calls come from fetch in our page, which always sends Origin on POST; a request without one is not ours.
    if (req.headers.origin !== origin || !sameSecret(typeof key === 'string' ? key : undefined, opts.key)) return void forbidden(res, true);
    if (req.method !== 'POST') return void sendJson(res, 405, failure('METHOD_NOT_ALLOWED', 'IPC calls must use POST.', 'Las llamadas IPC deben usar POST.'));
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return void sendJson(res, 415, failure('UNSUPPORTED_MEDIA_TYPE', 'IPC calls must send JSON.', 'Las llamadas IPC deben enviar JSON.'));
    }
    const raw = await readBody(req, maxIpcBodyBytes);
    if (raw === undefined) {
      return void sendJson(res, 413, failure('PAYLOAD_TOO_LARGE', `The request is larger than ${Math.round(maxIpcBodyBytes / 1024 / 1024)} MB.`, `La solicitud ocupa más de ${Math.round(maxIpcBodyBytes / 1024 / 1024)} MB.`));
    }
    try {
      return { input: raw === '' ? {} : JSON.parse(raw) };
    } catch {
      return void sendJson(res, 400, failure('INVALID_INPUT', 'The request body is not valid JSON.', 'El cuerpo de la solicitud no es JSON válido.'));
    }
  }

  async function handleIpc(req: IncomingMessage, res: ServerResponse, encodedChannel: string) {
    const request = await readIpcRequest(req, res);
    if (!request) return;
    const channel = decodePathPart(encodedChannel);
    if (channel === undefined) return sendJson(res, 400, failure('INVALID_INPUT', 'The channel name in the address is not valid.', 'El nombre del canal en la dirección no es válido.'));
    sendJson(res, 200, await opts.router.handle(channel, request.input, { url: origin, isMainFrame: true }));
  }

  /**
   * Calls the page made in the same tick, in one request: each runs as it would alone, all at once, and its answer
   * is written as one line (`BatchedAnswer`) the moment it is ready, so a slow call never holds back
   * the others. One request instead of one per call spares the browser, the page and this host a round of HTTP
   * work per call; opening an interview makes six.
   */
  async function handleIpcBatch(req: IncomingMessage, res: ServerResponse) {
    const request = await readIpcRequest(req, res);
    if (!request) return;
    const calls = request.input;
    if (!Array.isArray(calls) || calls.length === 0 || calls.length > MAX_BATCH_CALLS || !calls.every(isBatchedCall)) {
      return sendJson(res, 400, failure('INVALID_INPUT', `A batch is a list of 1 to ${MAX_BATCH_CALLS} calls, each with a channel.`, `Un lote es una lista de 1 a ${MAX_BATCH_CALLS} llamadas, cada una con su canal.`));
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' });
    await Promise.all(
      calls.map(async (call, i) => {
        const result = await opts.router.handle(call.channel, call.input ?? {}, { url: origin, isMainFrame: true });
        const answer: BatchedAnswer = { i, result };
        // The page may be gone (reload, closed tab); the call itself has run either way.
        if (!res.destroyed) writeNow(res, `${JSON.stringify(answer)}\n`);
      }),
    );
    if (!res.destroyed) res.end();
  }

  /** The key goes to the browser in a redirect's fragment, never on a command line; each code works once. */
  function handleOpen(res: ServerResponse, code: string | null) {
    const expiresAt = code === null ? undefined : openCodes.get(code);
    if (code !== null) openCodes.delete(code);
    if (expiresAt === undefined || expiresAt < now()) {
      return sendText(res, 410, 'This link was already used or has expired. Open the address printed in the terminal ("Omni Reviewer ready at ...").\nEste enlace ya se usó o venció. Abre la dirección que se muestra en la terminal ("Omni Reviewer ready at ...").');
    }
    res.writeHead(302, { location: `/#k=${opts.key}`, 'cache-control': 'no-store' });
    res.end();
  }

  async function handleMedia(req: IncomingMessage, res: ServerResponse, url: URL) {
    const id = decodePathPart(url.pathname.slice('/media/'.length));
    if (id === undefined) return sendText(res, 400, 'Bad path');
    if (!verifyPath(opts.key, 'media', id, url.searchParams.get('exp'), url.searchParams.get('sig'), now())) return forbidden(res, false);
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const range = req.headers.range;
    const media = await streamMedia(opts.media, id, { range: range ?? null, method: req.method ?? 'GET', signal: controller.signal }, opts.fetch);
    res.writeHead(media.status, media.headers);
    if (!media.body) return void res.end();
    Readable.fromWeb(media.body as unknown as NodeWebReadableStream<Uint8Array>)
      .on('error', () => res.destroy())
      .pipe(res);
  }

  function handleDownload(res: ServerResponse, url: URL) {
    const id = decodePathPart(url.pathname.slice('/download/'.length));
    if (id === undefined) return sendText(res, 400, 'Bad path');
    if (!verifyPath(opts.key, 'download', id, url.searchParams.get('exp'), url.searchParams.get('sig'), now())) return forbidden(res, false);
    const file = opts.downloads.take(id);
    if (!file) return sendText(res, 410, 'This download link was already used or has expired.');
    res.writeHead(200, {
      'content-type': file.mimeType,
      'content-length': String(file.data.byteLength),
      'content-disposition': `attachment; filename="${asciiName(file.name)}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      'cache-control': 'no-store',
    });
    res.end(Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength));
  }

  async function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string) {
    const resolved = resolveRendererPath(opts.staticDir, pathname);
    if (resolved === 'bad-path') return sendText(res, 400, 'Bad path');
    if (resolved === 'outside') return sendText(res, 404, 'Not found');
    const { relative } = resolved;
    let file = resolved.file;
    let info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) {
      // Routes live in the hash; any other unknown asset path is a real 404.
      if (relative !== '' && relative !== 'index.html' && extname(relative) !== '') return sendText(res, 404, 'Not found');
      file = join(opts.staticDir, 'index.html');
      info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) return sendText(res, 500, 'The renderer is not built. Run: npm run build:renderer');
    }
    const isHtml = extname(file) === '.html';
    res.writeHead(200, {
      'content-type': contentTypeOf(file),
      'content-length': String(info.size),
      'cache-control': isHtml ? 'no-store' : 'public, max-age=31536000, immutable',
      ...(isHtml ? { 'content-security-policy': CSP } : {}),
    });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file).on('error', () => res.destroy()).pipe(res);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  hostHeader = `127.0.0.1:${port}`;
  origin = `http://${hostHeader}`;

  return {
    origin,
    port,
    oneTimeOpenUrl() {
      const code = randomBytes(24).toString('base64url');
      openCodes.set(code, now() + OPEN_CODE_TTL_MS);
      return `${origin}/open?code=${code}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function isBatchedCall(call: unknown): call is BatchedCall {
  return typeof call === 'object' && call !== null && typeof (call as Partial<BatchedCall>).channel === 'string';
}

function failure(code: string, en: string, es: string): IpcResult<never> {
  const error: IpcErrorData = { code, message: { en, es }, retryable: false };
  return { ok: false, error };
}

function forbidden(res: ServerResponse, json: boolean) {
  if (json) {
    return sendJson(res, 403, failure('FORBIDDEN', 'This request was refused: it did not come from this app’s page.', 'Esta solicitud fue rechazada: no provino de la página de esta aplicación.'));
  }
  return sendText(res, 403, 'Forbidden');
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), 'cache-control': 'no-store' });
  res.end(text);
}

function sendText(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), 'cache-control': 'no-store' });
  res.end(text);
}

function parseRequestUrl(path: string | undefined, origin: string): URL | undefined {
  try {
    return new URL(path ?? '/', origin);
  } catch {
    return undefined;
  }
}

/** undefined when the path part holds a malformed `%` escape: the client's mistake (400), not the host's (500). */
function decodePathPart(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/**
 * The body as text, or undefined when it is over the limit. Past the limit the rest is read and dropped, so the client
 * gets the 413 rather than a connection reset while it is still sending; a body far past it is cut off.
 */
function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] | undefined = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) chunks = undefined;
      if (size > limit * 4) req.destroy();
      chunks?.push(chunk);
    });
    req.on('end', () => resolve(chunks && Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function asciiName(name: string): string {
  return name.replace(/[^\x20-\x7e]|["\\]/g, '_');
}

/**
 * Writes and sends at once. Node holds what a response writes until the next tick (it corks the socket), and that
 * tick waits for every promise continuation already queued: while the other calls of a batch are busy, a finished
 * answer sat there for milliseconds. Flushing it here lets the page take each answer the moment it is ready.
 */
function writeNow(res: ServerResponse, text: string) {
  res.write(text);
  res.socket?.uncork();
}
