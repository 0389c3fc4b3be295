import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Destination, serviceDestination } from '../../main/auth/destination';
import { MemoryVault } from '../../main/auth/memory-vault';
import { toIpcErrorData } from '../../main/errors';
import { createLogger, redact, redactText, REDACTED } from '../../main/log';
import { OmniClient } from '../../main/omni/client';
import { OmniError } from '../../main/omni/omni-error';
import { startTestServer, type TestServer } from '../helpers/omni-test-server';

const API_KEY = 'live-api-key-Q7w9Z3x1';
const INTEGRATION = '5c1e0a7b-2d4f-4e9a-8b3c-7f6e5d4c3b2a';
const SECRET = 'p@ss/w0rd+secret=1';
const SESSION = 'session-token-AAA111bbb';

let server: TestServer;
let lines: string[];
let client: OmniClient;
let vault: MemoryVault;
let to: Destination;
/** The server token the test server issued, read back from the request that carried it. */
const serverTokens = () =>
  server.requests
    .map((r) => r.headers['x-incode-hardware-id'])
    .filter((t): t is string => typeof t === 'string' && t !== SESSION);

beforeEach(async () => {
  lines = [];
  vault = new MemoryVault();
  // A hostile service that echoes every header and body it got into its error answers.
  server = await startTestServer();
  to = serviceDestination({ id: 'prod', baseUrl: server.url, authUrl: server.url });
  await vault.setCredential(to, 'apiKey', API_KEY);
  await vault.setCredential(to, 'integrationId', INTEGRATION);
  await vault.setCredential(to, 'secret', SECRET);
  await vault.setSessionToken(to, 'iv-1', SESSION);
  const echo = (status: number) => (req: { headers: Record<string, unknown>; body: string; path: string }) => ({
    status,
    headers: { 'retry-after': '0' },
    json: {
      timestamp: 1,
      status,
      error: 'Echo',
      path: `${req.path}?key=${encodeURIComponent(String(req.headers['x-api-key']))}`,
      message: `you sent ${JSON.stringify(req.headers)} and ${req.body}`,
      details: { token: req.headers['x-incode-hardware-id'], secretEcho: SECRET, encoded: encodeURIComponent(SECRET) },
    },
  });
  server.route('GET /omni/api-key', echo(503));
  server.route('POST /omni/add/name', echo(400));
  server.route('POST /api/validate/rfc', echo(500));
  client = new OmniClient({
    env: {
      id: 'prod',
      baseUrl: server.url,
      authUrl: server.url,
      apiVersion: '1.0',
      tokenHeader: 'X-Incode-Hardware-Id',
    },
    vault,
    retry: { attempts: 2, baseDelayMs: 1 },
    logger: createLogger({ sink: (l) => lines.push(l), level: 'debug' }),
  });
});
afterEach(() => server.close());

async function failure(p: Promise<unknown>): Promise<OmniError> {
  try {
    await p;
  } catch (e) {
    return e as OmniError;
  }
  throw new Error('expected failure');
}

describe('redaction', () => {
  it('no secret reaches logs, serialized errors or IPC error data', async () => {
    const errors = [
      await failure(client.call('listApiKeys', {})),
      await failure(client.call('addName', { body: { name: `Ana ${SESSION}` } }, { interviewId: 'iv-1' })),
      await failure(client.call('validateRfc', { body: { rfc: 'GODE561231GR8' } })),
    ];
    const log = createLogger({ sink: (l) => lines.push(l), level: 'debug' });
    for (const e of errors) {
      expect(e).toBeInstanceOf(OmniError);
      log.error('call failed', { error: e, body: e.body, message: e.message, cause: e.cause });
      log.warn(`raw message: ${e.message} ${JSON.stringify(e.body)}`);
    }
    const tokens = serverTokens();
    expect(tokens.length).toBeGreaterThan(0);
    const secrets = [API_KEY, INTEGRATION, SECRET, SESSION, encodeURIComponent(SECRET), ...tokens];

    const traffic = [
      ...lines,
      ...errors.map((e) => JSON.stringify(e.toIpcError())),
      ...errors.map((e) => JSON.stringify(toIpcErrorData(e, 'test.channel'))),
      ...errors.map((e) => JSON.stringify(e)),
      ...errors.map((e) => JSON.stringify(redact(e))),
      ...errors.map((e) => inspect(e, { depth: 10 })),
    ].join('\n');
    // The echoes did arrive (so the test can fail), and every one of them was replaced.
    expect(traffic).toContain(REDACTED);
    expect(errors[0]!.toIpcError().details?.serviceMessage).toContain(REDACTED);
    for (const s of secrets) expect(traffic, `secret ${s.slice(0, 6)}… leaked`).not.toContain(s);
    expect(lines.some((l) => l.includes('omni call retried'))).toBe(true);
  });

  it('redacts JWTs no source knows, inside nested values and errors with causes', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    const err = new Error(`bad ${API_KEY}`, { cause: { header: `Bearer ${jwt}` } });
    const out = JSON.stringify(redact({ list: [err], nested: { deep: [API_KEY] } }));
    expect(out).not.toContain(API_KEY);
    expect(out).not.toContain(jwt);
    expect(redactText(`x ${SESSION} y`)).toBe(`x ${REDACTED} y`);
  });

  it('redacts a secret that a service made a property name (red team 9)', () => {
    const out = JSON.stringify(
      redact({ errors: { [API_KEY]: 'revoked' }, err: Object.assign(new Error('x'), { [SESSION]: 1 }) }),
    );
    expect(out).not.toContain(API_KEY);
    expect(out).not.toContain(SESSION);
    expect(out).toContain(`"${REDACTED}":"revoked"`);
  });

  it('redacts a secret echoed in another case, in base64 at any alignment, URL-encoded, or most of it', () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const b64url = (text: string) => Buffer.from(text).toString('base64url');
    const echoes = [
      `KEY ${API_KEY.toUpperCase()} TOKEN ${SESSION.toLowerCase()}`,
      `auth=${b64(API_KEY)} basic=${b64(`user:${SECRET}`)} x=${b64(`ab${SESSION}`)} y=${b64url(`a${INTEGRATION}`)}`,
      `s=${encodeURIComponent(SECRET)}`,
      `unknown key ${API_KEY.slice(0, -2)}… token ${SESSION.slice(3)}`,
      // Basic auth cut short by the service, and the key in hex.
      `Authorization: Basic ${b64(`apikey:${API_KEY}`).slice(0, -6)}…`,
      `key=${Buffer.from(API_KEY).toString('hex')}`,
    ];
    for (const echo of echoes) {
      const out = redactText(echo);
      expect(out).toContain(REDACTED);
      for (const secret of [API_KEY, SESSION, SECRET, INTEGRATION]) {
        expect(out.toLowerCase()).not.toContain(secret.toLowerCase().slice(0, 12));
        expect(out).not.toContain(b64(secret).slice(2, 14));
      }
    }
    // Text around it stays as it was, and text that holds no secret is untouched.
    expect(redactText(`before ${API_KEY.toUpperCase()} after`)).toBe(`before ${REDACTED} after`);
    expect(redactText('The service is busy: try again in 2 s.')).toBe('The service is busy: try again in 2 s.');
    // A word a secret shares with plain text is not most of the secret: an organization's id stays readable.
    expect(redactText('org-financiera-demo', ['demo-secret-financiera-7Q2x'])).toBe('org-financiera-demo');
  });

  it('forgets the secrets of a vault value once it is cleared (they are no longer held)', async () => {
    await vault.clearSessionToken(to, 'iv-1');
    expect(vault.knownSecrets()).not.toContain(SESSION);
  });
});
