import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serviceDestination } from '../../../main/auth/destination';
import { MemoryVault } from '../../../main/auth/memory-vault';
import type { SecretStore } from '../../../main/auth/vault';
import { createLogger } from '../../../main/log';
import { MAX_ANSWER_BYTES, OmniClient, type ClientEnvironment } from '../../../main/omni/client';
import { OmniError } from '../../../main/omni/omni-error';
import { errorBody, startTestServer, type TestServer } from '../../helpers/omni-test-server';

let server: TestServer;
let vault: SecretStore;
let env: ClientEnvironment;

const API_KEY = 'api-key-7f3a9c1d';
const INTEGRATION = '0b8d4c7e-3f1a-4a57-9d1e-2c6b8f0e5a13';
const SECRET = 'integration-secret-55aa';
const SESSION = 'session-token-iv1-998877';

beforeEach(async () => {
  server = await startTestServer();
  vault = new MemoryVault();
  env = {
    id: 'test',
    baseUrl: server.url,
    authUrl: server.url + '/',
    apiVersion: '1.0',
    tokenHeader: 'X-Incode-Hardware-Id',
  };
  await vault.setCredential(serviceDestination(env), 'apiKey', API_KEY);
  await vault.setCredential(serviceDestination(env), 'integrationId', INTEGRATION);
  await vault.setCredential(serviceDestination(env), 'secret', SECRET);
  await vault.setSessionToken(serviceDestination(env), 'iv-1', SESSION);
});
afterEach(() => server.close());

const client = (extra: Partial<ConstructorParameters<typeof OmniClient>[0]> = {}) =>
  new OmniClient({
    env,
    vault,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    logger: createLogger({ sink: () => undefined }),
    ...extra,
  });

async function failure(p: Promise<unknown>): Promise<OmniError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(OmniError);
    return e as OmniError;
  }
  throw new Error('expected the call to fail');
}

const authCalls = () => server.requests.filter((r) => r.path === '/v1/integration/authorize/server');

/**
 * Protocol details over real loopback HTTP with a scripted server, for answers the demo server does not give
 * (exact headers seen, hostile or broken bodies, long Retry-After). Behaviour against the demo server itself is in
 * client-demo.test.ts.
 */
describe('OmniClient over loopback HTTP', () => {
  it('authorizes with both id spellings, then sends api-version, x-api-key and the token header', async () => {
    server.route('GET /omni/api-key', () => ({
      json: [{ id: 'k1', name: 'Main', maskedKey: '••••9c1d', futureField: { a: 1 } }],
    }));
    const keys = await client().call('listApiKeys', {});
    expect(keys).toEqual([{ id: 'k1', name: 'Main', maskedKey: '••••9c1d', futureField: { a: 1 } }]);

    const [auth, list] = server.requests;
    expect(auth!.json).toEqual({ integration_id: INTEGRATION, integrationId: INTEGRATION, secret: SECRET });
    expect(auth!.headers['x-api-key']).toBe(API_KEY);
    expect(auth!.headers['api-version']).toBe('1.0');
    expect(auth!.headers['content-type']).toBe('application/json');
    expect(auth!.headers['x-incode-hardware-id']).toBeUndefined();
    expect(list!.headers['api-version']).toBe('1.0');
    expect(list!.headers['x-api-key']).toBe(API_KEY);
    expect(list!.headers['x-incode-hardware-id']).toMatch(/^eyJ/);
  });

  it('uses the environment’s own api-version and token header name', async () => {
    env = { ...env, apiVersion: '1.1', tokenHeader: 'Authorization-Token' };
    server.route('POST /api/validate/rfc', () => ({ json: { validRFC: true, status: 'OK' } }));
    await client().call('validateRfc', { body: { rfc: 'GODE561231GR8' } });
    const req = server.requests.at(-1)!;
    expect(req.headers['api-version']).toBe('1.1');
    expect(req.headers['authorization-token']).toMatch(/^eyJ/);
    expect(req.json).toEqual({ rfc: 'GODE561231GR8' });
  });

  it('fetch endpoints: server token when the interview id is in the query, session token otherwise', async () => {
    server.route('GET /omni/get/raw-idv-results', () => ({ json: { checkResults: [], fraudRisk: null } }));
    const c = client();
    await c.call('getRawIdvResults', { query: { id: 'iv-42' } });
    const byId = server.requests.at(-1)!;
    expect(byId.query.get('id')).toBe('iv-42');
    expect(byId.headers['x-incode-hardware-id']).toMatch(/^eyJ/);

    await c.call('getRawIdvResults', {}, { interviewId: 'iv-1' });
    const bySession = server.requests.at(-1)!;
    expect(bySession.query.has('id')).toBe(false);
    expect(bySession.headers['x-incode-hardware-id']).toBe(SESSION);

    const err = await failure(c.call('getRawIdvResults', {}, { interviewId: 'iv-without-token' }));
    expect(err.kind).toBe('config');
    expect(err.code).toBe('NO_SESSION_TOKEN');
    expect(err.toIpcError().advice?.es).toMatch(/token de sesión/);
  });

  it('session writes carry the interview’s session token and no server authorization happens', async () => {
    server.route('POST /omni/add/name', () => ({ json: { success: true, sessionStatus: 'Alive' } }));
    const out = await client().call('addName', { body: { name: 'Ana López' } }, { interviewId: 'iv-1' });
    expect(out).toEqual({ success: true, sessionStatus: 'Alive' });
    expect(authCalls()).toHaveLength(0);
    expect(server.requests[0]!.headers['x-incode-hardware-id']).toBe(SESSION);
  });

  it('rejects invalid input before sending, naming the fields', async () => {
    const c = client();
    const err = await failure(c.call('addFace', { body: { imageUrl: 'file:///etc/passwd' } }, { interviewId: 'iv-1' }));
    expect(err.kind).toBe('input');
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.issues?.map((i) => i.path)).toContain('body.imageUrl');
    const q = await failure(
      c.call(
        'addFace',
        { body: { base64Image: 'AAAA' }, query: { captureType: 'SCAN' as never } },
        { interviewId: 'iv-1' },
      ),
    );
    expect(q.issues?.[0]?.path).toBe('query.captureType');
    expect(q.toIpcError().message.es).toMatch(/Campos: query.captureType/);
    expect(server.requests).toHaveLength(0);
  });

  it('keeps unknown response fields and turns a broken response into a schema error naming endpoint and field', async () => {
    server.route('GET /omni/get/raw-idv-results', () => ({
      json: { checkResults: 'none', fraudRisk: null },
    }));
    const err = await failure(client().call('getRawIdvResults', { query: { id: 'iv-1' } }));
    expect(err.kind).toBe('schema');
    expect(err.endpoint).toBe('getRawIdvResults');
    expect(err.issues?.[0]?.path).toBe('checkResults');
    expect(err.toIpcError().message.en).toContain('getRawIdvResults: checkResults');

    server.route('GET /omni/get/contracts-links', () => ({ text: '<html>proxy error</html>' }));
    const html = await failure(client().call('getContractLinks', { query: { id: 'iv-1' } }));
    expect(html.kind).toBe('schema');
  });

  it('parses the error body and explains face statuses from the catalog', async () => {
    server.route('POST /omni/add/face/third-party', () => ({
      status: 400,
      json: errorBody(4019, 'Bad Request', '/omni/add/face/third-party', 'Face not found'),
    }));
    const err = await failure(client().call('addFace', { body: { base64Image: 'AAAA' } }, { interviewId: 'iv-1' }));
    expect(err).toMatchObject({ kind: 'http', httpStatus: 400, serviceStatus: 4019, endpoint: 'addFace' });
    expect(err.body?.message).toBe('Face not found');
    const ipc = err.toIpcError();
    expect(ipc).toMatchObject({ code: 'OMNI_HTTP', httpStatus: 400, serviceCode: '4019', retryable: false });
    expect(ipc.message.es).toBe('No se encontró ninguna cara en la imagen.');
    expect(ipc.details).toMatchObject({ serviceMessage: 'Face not found', servicePath: '/omni/add/face/third-party' });
  });

  it('explains authentication error names and CURP failures in error bodies; 200 failures stay data', async () => {
    server.route('POST /omni/onboarding-authentications/authenticate', () => ({
      status: 400,
      json: { overallStatus: 'FAIL', error: { name: 'USER_IS_NOT_RECOGNIZED', message: 'no match' } },
    }));
    const auth = await failure(client().call('authenticateFace', { body: { base64Image: 'AAAA', hint: 'cust-1' } }));
    expect(auth.serviceStatus).toBe('USER_IS_NOT_RECOGNIZED');
    expect(auth.toIpcError().message.en).toMatch(/does not match/);

    server.route('POST /omni/add/curp', () => ({
      status: 400,
      json: {
        success: false,
        result: 'CURP no encontrado',
        renapo_valid: false,
        error: { tipoError: '01', codigoError: '06', message: 'no existe' },
      },
    }));
    const curp = await failure(
      client().call('addCurp', { body: { curp: 'GODE561231HDFRRN09' } }, { interviewId: 'iv-1' }),
    );
    expect(curp.serviceStatus).toBe('01-06');
    expect(curp.toIpcError().message.es).toBe('Este CURP no está en los registros de RENAPO.');
    expect(curp.toIpcError().advice?.es).toBe('Revisa los 18 caracteres con la persona.');
    expect(curp.toIpcError().details).toMatchObject({ group: 1 });

    server.route('POST /omni/add/curp', () => ({
      json: {
        success: false,
        result: 'x',
        error: { codigoRespuesta: 2, descripcionRespuesta: 'SERVIDOR SVBI NO RESPONDE' },
      },
    }));
    const data = await client().call('addCurp', { body: { curp: 'GODE561231HDFRRN09' } }, { interviewId: 'iv-1' });
    expect(data.success).toBe(false);
    expect(data.error?.codigoRespuesta).toBe('02');
  });

  it('a 401 on a server-token call re-authorizes once and repeats once', async () => {
    let n = 0;
    server.route('GET /omni/api-key', () =>
      ++n === 1 ? { status: 401, json: errorBody(401, 'Unauthorized', '/omni/api-key') } : { json: [] },
    );
    const c = client();
    expect(await c.call('listApiKeys', {})).toEqual([]);
    expect(authCalls()).toHaveLength(2);
    const tokens = server.requests
      .filter((r) => r.path === '/omni/api-key')
      .map((r) => r.headers['x-incode-hardware-id']);
    expect(tokens[0]).not.toBe(tokens[1]);

    server.route('GET /omni/api-key', () => ({ status: 401, json: errorBody(401, 'Unauthorized', '/omni/api-key') }));
    const err = await failure(c.call('listApiKeys', {}));
    expect(err.httpStatus).toBe(401);
    expect(authCalls()).toHaveLength(3);
    expect(server.requests.filter((r) => r.path === '/omni/api-key')).toHaveLength(4);
  });

  it('a 401 on a session-token call is not retried and names both causes, session token and API key', async () => {
    server.route('POST /omni/add/conference/notes', () => ({
      status: 401,
      json: errorBody(401, 'Unauthorized', '/omni/add/conference/notes'),
    }));
    const err = await failure(client().call('addConferenceNotes', { body: { notes: 'ok' } }, { interviewId: 'iv-1' }));
    expect(err.code).toBe('SESSION_TOKEN_REJECTED');
    const { message } = err.toIpcError();
    expect(message.en).toMatch(/session token.*API key/);
    expect(message.es).toMatch(/token de sesión.*clave de API/);
    expect(server.requests).toHaveLength(1);
  });

  it('retries idempotent GETs on 503/429 honouring Retry-After, bounded', async () => {
    let n = 0;
    server.route('GET /omni/cross-doc-data-check/results', () =>
      ++n < 3
        ? {
            status: n === 1 ? 503 : 429,
            headers: { 'retry-after': '0' },
            json: errorBody(n === 1 ? 503 : 429, 'x', '/'),
          }
        : { json: { fullName: { match: true } } },
    );
    expect(await client().call('getCrossDocResults', { query: { id: 'iv-1' } })).toEqual({ fullName: { match: true } });
    expect(n).toBe(3);

    server.route('GET /omni/cross-doc-data-check/results', () => ({
      status: 502,
      json: errorBody(502, 'Bad Gateway', '/'),
    }));
    const before = server.requests.length;
    const err = await failure(
      client({ retry: { attempts: 3, baseDelayMs: 1 } }).call('getCrossDocResults', { query: { id: 'iv-1' } }),
    );
    expect(err.httpStatus).toBe(502);
    expect(err.retryable).toBe(true);
    expect(server.requests.slice(before).filter((r) => r.path.startsWith('/omni'))).toHaveLength(3);
  });

  it('waits the Retry-After the service asks for, and gives up at once when it is too long', async () => {
    let n = 0;
    server.route('GET /omni/api-key', () =>
      ++n === 1
        ? { status: 429, headers: { 'retry-after': '1' }, json: errorBody(429, 'Too Many Requests', '/') }
        : { json: [] },
    );
    const started = Date.now();
    await client().call('listApiKeys', {});
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);

    server.route('GET /omni/api-key', () => ({
      status: 429,
      headers: { 'retry-after': '3600' },
      json: errorBody(429, 'Too Many Requests', '/'),
    }));
    const err = await failure(client().call('listApiKeys', {}));
    expect(err.retryAfterMs).toBe(3_600_000);
    expect(err.toIpcError().details).toMatchObject({ retryAfterMs: 3_600_000 });
  });

  it('retries a GET after a connection reset', async () => {
    let n = 0;
    server.route('GET /omni/generateVideoSelfieDownloadUrl', () =>
      ++n === 1 ? { reset: true } : { json: { url: 'https://media.example/v.mp4?sig=1' } },
    );
    expect(await client().call('getVideoSelfieUrl', {}, { interviewId: 'iv-1' })).toEqual({
      url: 'https://media.example/v.mp4?sig=1',
    });
    expect(n).toBe(2);
  });

  it('repeats a write only after an answer that says it was not processed (429), a bounded number of times', async () => {
    let n = 0;
    server.route(
      'POST /omni/sign-string/nom151',
      () => (n++, { status: 429, headers: { 'retry-after': '0' }, json: errorBody(429, 'Too Many Requests', '/') }),
    );
    const err = await failure(client().call('signStringNom151', { body: { stringToSign: 'hola' } }));
    expect(err.httpStatus).toBe(429);
    expect(n).toBe(3);
    // A 503 to a write without a key is a lost answer however it comes: in Spring's error shape (a gateway hop, or
    // the service after a downstream call timed out), with a Retry-After of 0 or one already past (red team 23).
    n = 0;
    const hints: Record<string, string>[] = [
      {},
      { 'retry-after': '0' },
      { 'retry-after': 'Sun, 06 Nov 1994 08:49:37 GMT' },
    ];
    for (const headers of hints) {
      server.route(
        'POST /omni/sign-string/nom151',
        () => (n++, { status: 503, headers, json: errorBody(503, 'Service Unavailable', '/') }),
      );
      const lost503 = await failure(client().call('signStringNom151', { body: { stringToSign: 'hola' } }));
      expect(lost503.code).toBe('OUTCOME_UNKNOWN');
      expect(lost503.toIpcError().retryable).toBe(false);
    }
    expect(n).toBe(3);
    n = 3;
    // A reset after the write left: it may have been applied, so it is not repeated, and says so.
    server.route('POST /omni/sign-string/nom151', () => (n++, { reset: true }));
    const reset = await failure(client().call('signStringNom151', { body: { stringToSign: 'hola' } }));
    expect(reset.kind).toBe('network');
    expect(reset.code).toBe('OUTCOME_UNKNOWN');
    expect(n).toBe(4);
    // So is a gateway's 502 to a write.
    server.route('POST /omni/sign-string/nom151', () => (n++, { status: 502, text: '<html>Bad Gateway</html>' }));
    const lost = await failure(client().call('signStringNom151', { body: { stringToSign: 'hola' } }));
    expect(lost.code).toBe('OUTCOME_UNKNOWN');
    expect(n).toBe(5);
    // And a bare 503 (an Envoy-style gateway's upstream reset): no Retry-After, not the service's own body.
    server.route(
      'POST /omni/sign-string/nom151',
      () => (
        n++,
        {
          status: 503,
          text: 'upstream connect error or disconnect/reset before headers. reset reason: connection termination',
        }
      ),
    );
    const reset503 = await failure(client().call('signStringNom151', { body: { stringToSign: 'hola' } }));
    expect(reset503.code).toBe('OUTCOME_UNKNOWN');
    expect(reset503.toIpcError().retryable).toBe(false);
    expect(n).toBe(6);
    // A Retry-After longer than a write may wait is not waited for: the error carries it.
    server.route('POST /omni/sign-string/nom151', () => (n++, { status: 429, headers: { 'retry-after': '60' } }));
    const busy = await failure(client().call('signStringNom151', { body: { stringToSign: 'hola' } }));
    expect(busy.retryAfterMs).toBe(60_000);
    expect(busy.toIpcError().advice?.en).toMatch(/^The service asked to wait 60 s\./);
    expect(n).toBe(7);
    // A long one in minutes or hours, as a person reads a wait.
    server.route('POST /omni/sign-string/nom151', () => (n++, { status: 429, headers: { 'retry-after': '86400' } }));
    const later = await failure(client().call('signStringNom151', { body: { stringToSign: 'hola' } }));
    expect(later.toIpcError().advice?.es).toMatch(/^El servicio pidió esperar 24 h\./);
  });

  it('times out and cancels, telling the two apart', async () => {
    server.route('GET /omni/api-key', () => ({ delayMs: 2000, json: [] }));
    const timeout = await failure(client().call('listApiKeys', {}, { timeoutMs: 100 }));
    expect(timeout.kind).toBe('timeout');
    expect(timeout.code).toBe('TIMEOUT');

    const controller = new AbortController();
    const pending = client().call('listApiKeys', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const aborted = await failure(pending);
    expect(aborted.kind).toBe('aborted');
  });

  it('reports missing or undecryptable credentials as config errors', async () => {
    await vault.clearCredential(serviceDestination(env), 'secret');
    const err = await failure(client().call('listApiKeys', {}));
    expect(err).toMatchObject({ kind: 'config', code: 'NO_CREDENTIALS', endpoint: 'authorizeServer' });
    expect(err.issues?.[0]?.path).toBe('secret');
    expect(server.requests).toHaveLength(0);
  });

  it('reports a network failure when nothing listens', async () => {
    await server.close();
    const err = await failure(client().call('validateRfc', { body: { rfc: 'GODE561231GR8' } }));
    expect(err.kind).toBe('network');
    expect(err.toIpcError().advice?.en).toMatch(/network/);
    server = await startTestServer();
  });

  it('never follows a redirect: the API key, secret and session token go nowhere but the addresses they were entered for', async () => {
    const elsewhere = await startTestServer();
    try {
      elsewhere.route('POST /v1/integration/authorize/server', () => ({ json: { token: 'stolen' } }));
      // A call with the server's token and the API key, redirected once authorized.
      server.route('GET /omni/get/raw-idv-results', () => ({
        status: 302,
        headers: { location: `${elsewhere.url}/omni/get/raw-idv-results?id=iv-1` },
      }));
      expect((await failure(client().call('getRawIdvResults', { query: { id: 'iv-1' } }))).code).toBe('REDIRECTED');
      // The authorization itself: a 307 would have fetch resend its body (the secret) with the same headers.
      server.route('POST /v1/integration/authorize/server', () => ({
        status: 307,
        headers: { location: `${elsewhere.url}/v1/integration/authorize/server` },
      }));
      const err = await failure(client().call('listApiKeys', {}));
      expect(err.code).toBe('REDIRECTED');
      expect(err.toIpcError().message).toMatchObject({
        en: expect.stringMatching(/your credentials go only to the addresses you entered/),
        es: expect.stringMatching(/tus credenciales solo van a las direcciones que capturaste/),
      });
      expect(err.serviceWords).toBe(`307 → ${elsewhere.url}/v1/integration/authorize/server`);
      expect(elsewhere.requests).toEqual([]);
      expect(server.requests.map((r) => r.path)).toEqual([
        '/v1/integration/authorize/server',
        '/omni/get/raw-idv-results',
        '/v1/integration/authorize/server',
      ]);
    } finally {
      await elsewhere.close();
    }
  });

  it('reads no answer past 32 MB once unpacked: a small compressed one that unpacks to more, or one that says it is larger', async () => {
    // 33 MB of spaces, gzipped to about 33 KB: read whole, 2 GB of them stopped the process.
    server.route('GET /omni/get/raw-idv-results', () => ({ text: ' '.repeat(MAX_ANSWER_BYTES + 1), encoding: 'gzip' }));
    const err = await failure(client().call('getRawIdvResults', { query: { id: 'iv-1' } }));
    expect(err.code).toBe('ANSWER_TOO_LARGE');
    expect(err.toIpcError().message.es).toMatch(/más de 32 MB/);
    server.route('GET /omni/get/raw-idv-results', () => ({
      json: {},
      headers: { 'content-length': String(MAX_ANSWER_BYTES + 1) },
    }));
    expect((await failure(client().call('getRawIdvResults', { query: { id: 'iv-1' } }))).code).toBe('ANSWER_TOO_LARGE');
    // Said to be compressed and not: an answer that cannot be read, not a network that cannot be reached.
    server.route('GET /omni/get/raw-idv-results', () => ({
      text: '{"checkResults": []}',
      headers: { 'content-encoding': 'gzip' },
    }));
    const unreadable = await failure(client().call('getRawIdvResults', { query: { id: 'iv-1' } }));
    expect(unreadable.code).toBe('NOT_THE_SERVICE');
    expect(unreadable.serviceWords).toBeTruthy();
    // Not asked again: the same answer would come back.
    expect(server.requests.filter((r) => r.path === '/omni/get/raw-idv-results')).toHaveLength(3);
  });

  it('rejects an invalid environment without crashing', async () => {
    env = { ...env, baseUrl: 'ftp://nowhere', tokenHeader: 'bad header' };
    const err = await failure(client().call('listApiKeys', {}));
    expect(err.code).toBe('INVALID_ENVIRONMENT');
    expect(err.issues?.map((i) => i.path)).toEqual(['baseUrl', 'tokenHeader']);
  });

  it('authorize() forces a fresh token and reports its expiry; concurrent calls share one authorization', async () => {
    server.route('GET /omni/api-key', () => ({ json: [] }));
    const c = client();
    const { expiresAt } = await c.authorize();
    expect(expiresAt).toBeGreaterThan(Date.now() + 14 * 60_000);
    expect(c.tokenExpiresAt()).toBe(expiresAt);
    await c.authorize();
    expect(authCalls()).toHaveLength(2);

    const fresh = client();
    await Promise.all(Array.from({ length: 50 }, () => fresh.call('listApiKeys', {})));
    expect(authCalls()).toHaveLength(3);
  });

  it('streams a raw JSON body for huge uploads', async () => {
    server.route('POST /omni/recordings/import/third-party', (req) => ({
      json: { recordingId: `rec-${(req.json as { video: string }).video.length}` },
    }));
    async function* chunks() {
      yield new TextEncoder().encode('{"video":"');
      for (let i = 0; i < 64; i++) yield new TextEncoder().encode('A'.repeat(1024));
      yield new TextEncoder().encode('","type":"selfie"}');
    }
    const length = 10 + 64 * 1024 + 18;
    const out = await client().call(
      'importVideo',
      { body: { video: 'unused' } },
      { interviewId: 'iv-1', rawBody: { stream: chunks(), contentLength: length } },
    );
    expect(out.recordingId).toBe('rec-65536');
    expect(server.requests[0]!.headers['content-length']).toBe(String(length));
  });

  describe('answers that are compressed, web pages or cut off', () => {
    const idv = { checkResults: [{ name: 'faceTamper', severity: 'low', version: '1', result: 0.2 }], fraudRisk: null };

    it.each(['gzip', 'deflate', 'br'] as const)(
      'reads a %s-encoded JSON answer, read and write alike',
      async (encoding) => {
        server.route('GET /omni/get/raw-idv-results', () => ({ json: idv, encoding }));
        server.route('POST /omni/add/name', () => ({ json: { success: true, sessionStatus: 'Alive' }, encoding }));
        const c = client();
        expect(await c.call('getRawIdvResults', { query: { id: 'iv-1' } })).toEqual(idv);
        expect(await c.call('addName', { body: { name: 'Ana' } }, { interviewId: 'iv-1' })).toEqual({
          success: true,
          sessionStatus: 'Alive',
        });
      },
    );

    it("names a web page in place of the service, in en and es-MX, with the page's words in small print", async () => {
      const page =
        '<!doctype html><html><head><title>Sign in to Guest Wi-Fi</title><style>p{}</style></head>' +
        '<body><h1>Guest network</h1><p>Accept the terms to continue.</p></body></html>';
      server.route('GET /omni/get/contracts-links', () => ({ text: page, headers: { 'content-type': 'text/html' } }));
      server.route('GET /omni/get/raw-idv-results', () => ({ status: 502, text: page, encoding: 'gzip' }));
      // A 200 page (a portal) names the address; a gateway's 5xx page is a passing outage, never the address.
      const portal = await failure(
        client({ retry: { attempts: 1 } }).call('getContractLinks', { query: { id: 'iv-1' } }),
      );
      const ipc = portal.toIpcError();
      expect(ipc.message.en).toMatch(/^The address answered with a web page/);
      expect(ipc.message.en).not.toMatch(/\(root\)/);
      expect(ipc.message.es).toMatch(/^La dirección respondió con una página web/);
      expect(ipc.advice?.en).toMatch(/address.*proxy/);
      expect(ipc.details?.serviceMessage).toBe('Sign in to Guest Wi-Fi: Guest network. Accept the terms to continue.');
      const outage = await failure(
        client({ retry: { attempts: 1 } }).call('getRawIdvResults', { query: { id: 'iv-1' } }),
      );
      expect(outage.toIpcError()).toMatchObject({
        code: 'SERVICE_NOT_ANSWERING',
        message: { en: 'The service is not answering right now.' },
        details: { serviceMessage: 'Sign in to Guest Wi-Fi: Guest network. Accept the terms to continue.' },
      });
      expect(outage.toIpcError().advice?.en).not.toMatch(/address in Settings/);
    });

    it('a write whose answer was cut off says the service may have stored it, and is not sent again', async () => {
      server.route('POST /omni/add/conference/notes', () => ({
        json: { success: true, sessionStatus: 'Alive' },
        cutAfterBytes: 8,
      }));
      const err = await failure(
        client().call('addConferenceNotes', { body: { notes: 'called back' } }, { interviewId: 'iv-1' }),
      );
      expect(err.toIpcError()).toMatchObject({ code: 'WRITE_ANSWER_UNREADABLE', retryable: false });
      expect(err.toIpcError().message.en).toMatch(/^The service may have stored it/);
      expect(err.toIpcError().message.es).toMatch(/^Es posible que el servicio lo haya guardado/);
      expect(err.retryable).toBe(false);
      expect(server.requests.filter((r) => r.path === '/omni/add/conference/notes')).toHaveLength(1);
    });

    it('a cut-off JSON answer to a read is named as such, not as a service fault', async () => {
      server.route('GET /omni/get/raw-idv-results', () => ({ text: JSON.stringify(idv).slice(0, 30) }));
      const err = await failure(client().call('getRawIdvResults', { query: { id: 'iv-1' } }));
      expect(err.toIpcError().message.en).toMatch(/cut-off answer/);
    });
  });
});
