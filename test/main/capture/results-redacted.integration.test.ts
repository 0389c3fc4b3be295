import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceDestination } from '../../../main/auth/destination';
import { MemoryVault } from '../../../main/auth/memory-vault';
import { OmniClient } from '../../../main/omni/client';
import { createRouter } from '../../../main/ipc/router';
import { handlers } from '../../../main/ipc/handlers/index';
import type { MainContext } from '../../../main/ports';
import type { AuthResultView, BackIdResultView, FaceResultView } from '../../../common/ipc/capture';
import type { CurpResultView, RfcResultView } from '../../../common/ipc/validation';
import { makeJwt, startTestServer, type TestServer } from '../../helpers/omni-test-server';
import { APP_URL, callThrough } from '../../helpers/router-calls';

/**
 * Capture and RFC/CURP results cross IPC with the service's answer twice (`response` for the screen, `answer` for the
 * raw view): neither may carry a held secret, a JWT or a 20 MB image the service sent back (red team 7, H1).
 */

const API_KEY = 'live-apikey-Zq81kLm0PpW3';
const SESSION = 'opaque-session-token-AbCdEf0123456789';
const INTERVIEW = 'intv-0001';
const JWT = makeJwt({ sub: 'someone', interviewId: 'other' });
const BIG = 'A'.repeat(20 * 1024 * 1024);
const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const image = { kind: 'file', base64: PNG_1x1, mimeType: 'image/png', name: 'selfie.png' };
const echo = { echoedHeaders: { 'x-api-key': API_KEY, 'X-Incode-Hardware-Id': SESSION }, refreshToken: JWT };

let server: TestServer;
let router: ReturnType<typeof createRouter>;
const call = <T>(channel: string, input: unknown) => callThrough<T>(router, channel, input);

beforeAll(async () => {
  server = await startTestServer({
    'POST /omni/add/face/third-party': () => ({ json: { age: 30, isBright: true, debug: echo } }),
    'POST /omni/add/back-second-id/v2': () => ({
      json: { classification: true, acceptedDocuments: ['INE', `doc ${API_KEY}`], issueName: SESSION, debug: echo },
    }),
    'POST /omni/onboarding-authentications/authenticate': () => ({
      json: {
        overallStatus: 'FAIL',
        candidate: `cust ${SESSION}`,
        matchedSelfie: BIG,
        customerToken: JWT,
        error: { name: 'NOT_IN_THE_SPEC', message: `bad key ${API_KEY}` },
      },
    }),
    'POST /api/validate/rfc': () => ({ json: { validRFC: true, requestEcho: `x-api-key=${API_KEY}`, debug: echo } }),
    'POST /omni/add/curp': () => ({
      json: { success: true, renapo_valid: true, curp: 'GODE561231HDFRRN09', debug: echo },
    }),
  });
  const vault = new MemoryVault();
  const to = serviceDestination({ id: 'e', baseUrl: server.url, authUrl: server.url });
  await vault.setCredential(to, 'apiKey', API_KEY);
  await vault.setCredential(to, 'integrationId', 'integration-1');
  await vault.setCredential(to, 'secret', 'live-secret-9f8e7d6c5b4a');
  await vault.setSessionToken(to, INTERVIEW, SESSION);
  const client = new OmniClient({
    env: { id: 'e', baseUrl: server.url, authUrl: server.url, apiVersion: '1.0', tokenHeader: 'X-Incode-Hardware-Id' },
    vault,
    retry: { attempts: 1, baseDelayMs: 5, maxDelayMs: 20 },
  });
  const ctx = {
    omni: () => client,
    audit: { append: async (e: Record<string, unknown>) => ({ ...e, seq: 1, at: '', prevHash: '', hash: '' }) },
  } as unknown as MainContext;
  router = createRouter({ handlers, context: ctx, appUrl: APP_URL });
});
afterAll(() => server.close());

function expectNoSecret(view: unknown): void {
  const text = JSON.stringify(view);
  expect(text).not.toContain(API_KEY);
  expect(text).not.toContain(SESSION);
  expect(text).not.toContain(JWT.slice(0, 30));
}

describe('RFC and CURP results', () => {
  it('RFC: every field the screen lists is redacted', async () => {
    const view = await call<RfcResultView>('validation.validateRfc', { rfc: 'GODE561231GR8' });
    expectNoSecret(view);
    expect(view.response).toMatchObject({ validRFC: true, requestEcho: 'x-api-key=[redacted]' });
  });

  it('CURP: the same', async () => {
    const view = await call<CurpResultView>('validation.addCurp', {
      interviewId: INTERVIEW,
      curp: 'GODE561231HDFRRN09',
    });
    expectNoSecret(view);
    expect(view).toMatchObject({ valid: true, response: { success: true, curp: 'GODE561231HDFRRN09' } });
  });
});

// Last: the 20 MB answer of face authentication leaves the test server's connection busy for a while.
describe('capture results', () => {
  it('selfie: `response` is redacted like `answer`, the known fields still read', async () => {
    const view = await call<FaceResultView>('capture.addFace', { interviewId: INTERVIEW, image });
    expectNoSecret(view);
    expect(view.response).toMatchObject({ age: 30, isBright: true });
    expect(view.response).toEqual(view.answer.body);
  });

  it('back of ID: accepted documents and indicators are shown redacted', async () => {
    const view = await call<BackIdResultView>('capture.addBackSecondId', { interviewId: INTERVIEW, image });
    expectNoSecret(view);
    expect(view.response.acceptedDocuments).toEqual(['INE', 'doc [redacted]']);
    expect(view.indicators.find((i) => i.field === 'issueName')?.value).toBe('[redacted]');
  });

  it('face authentication: no JWT, no held secret, and not the 20 MB image', async () => {
    const view = await call<AuthResultView>('capture.authenticateFace', { image });
    expectNoSecret(view);
    expect(JSON.stringify(view).length).toBeLessThan(20_000);
    expect(view.response.error?.message).toBe('bad key [redacted]');
    expect(view.candidate).toBe('cust [redacted]');
  });
});
