import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { endpoints } from '../omni/endpoints';
import type { DemoDeps } from './context';
import { badRequest, unauthorized } from './errors';
import { DemoProfile } from './production-profile';
import { apiKeys, organizations } from './seed';

const ClockBody = z.object({
  advanceMs: z
    .number()
    .int()
    .nonnegative()
    .max(10 * 365 * 86_400_000),
});
const FaultBody = z.object({
  route: z.string().min(1),
  kind: z.enum(['status', 'delay', 'reset', 'malformed', 'html', 'json']),
  status: z.number().int().min(200).max(599).optional(),
  retryAfterS: z.number().int().min(0).max(86_400).optional(),
  body: z.unknown().optional(),
  delayMs: z.number().int().min(0).max(120_000).optional(),
  times: z.number().int().min(1).max(10_000).default(1),
  after: z.boolean().optional(),
});

function parseDemoBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) {
    throw badRequest(
      `Invalid /__demo/ request: ${result.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`,
    );
  }
  return result.data;
}

/** Resolves a fault target given as a path (`/omni/add/name`) or an endpoint name (`addName`). */
function resolveRoute(route: string): string {
  const path = route.split('?')[0]!;
  const byName = (endpoints as Record<string, { path: string }>)[route]?.path;
  if (byName) return byName;
  if (Object.values(endpoints).some((e) => e.path === path) || path.startsWith('/files/')) return path;
  throw badRequest(
    `Unknown route ${route}. Use an endpoint path such as /omni/add/name or an endpoint name such as addName.`,
  );
}

function credentialsOf(orgId: string) {
  const org = organizations.find((o) => o.id === orgId)!;
  const key = apiKeys.find((k) => k.org === orgId && k.enabled)!;
  return {
    organizationId: org.id,
    organizationName: org.name,
    apiKey: key.value,
    integrationId: org.integrationId,
    secret: org.secret,
    superAdmin: key.superAdmin,
    faceAuthMode: org.faceAuthMode,
  };
}

/** The organization `/__demo/interviews` is narrowed to, if any; a key and a different organization id conflict. */
function listedOrganization(
  keyHeader: string | string[] | undefined,
  organizationId: string | undefined,
): string | undefined {
  const keyValue = (Array.isArray(keyHeader) ? keyHeader[0] : keyHeader)?.trim();
  if (!keyValue) return organizationId || undefined;
  const key = apiKeys.find((k) => k.value === keyValue);
  if (!key)
    throw unauthorized(
      'The x-api-key is not known to this server. Send a demo key (see /__demo/credentials) or no key to list every organization.',
      { header: 'x-api-key' },
    );
  if (!key.enabled)
    throw unauthorized(`API key "${key.name}" is disabled. Use an enabled key of your organization.`, {
      header: 'x-api-key',
    });
  if (organizationId && organizationId !== key.org) {
    throw badRequest(
      `organizationId ${organizationId} is not the organization of the x-api-key (${key.org}). Drop one of the two.`,
    );
  }
  return key.org;
}

/** Demo-only controls (decisions.md §12). Never under /omni or /api. */
export function registerDemoRoutes(app: FastifyInstance, deps: DemoDeps): void {
  app.get('/__demo/credentials', async () => {
    const [primary, ...others] = organizations.map((o) => credentialsOf(o.id));
    return {
      apiKey: primary!.apiKey,
      integrationId: primary!.integrationId,
      secret: primary!.secret,
      organizationId: primary!.organizationId,
      organizations: [primary, ...others],
    };
  });

  // An `x-api-key` narrows the list to its organization (the app offers only interviews its key can open);
  // `?organizationId=` narrows it without a key; neither lists every organization.
  app.get<{ Querystring: { organizationId?: string } }>('/__demo/interviews', async (request) => {
    const org = listedOrganization(request.headers['x-api-key'], request.query.organizationId);
    return Promise.all(
      [...deps.state.interviews.values()]
        .filter((i) => !org || i.org === org)
        .map(async (i) => ({
          interviewId: i.id,
          sessionToken: await deps.tokens.issueSessionToken(i.org, i.id),
          sessionStatus: i.status,
          label: i.label,
          labelEs: i.labelEs,
          organizationId: i.org,
          fullName: i.fullName,
        })),
    );
  });

  app.get<{ Params: { id: string } }>('/__demo/interviews/:id', async (request) => {
    const interview = deps.state.interviews.get(request.params.id);
    if (!interview) throw badRequest(`Unknown interview id ${request.params.id}.`);
    return {
      interviewId: interview.id,
      label: interview.label,
      labelEs: interview.labelEs,
      sessionStatus: interview.status,
      name: interview.name ?? null,
      curp: interview.curp ?? null,
      notes: interview.notes,
      captureAttemptsLimit: interview.attempts,
      backIdUploads: interview.backIdUploads,
      selfieUploaded: interview.selfieUploaded,
    };
  });

  app.get<{ Params: { id: string } }>('/__demo/interviews/:id/recordings', async (request) => {
    const interview = deps.state.interviews.get(request.params.id);
    if (!interview) throw badRequest(`Unknown interview id ${request.params.id}.`);
    return interview.recordings.map(({ file: _file, ...visible }) => visible);
  });

  app.post('/__demo/reset', async () => {
    await deps.state.reset();
    deps.clock.reset();
    return { ok: true, now: deps.clock.now() };
  });

  app.post('/__demo/clock', async (request) => {
    const { advanceMs } = parseDemoBody(ClockBody, request.body);
    return { ok: true, now: deps.clock.advance(advanceMs) };
  });

  app.post('/__demo/faults', async (request) => {
    const body = parseDemoBody(FaultBody, request.body);
    const route = resolveRoute(body.route);
    const queue = deps.state.faults.get(route) ?? [];
    queue.push({
      kind: body.kind,
      status: body.status,
      delayMs: body.delayMs,
      retryAfterS: body.retryAfterS,
      body: body.body,
      ...(body.after ? { after: true } : {}),
      remaining: body.times,
    });
    deps.state.faults.set(route, queue);
    return { ok: true, route, pending: queue.reduce((n, f) => n + f.remaining, 0) };
  });

  app.get('/__demo/profile', async () => ({ profile: deps.state.profile }));
  app.post('/__demo/profile', async (request) => {
    deps.state.profile = parseDemoBody(z.object({ profile: DemoProfile }), request.body).profile;
    return { profile: deps.state.profile };
  });

  app.get('/__demo/nom151-root.pem', async (_request, reply) => {
    const tsa = await deps.tsa();
    return reply.header('content-type', 'application/x-pem-file').send(tsa.rootPem);
  });
}
