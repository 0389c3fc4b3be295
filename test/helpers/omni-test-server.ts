import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

function encode(body: Buffer, encoding: Reply['encoding']): Buffer {
  if (encoding === 'gzip') return zlib.gzipSync(body);
  if (encoding === 'deflate') return zlib.deflateSync(body);
  if (encoding === 'br') return zlib.brotliCompressSync(body);
  return body;
}

/** A request as the test server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: unknown;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  /** Raw body text (for malformed answers); wins over `json`. */
  text?: string;
  /** Destroy the socket without answering (a connection reset). */
  reset?: boolean;
  /** Compress the body and say so in Content-Encoding, as a production gateway does. */
  encoding?: 'gzip' | 'deflate' | 'br';
  /** Send only the first bytes of the body, announcing its whole length, then close: a cut-off answer. */
  cutAfterBytes?: number;
  delayMs?: number;
}

export type Handler = (req: SeenRequest) => Reply | Promise<Reply>;

export interface TestServer {
  /** `http://127.0.0.1:<port>` serving both base and auth paths. */
  url: string;
  requests: SeenRequest[];
  /** Replace the handler of `"<METHOD> <path>"`. */
  route(key: string, handler: Handler): void;
  close(): Promise<void>;
}

/** An unsigned JWT with the given claims; enough for the client, which only reads `exp`/`iat`. */
export function makeJwt(claims: Record<string, unknown>): string {
  const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${enc({ alg: 'none', typ: 'JWT' })}.${enc(claims)}.`;
}

export const errorBody = (status: number, error: string, path: string, message?: string) => ({
  timestamp: 1_700_000_000_000,
  status,
  error,
  path,
  ...(message === undefined ? {} : { message }),
});

/**
 * A small stand-in for the Omni service on 127.0.0.1, port 0. Unrouted paths answer 404 with the error body.
 * The authorization route answers a fresh 15-minute JWT per call.
 */
export async function startTestServer(routes: Record<string, Handler> = {}): Promise<TestServer> {
  const table = new Map<string, Handler>(Object.entries(routes));
  let issued = 0;
  if (!table.has('POST /v1/integration/authorize/server')) {
    table.set('POST /v1/integration/authorize/server', () => {
      issued++;
      const iat = Math.floor(Date.now() / 1000);
      return { json: { token: makeJwt({ sub: 'integration', iat, exp: iat + 900, n: issued }) } };
    });
  }
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://x');
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const seen: SeenRequest = {
        method: req.method ?? 'GET',
        path: u.pathname,
        query: u.searchParams,
        headers: req.headers,
        body,
        json,
      };
      requests.push(seen);
      const handler = table.get(`${seen.method} ${seen.path}`);
      Promise.resolve(handler ? handler(seen) : { status: 404, json: errorBody(404, 'Not Found', seen.path) })
        .then(async (reply) => {
          if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
          if (reply.reset) {
            req.socket.destroy();
            return;
          }
          const text = reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
          const body = encode(Buffer.from(text), reply.encoding);
          res.writeHead(reply.status ?? 200, {
            'content-type': 'application/json',
            'content-length': String(body.byteLength),
            ...(reply.encoding ? { 'content-encoding': reply.encoding } : {}),
            ...reply.headers,
          });
          if (reply.cutAfterBytes === undefined) res.end(body);
          else res.write(body.subarray(0, reply.cutAfterBytes), () => req.socket.destroy());
        })
        .catch((e: unknown) => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify(errorBody(500, 'Internal Server Error', seen.path, String(e))));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    route: (key, handler) => table.set(key, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
