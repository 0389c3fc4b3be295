import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { endpoints, type EndpointDef, type EndpointName } from '../omni/endpoints';
import type { CallContext, DemoDeps } from './context';
import { registerDemoRoutes } from './demo-routes';
import { DemoHttpError, badRequest, errorBody, unauthorized } from './errors';
import { handlers } from './handlers';
import { gatewayPage, gzipBody, LOGIN_PAGE, productionAnswer } from './production-profile';
import { registerMediaRoutes } from './media';
import { apiKeys, organizations } from './seed';
import type { TokenClaims } from './tokens';
import type { Fault } from './state';

export const TOKEN_HEADER = 'x-incode-hardware-id';

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? request.url;
}

const GATEWAY_STATUSES = new Set([502, 503, 504]);

function sendError(reply: FastifyReply, request: FastifyRequest, deps: DemoDeps, err: DemoHttpError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  const production = deps.state.profile === 'production-like';
  // In production a gateway answers for a service that is down or slow, with its own web page.
  if (production && GATEWAY_STATUSES.has(err.httpStatus))
    return reply
      .code(err.httpStatus)
      .header('content-type', 'text/html; charset=utf-8')
      .send(gatewayPage(err.httpStatus));
  const body = errorBody(err.httpStatus, err.status, err.message, pathOf(request), deps.clock.now(), err.details);
  // Spring Boot writes the error time as ISO text.
  return reply
    .code(err.httpStatus)
    .send(production ? { ...body, timestamp: new Date(deps.clock.now()).toISOString() } : body);
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: 'query' | 'body'): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ path: i.path.join('.') || where, message: i.message }));
  const summary = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  throw badRequest(`The request ${where} is invalid: ${summary}. Fix these fields and send again.`, {
    [where]: issues,
  });
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first?.trim() ? first.trim() : undefined;
}

/** Checks the spec's common headers and the token an endpoint needs, then resolves the interview it refers to. */
async function authenticate(request: FastifyRequest, def: EndpointDef, deps: DemoDeps) {
  if (!header(request, 'api-version')) {
    throw badRequest('Header api-version is required on every call (for example api-version: 1.0).', {
      header: 'api-version',
    });
  }
  const keyValue = header(request, 'x-api-key');
  if (!keyValue)
    throw unauthorized('Header x-api-key is missing. Send your organization API key.', { header: 'x-api-key' });
  const apiKey = apiKeys.find((k) => k.value === keyValue);
  if (!apiKey)
    throw unauthorized(
      'The x-api-key is not known to this server. Check that the key was copied whole and belongs to this environment.',
      { header: 'x-api-key' },
    );
  if (!apiKey.enabled)
    throw unauthorized(`API key "${apiKey.name}" is disabled. Use an enabled key of your organization.`, {
      header: 'x-api-key',
    });
  const org = organizations.find((o) => o.id === apiKey.org)!;
  if (def.token === 'none') return { org, apiKey, claims: null, interview: null };

  const rawToken = header(request, TOKEN_HEADER);
  const interviewIdParam = def.idParam ? (request.query as Record<string, unknown>)[def.idParam] : undefined;
  const explicitId = typeof interviewIdParam === 'string' && interviewIdParam.length > 0 ? interviewIdParam : undefined;
  const needs = def.token === 'fetch' ? (explicitId ? 'server' : 'session') : def.token;
  if (!rawToken) {
    throw unauthorized(
      needs === 'server'
        ? 'Header X-Incode-Hardware-Id is missing. Get a server token from POST /v1/integration/authorize/server and send it in that header.'
        : "Header X-Incode-Hardware-Id is missing. This call needs the interview's session token in that header.",
      { header: 'X-Incode-Hardware-Id' },
    );
  }
  const claims: TokenClaims = await deps.tokens.verify(rawToken);
  if (claims.org !== org.id)
    throw unauthorized(
      'The token was issued to another organization than this API key. Use the token and key of the same organization.',
    );

  let interviewId: string | undefined;
  if (claims.kind === 'session') {
    if (needs === 'server' && !(explicitId && explicitId === claims.interviewId)) {
      throw unauthorized(
        explicitId
          ? `This session token belongs to interview ${claims.interviewId}, not ${explicitId}. Use a server token to read other interviews.`
          : 'This call needs a server token, not a session token.',
      );
    }
    interviewId = claims.interviewId;
  } else {
    if (needs === 'session') {
      throw unauthorized(
        def.token === 'fetch'
          ? 'With a server token, pass the interview id in the query; without an id, send the interview session token.'
          : "This call writes to one interview and needs that interview's session token, not a server token.",
      );
    }
    interviewId = explicitId;
  }
  if (def.token === 'server') return { org, apiKey, claims, interview: null };
  const interview = interviewId ? deps.state.interviews.get(interviewId) : undefined;
  if (!interview || interview.org !== org.id)
    throw badRequest(`Unknown interview id ${interviewId}. Check the id; it must belong to your organization.`, {
      interviewId,
    });
  if (def.token === 'session' && interview.status !== 'Alive') {
    throw badRequest(`Interview ${interview.id} is ${interview.status}; it no longer accepts changes.`, {
      sessionStatus: interview.status,
    });
  }
  return { org, apiKey, claims, interview };
}

/** Builds the demo service: the 16 endpoints from the shared table, signed media, and the /__demo/ controls. */
function isLoopbackHostHeader(host: string | undefined): boolean {
  if (!host) return false;
  try {
    const { hostname } = new URL(`http://${host}`);
    return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
  } catch {
    return false;
  }
}

/** A request a page sent from another origin: `Sec-Fetch-Site` says so, or an `Origin` that is not this server's. */
function isForeignPageRequest(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
  const origin = request.headers.origin;
  return origin !== undefined && origin.toLowerCase() !== `http://${request.headers.host ?? ''}`.toLowerCase();
}

export function buildDemoApp(
  deps: DemoDeps,
  maxBodyBytes: number,
  opts: { loopbackHostOnly?: boolean } = {},
): FastifyInstance {
  // forceCloseConnections: close() ends every connection at once. By default it waits for the ones mid-request, and a
  // socket a client opened but never used counts as one until Node's 60 s header timeout, so quitting hung that long.
  const faultsAfter = new WeakMap<object, Fault>();
  const app = Fastify({ logger: false, bodyLimit: maxBodyBytes, exposeHeadRoutes: true, forceCloseConnections: true });
  // The interface is JSON only (spec: common rule 3); anything else is a 415, not a string body.
  app.removeContentTypeParser('text/plain');

  if (opts.loopbackHostOnly) {
    // DNS rebinding: a page on evil.example re-pointed at 127.0.0.1 is same-origin with this server, but its requests
    // still name evil.example in Host. Only loopback names reach the routes (and /__demo/credentials).
    app.addHook('onRequest', async (request, reply) => {
      if (isLoopbackHostHeader(request.headers.host)) return;
      return sendError(
        reply,
        request,
        deps,
        new DemoHttpError(
          403,
          'This demo server answers only requests addressed to a loopback name (127.0.0.1, localhost, [::1]) in Host.',
        ),
      );
    });
  }

  // Another site's page (a scanned loopback port) reaches this server too: a no-cors POST to /__demo/reset needs no
  // body and wiped the demo. main's fetch sends no Origin and no Sec-Fetch-Site, and a browser opening an address
  // by hand sends "none", so a browser's request made by another page is refused on every route.
  app.addHook('onRequest', async (request, reply) => {
    if (!isForeignPageRequest(request)) return;
    return sendError(
      reply,
      request,
      deps,
      new DemoHttpError(403, 'This demo server answers no request made by another site’s page.'),
    );
  });

  app.addHook('onRequest', async (request, reply) => {
    const path = pathOf(request);
    if (path.startsWith('/__demo/')) return;
    const fault = deps.state.takeFault(path);
    if (!fault) return;
    if (fault.after && (fault.kind === 'html' || fault.kind === 'reset')) {
      faultsAfter.set(request, fault);
      return;
    }
    switch (fault.kind) {
      case 'delay':
        await new Promise((resolve) => setTimeout(resolve, fault.delayMs ?? 1000));
        return;
      case 'reset':
        reply.hijack();
        request.raw.socket.destroy();
        return reply;
      case 'malformed':
        reply.code(200).header('content-type', 'application/json; charset=utf-8').send('{"success": tru');
        return reply;
      case 'json':
        reply
          .code(fault.status ?? 200)
          .header('content-type', 'application/json; charset=utf-8')
          .send(JSON.stringify(fault.body ?? null));
        return reply;
      case 'html':
        reply
          .code(fault.status ?? 200)
          .header('content-type', 'text/html; charset=utf-8')
          .headers(fault.retryAfterS !== undefined ? { 'retry-after': String(fault.retryAfterS) } : {})
          .send(fault.status && fault.status >= 500 ? gatewayPage(fault.status) : LOGIN_PAGE);
        return reply;
      case 'status': {
        const status = fault.status ?? 500;
        const headers: Record<string, string> =
          status === 429 || status === 503 ? { 'retry-after': String(fault.retryAfterS ?? 2) } : {};
        return sendError(
          reply,
          request,
          deps,
          new DemoHttpError(
            status,
            `Injected fault: this call was set to fail with ${status} through /__demo/faults. Retry, or reset the demo server.`,
            { injected: true },
            status,
            headers,
          ),
        );
      }
    }
  });

  // A fault `after` the call: it was applied, and then its answer is lost (a gateway's page, a cut connection).
  app.addHook('onSend', async (request, reply, payload) => {
    const fault = faultsAfter.get(request);
    if (!fault) return payload;
    faultsAfter.delete(request);
    if (fault.kind === 'reset') {
      request.raw.socket.destroy();
      return payload;
    }
    const status = fault.status ?? 502;
    reply.code(status).header('content-type', 'text/html; charset=utf-8').removeHeader('content-length');
    return gatewayPage(status);
  });

  // Production profile: every answer the client accepts gzip for goes gzipped (ranges of media excepted).
  app.addHook('onSend', async (request, reply, payload) => {
    if (deps.state.profile !== 'production-like' || request.headers.range || pathOf(request).startsWith('/__demo/'))
      return payload;
    const gzipped = gzipBody(payload, request.headers['accept-encoding']);
    if (!gzipped) return payload;
    reply.header('content-encoding', 'gzip').header('vary', 'accept-encoding').removeHeader('content-length');
    return gzipped;
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof DemoHttpError) return sendError(reply, request, deps, error);
    const err = error as { code?: string; statusCode?: number; message?: string };
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendError(
        reply,
        request,
        deps,
        new DemoHttpError(
          413,
          `The body is larger than this server's limit of ${maxBodyBytes} bytes. Send a shorter recording or raise maxBodyBytes.`,
          { limitBytes: maxBodyBytes },
        ),
      );
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return sendError(
        reply,
        request,
        deps,
        new DemoHttpError(415, 'Bodies must be application/json. Set Content-Type: application/json.'),
      );
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return sendError(
        reply,
        request,
        deps,
        new DemoHttpError(400, `The request could not be read: ${err.message ?? 'bad request'}. Send a JSON body.`),
      );
    }
    // Unexpected: say where on stderr (no bodies or headers, which may carry keys), answer a clean 500.
    console.error(
      `[demo-server] ${request.method} ${pathOf(request)} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return sendError(
      reply,
      request,
      deps,
      new DemoHttpError(
        500,
        'The demo server failed while handling this call. Retry; if it keeps failing, reset the demo server.',
      ),
    );
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      request,
      deps,
      new DemoHttpError(
        404,
        `No route ${request.method} ${pathOf(request)} on this server. Check the path against the interface (paths start with /omni/, /api/ or /v1/).`,
      ),
    ),
  );

  for (const [name, def] of Object.entries(endpoints) as Array<[EndpointName, EndpointDef]>) {
    app.route({
      method: def.method,
      url: def.path,
      handler: async (request) => {
        const auth = await authenticate(request, def, deps);
        const query = parseWith(def.query, request.query ?? {}, 'query');
        const body = parseWith(def.body, def.method === 'GET' ? undefined : request.body, 'body');
        const handler = handlers[name] as (ctx: CallContext<EndpointName>) => Promise<unknown>;
        // An honest service keeps a write sent again with the same Idempotency-Key once, and answers it again.
        const key = def.method === 'GET' ? undefined : request.headers['idempotency-key'];
        const seen =
          typeof key === 'string' ? `${name}\u0000${auth.interview?.id ?? auth.org.id}\u0000${key}` : undefined;
        const answer =
          seen && deps.state.idempotent.has(seen)
            ? deps.state.idempotent.get(seen)
            : await handler({ ...auth, query, body, deps } as CallContext<EndpointName>);
        if (seen) deps.state.idempotent.set(seen, answer);
        return deps.state.profile === 'production-like' ? productionAnswer(name, answer) : answer;
      },
    });
  }

  registerMediaRoutes(app, deps);
  registerDemoRoutes(app, deps);
  return app;
}
