import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serviceDestination } from '../../../main/auth/destination';
import { MemoryVault } from '../../../main/auth/memory-vault';
import { startDemoServer, type DemoServer } from '../../../main/demo-server';
import { curpCases } from '../../../main/demo-server/registries';
import { createLogger } from '../../../main/log';
import { explainCurp } from '../../../main/omni/catalog';
import { OmniClient, type ClientEnvironment } from '../../../main/omni/client';
import { OmniError } from '../../../main/omni/omni-error';
import { noisyPngBase64 } from '../../helpers/images';

/** The client against the embedded demo server: the real service stand-in, on a random loopback port. */
let server: DemoServer;
let vault: MemoryVault;
let env: ClientEnvironment;
let interviews: { interviewId: string; sessionToken: string; sessionStatus: string }[];
let authorizations = 0;

const countingFetch: typeof fetch = (input, init) => {
  if (String(input).endsWith('/v1/integration/authorize/server')) authorizations++;
  return fetch(input, init);
};
const quiet = createLogger({ sink: () => undefined });
const client = (extra: Partial<ConstructorParameters<typeof OmniClient>[0]> = {}) =>
  new OmniClient({
    env,
    vault,
    fetch: countingFetch,
    logger: quiet,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ...extra,
  });
const demo = async (path: string, body: unknown) => {
  const res = await fetch(`${server.url}/__demo/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`demo ${path}: ${await res.text()}`);
};

async function failure(p: Promise<unknown>): Promise<OmniError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(OmniError);
    return e as OmniError;
  }
  throw new Error('expected the call to fail');
}

beforeAll(async () => {
  server = await startDemoServer();
  const creds = (await (await fetch(`${server.url}/__demo/credentials`)).json()) as {
    apiKey: string;
    integrationId: string;
    secret: string;
  };
  interviews = await (await fetch(`${server.url}/__demo/interviews`)).json();
  vault = new MemoryVault();
  env = {
    id: 'demo',
    baseUrl: server.url,
    authUrl: server.url,
    apiVersion: '1.0',
    tokenHeader: 'X-Incode-Hardware-Id',
  };
  await vault.setCredential(serviceDestination(env), 'apiKey', creds.apiKey);
  await vault.setCredential(serviceDestination(env), 'integrationId', creds.integrationId);
  await vault.setCredential(serviceDestination(env), 'secret', creds.secret);
  for (const i of interviews) await vault.setSessionToken(serviceDestination(env), i.interviewId, i.sessionToken);
});
afterAll(() => server.close());
beforeEach(async () => {
  await server.reset();
  authorizations = 0;
});

describe('OmniClient against the demo server', () => {
  it('reaches organization, fetch and session endpoints through the one call()', async () => {
    const c = client();
    const keys = await c.call('listApiKeys', {});
    expect(keys.length).toBeGreaterThan(0);
    expect(JSON.stringify(keys)).not.toMatch(/demo-fin-admin-4c1f9b2e7d/);
    expect(await c.call('validateRfc', { body: { rfc: 'GODE561231GR8' } })).toMatchObject({ validRFC: true });
    expect((await c.call('signStringNom151', { body: { stringToSign: 'hola' } })).reference).toBeTruthy();

    const raw = await c.call('getRawIdvResults', { query: { id: 'demo-fraud-high' } });
    expect(raw.fraudRisk?.severity).toBe('HIGH');
    expect(await c.call('getRawIdvResults', {}, { interviewId: 'demo-empty-idv' })).toMatchObject({
      checkResults: [],
      fraudRisk: null,
    });
    expect(await c.call('getCrossDocResults', { query: { id: 'demo-clean-pass' } })).toBeTypeOf('object');
    expect((await c.call('getContractLinks', { query: { id: 'demo-contracts-many' } })).success).toBe(true);
    expect((await c.call('getVideoSelfieUrl', { query: { interviewId: 'demo-clean-pass' } })).url).toMatch(
      /^http:\/\/127\.0\.0\.1/,
    );

    expect(
      await c.call('addName', { body: { name: 'Ana López García' } }, { interviewId: 'demo-clean-pass' }),
    ).toMatchObject({ success: true, sessionStatus: 'Alive' });
    expect(
      (
        await c.call(
          'addConferenceNotes',
          { body: { notes: 'Identidad confirmada.' } },
          { interviewId: 'demo-clean-pass' },
        )
      ).success,
    ).toBe(true);
    expect(authorizations).toBe(1);
  });

  it('explains face statuses from the error body', async () => {
    const err = await failure(
      client().call('addFace', { body: { base64Image: noisyPngBase64() } }, { interviewId: 'demo-face-multiple' }),
    );
    expect(err).toMatchObject({ kind: 'http', httpStatus: 400, serviceStatus: 4010 });
    expect(err.toIpcError().message.es).toBe('Se detectó más de una cara en la selfie.');
  });

  it('explains every CURP answer of the demo registry with the catalog', async () => {
    const c = client();
    for (const { curp, outcome } of curpCases) {
      const res = await c.call('addCurp', { body: { curp } }, { interviewId: 'demo-clean-pass' });
      const e = explainCurp(res);
      if (outcome.kind === 'valid') {
        expect(res.success, curp).toBe(true);
        expect(e).toBeUndefined();
      } else if (outcome.kind === 'provider') {
        expect(e?.code.slice(0, 2), curp).toBe(outcome.codigoRespuesta);
      } else if (outcome.kind === 'registry') {
        expect(e?.code, curp).toBe(`${outcome.tipoError}-${outcome.codigoError}`);
        expect(e?.group, curp).toBe(outcome.group);
      } else {
        expect(e?.code, curp).toBe('CURP_SERVICE_UNAVAILABLE');
      }
    }
  });

  it('a write to a closed interview is refused and explained; no session token is a config error', async () => {
    const closed = await failure(client().call('addName', { body: { name: 'X Y' } }, { interviewId: 'demo-closed' }));
    expect(closed).toMatchObject({ kind: 'http', httpStatus: 400 });
    expect(closed.body?.message).toMatch(/Closed/);
    const none = await failure(client().call('addName', { body: { name: 'X Y' } }, { interviewId: 'not-attached' }));
    expect(none.code).toBe('NO_SESSION_TOKEN');
  });

  it('a 401 blames the session token, or the API key when the service says so', async () => {
    await vault.setSessionToken(serviceDestination(env), 'forged', 'eyJhbGciOiJIUzI1NiJ9.eyJmb3JnZWQiOnRydWV9.AAAA');
    const forged = await failure(client().call('addName', { body: { name: 'X Y' } }, { interviewId: 'forged' }));
    expect(forged.code).toBe('SESSION_TOKEN_REJECTED');
    expect(forged.toIpcError().advice?.es).toMatch(/nuevo token de sesión/);

    const good = await vault.getCredential(serviceDestination(env), 'apiKey');
    await vault.setCredential(serviceDestination(env), 'apiKey', 'demo-not-a-key-000');
    try {
      const wrongKey = await failure(
        client().call('addName', { body: { name: 'X Y' } }, { interviewId: 'demo-clean-pass' }),
      );
      expect(wrongKey).toMatchObject({ code: 'OMNI_HTTP', httpStatus: 401 });
      expect(wrongKey.toIpcError().advice?.en).toMatch(/API key/);
    } finally {
      await vault.setCredential(serviceDestination(env), 'apiKey', good!);
    }
  });

  it('when the service expires the server token early, a 401 re-authorizes once and repeats once', async () => {
    const c = client();
    await c.call('listApiKeys', {});
    await demo('clock', { advanceMs: 16 * 60_000 }); // only the server's clock: the client still trusts its token
    expect((await c.call('listApiKeys', {})).length).toBeGreaterThan(0);
    expect(authorizations).toBe(2);
  });

  it('crosses the 15-minute line on its own clock without a failed call', async () => {
    let now = Date.now();
    const c = client({ now: () => now });
    await c.call('listApiKeys', {});
    now += 16 * 60_000;
    await demo('clock', { advanceMs: 16 * 60_000 });
    await c.call('listApiKeys', {});
    expect(authorizations).toBe(2);
  });

  it('retries GETs through injected 502s and resets; never retries a POST', async () => {
    await demo('faults', { route: 'getRawIdvResults', kind: 'status', status: 502, times: 2 });
    expect((await client().call('getRawIdvResults', { query: { id: 'demo-clean-pass' } })).checkResults).toBeDefined();

    await demo('faults', { route: 'getCrossDocResults', kind: 'reset', times: 1 });
    expect(await client().call('getCrossDocResults', { query: { id: 'demo-clean-pass' } })).toBeTypeOf('object');

    await demo('faults', { route: 'validateRfc', kind: 'status', status: 502, times: 1 });
    const post = await failure(client().call('validateRfc', { body: { rfc: 'GODE561231GR8' } }));
    expect(post.httpStatus).toBe(502);
    expect(await client().call('validateRfc', { body: { rfc: 'GODE561231GR8' } })).toMatchObject({ validRFC: true });
  });

  it('a malformed answer is a schema error naming the endpoint; a slow one times out', async () => {
    await demo('faults', { route: 'getContractLinks', kind: 'malformed', times: 1 });
    const bad = await failure(client().call('getContractLinks', { query: { id: 'demo-clean-pass' } }));
    expect(bad).toMatchObject({ kind: 'schema', endpoint: 'getContractLinks' });

    await demo('faults', { route: 'listApiKeys', kind: 'delay', delayMs: 1500, times: 1 });
    const slow = await failure(client().call('listApiKeys', {}, { timeoutMs: 300 }));
    expect(slow.kind).toBe('timeout');
  });

  it('streams a large video import as a raw JSON body', async () => {
    const video = Buffer.alloc(3 * 1024 * 1024, 7);
    video.writeUInt32BE(0x1a45dfa3, 0); // WebM magic
    const b64 = video.toString('base64');
    const head = Buffer.from('{"type":"selfie","video":"');
    const tail = Buffer.from('"}');
    async function* chunks() {
      yield head;
      for (let i = 0; i < b64.length; i += 256 * 1024) yield Buffer.from(b64.slice(i, i + 256 * 1024));
      yield tail;
    }
    const contentLength = head.length + b64.length + tail.length;
    const out = await client().call(
      'importVideo',
      { body: { video: 'streamed' } },
      { interviewId: 'demo-clean-pass', rawBody: { stream: chunks(), contentLength } },
    );
    expect(out.recordingId).toMatch(/^rec-/);
  });

  it('1,000 concurrent calls with no token cause exactly one authorization', async () => {
    const c = client();
    await Promise.all(Array.from({ length: 1000 }, () => c.call('listApiKeys', {})));
    expect(authorizations).toBe(1);
  });
});
