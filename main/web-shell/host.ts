import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IPC_BATCH_ROUTE } from '../../common/ipc/define';
import { SHELL_KEY_HEADER } from '../../common/web-shell';
import type { Router } from '../ipc/router';
import type { MediaStore } from '../media/registry';
import type { DownloadStore } from './downloads';
import { fileRoutes } from './file-routes';
import { ipcRoutes } from './ipc-routes';
import { forbidden, parseRequestUrl, securityHeaders, sendText } from './replies';
import { sameSecret } from './tokens';

/**
 * The web shell's loopback host: serves the built renderer, `/ipc/<channel>` (the same router as Electron's
 * ipcMain), `/media/<id>` and `/download/<id>`. Every request must name this host exactly (`Host`), and carry
 * no foreign `Origin` (no DNS rebinding, no cross-site calls). IPC needs the per-launch key in a header; media and
 * downloads a short-lived signature made with it. The page itself (HTML, JS, CSS) holds no secret and is served on
 * the Host/Origin check alone, since a browser cannot add headers to a navigation. Everything else: 403.
 */
const MAX_IPC_BODY_BYTES = 64 * 1024 * 1024;
/**
 * Longest time a request other than `PUT /staging` may take to arrive whole (Node's own default). Staging has no such
 * total cut, since a 4 GB file from a slow disk takes longer; it is dropped when it stalls instead (web-staging.ts).
 */
const REQUEST_TIMEOUT_MS = 300_000;
/** Longest time a request's headers may take to arrive (Node's own default). */
const HEADERS_TIMEOUT_MS = 60_000;
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
  /** Longest time a request body other than staging's may take to arrive; default 5 minutes. */
  requestTimeoutMs?: number;
  /** Longest time a request's headers may take to arrive; default 60 s. */
  headersTimeoutMs?: number;
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
   * An address that opens the app once, for the system browser: it carries a one-time code, which `/open` exchanges
   * for the key. It goes in a private file, not on a command line (`openerFile`).
   */
  oneTimeOpenUrl(): string;
  close(): Promise<void>;
}

export async function startHost(opts: HostOptions): Promise<Host> {
  const now = opts.now ?? Date.now;
  const maxIpcBodyBytes = opts.maxIpcBodyBytes ?? MAX_IPC_BODY_BYTES;
  let origin = '';
  let hostHeader = '';
  /** One-time open codes and when each expires. */
  const openCodes = new Map<string, number>();
  const ipc = ipcRoutes({ router: opts.router, key: opts.key, maxBodyBytes: maxIpcBodyBytes, origin: () => origin });
  const files = fileRoutes({ ...opts, now });

  const requestTimeoutMs = opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const headersTimeoutMs = opts.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  // Node's requestTimeout would cut every request, a long staging upload too, at a fixed total time: set per route.
  // Its headers timeout defaults to the smaller of the two, so with none it was none: a connection that sent nothing,
  // or its headers a byte at a time, stayed open for good, and a few hundred of them took every file main may open
  // (red team 10). Set on its own, checked often enough to honour it.
  const server = createServer(
    {
      requestTimeout: 0,
      headersTimeout: headersTimeoutMs,
      connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.floor(headersTimeoutMs / 4))),
    },
    (req, res) => {
      handle(req, res).catch((error) => {
        opts.onError?.(error);
        if (!res.headersSent) sendText(res, 500, 'Internal error');
        else res.destroy();
      });
    },
  );

  async function handle(req: IncomingMessage, res: ServerResponse) {
    securityHeaders(res);
    const url = parseRequestUrl(req.url, origin);
    if (!url) return sendText(res, 400, 'Bad path');
    const isIpc = url.pathname === IPC_BATCH_ROUTE || url.pathname.startsWith('/ipc/');
    if (!isOwnRequest(req, url.pathname === '/open')) return refused(req, res, isIpc);
    if (url.pathname !== '/staging') limitRequestTime(req, res, requestTimeoutMs);

    if (url.pathname === IPC_BATCH_ROUTE) return ipc.batch(req, res);
    if (isIpc) return ipc.single(req, res, url.pathname.slice('/ipc/'.length));
    if (url.pathname === '/staging' && opts.staging) {
      const key = req.headers[SHELL_KEY_HEADER];
      if (req.headers.origin !== origin || !sameSecret(typeof key === 'string' ? key : undefined, opts.key))
        return refused(req, res, true);
      return opts.staging(req, res);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'Method not allowed');
    // A one-time link is used by the GET that fetches it: a HEAD (a link checker, a preview) must not use it up.
    if (req.method === 'HEAD' && (url.pathname === '/open' || url.pathname.startsWith('/download/'))) {
      res.setHeader('allow', 'GET');
      return sendText(res, 405, 'Method not allowed');
    }
    if (url.pathname === '/open') return handleOpen(res, url.searchParams.get('code'));
    if (url.pathname.startsWith('/media/')) return files.media(req, res, url);
    if (url.pathname.startsWith('/download/')) return files.download(res, url);
    return files.static(req, res, url.pathname);
  }

  /**
   * Host must be exactly ours; Origin, when sent, too; a browser saying the request is cross-site is refused, but for
   * the browser opening `/open` as a page from the private file the shell starts it with (`openerFile`, a file: URL).
   */
  function isOwnRequest(req: IncomingMessage, openerNavigation: boolean): boolean {
    if (req.headers.host !== hostHeader) return false;
    const requestOrigin = req.headers.origin;
    if (requestOrigin !== undefined && requestOrigin !== origin) return false;
    const site = req.headers['sec-fetch-site'];
    const topLevelPage = req.headers['sec-fetch-mode'] === 'navigate' && req.headers['sec-fetch-dest'] === 'document';
    if (site !== undefined && site !== 'same-origin' && site !== 'none' && !(openerNavigation && topLevelPage))
      return false;
    return true;
  }

  /** The key goes to the browser in the app address's fragment, never on a command line; each code works once. */
  function handleOpen(res: ServerResponse, code: string | null) {
    const expiresAt = code === null ? undefined : openCodes.get(code);
    if (code !== null) openCodes.delete(code);
    if (expiresAt === undefined || expiresAt < now()) {
      return sendText(
        res,
        410,
        'This link was already used or has expired. Open the address printed in the terminal ("Omni Reviewer ready at ...").\nEste enlace ya se usó o venció. Abre la dirección que se muestra en la terminal ("Omni Reviewer ready at ...").',
      );
    }
    // A page of this origin moves on to the app, not a redirect: after the opener file's cross-site step, a redirect's
    // next request would be cross-site too, and refused.
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(
      `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/#k=${opts.key}"><title>Omni Reviewer</title>`,
    );
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

/** As Node's `requestTimeout` does: a request whose body has not all arrived in time gets 408 and its socket closed. */
/** A refusal that also ends the connection: its body, if any, is not read (a trickled upload had kept it open). */
function refused(req: IncomingMessage, res: ServerResponse, json: boolean) {
  res.setHeader('connection', 'close');
  res.once('finish', () => req.socket.destroy());
  return forbidden(res, json);
}

function limitRequestTime(req: IncomingMessage, res: ServerResponse, ms: number): void {
  if (req.complete) return;
  const timer = setTimeout(() => {
    if (req.complete) return;
    if (res.headersSent) return void req.socket.destroy();
    res.setHeader('connection', 'close');
    res.once('finish', () => req.socket.destroy());
    sendText(res, 408, 'Request timeout');
  }, ms);
  const clear = () => clearTimeout(timer);
  req.once('end', clear);
  res.once('close', clear);
}
