import { describe, expect, it } from 'vitest';
import { MemoryVault } from '../../../main/auth/memory-vault';
import { createLogger } from '../../../main/log';
import { OmniClient, parseRetryAfter } from '../../../main/omni/client';
import { OmniError } from '../../../main/omni/omni-error';
import { serviceDestination } from '../../../main/auth/destination';

/** Where the test client sends: the secrets are stored for it. */
const E = serviceDestination({ id: 'e', baseUrl: 'https://omni.example/', authUrl: 'https://auth.example' });

/** A fetch that records what it was asked and answers from a script, for the parts that need no socket. */
function scripted(answer: (url: string, init: RequestInit) => Response) {
  const seen: { url: string; init: RequestInit }[] = [];
  const fetchImpl: typeof fetch = async (input, init = {}) => {
    seen.push({ url: String(input), init });
    return answer(String(input), init);
  };
  return { seen, fetchImpl };
}

async function setup(answer: (url: string, init: RequestInit) => Response) {
  const vault = new MemoryVault();
  await vault.setCredential(E, 'apiKey', 'key-1234');
  await vault.setCredential(E, 'integrationId', 'int-1234');
  await vault.setCredential(E, 'secret', 'sec-1234');
  await vault.setSessionToken(E, 'iv 1', 'sess-1234');
  const s = scripted((url, init) =>
    url.endsWith('/authorize/server') ? Response.json({ token: 'server-1234' }) : answer(url, init),
  );
  const client = new OmniClient({
    env: {
      id: 'e',
      baseUrl: 'https://omni.example/',
      authUrl: 'https://auth.example',
      apiVersion: '1.0',
      tokenHeader: 'X-Incode-Hardware-Id',
    },
    vault,
    fetch: s.fetchImpl,
    logger: createLogger({ sink: () => undefined }),
  });
  return { client, seen: s.seen };
}

describe('OmniClient request building', () => {
  it('joins base URL and path once, encodes query values and drops absent ones', async () => {
    const { client, seen } = await setup(() => Response.json({ url: 'https://media.example/v' }));
    await client.call('getVideoSelfieUrl', { query: { interviewId: 'a b&c/ü' } });
    expect(seen.map((s) => s.url)).toEqual([
      'https://auth.example/v1/integration/authorize/server',
      'https://omni.example/omni/generateVideoSelfieDownloadUrl?interviewId=a%20b%26c%2F%C3%BC',
    ]);
    await client.call(
      'addFace',
      { body: { base64Image: 'AAAA' }, query: { captureType: 'MANUAL', recordingId: undefined } },
      { interviewId: 'iv 1' },
    );
    expect(seen.at(-1)!.url).toBe('https://omni.example/omni/add/face/third-party?captureType=MANUAL');
  });

  it('sends the validated body (unknown input fields dropped) as JSON', async () => {
    const { client, seen } = await setup(() => Response.json({ signedString: 'MIIB', reference: 'F-1' }));
    await client.call('signStringNom151', { body: { stringToSign: 'hola', stray: 'x' } as never });
    expect(seen.at(-1)!.init.body).toBe('{"stringToSign":"hola"}');
    expect(seen.at(-1)!.init.method).toBe('POST');
  });

  it('answers with the parsed response; an empty 200 is a schema error', async () => {
    const { client } = await setup(() => new Response('', { status: 200 }));
    const err = await client.call('listApiKeys', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OmniError);
    expect((err as OmniError).kind).toBe('schema');
  });

  it('a non-JSON error answer still becomes an explained HTTP error', async () => {
    const { client } = await setup(() => new Response('<html>Bad gateway</html>', { status: 400 }));
    const err = (await client
      .call('validateRfc', { body: { rfc: 'GODE561231GR8' } })
      .catch((e: unknown) => e)) as OmniError;
    expect(err).toMatchObject({ kind: 'http', httpStatus: 400, code: 'OMNI_HTTP' });
    expect(err.body).toBeUndefined();
    expect(err.toIpcError().message.en).toMatch(/web page .*not the service/);
  });

  it('keeps the service’s words from an error body of another shape, and a sentence or two of them', async () => {
    const words = async (status: number, body: unknown) => {
      const { client } = await setup(() => new Response(JSON.stringify(body), { status }));
      const err = (await client
        .call('validateRfc', { body: { rfc: 'GODE561231GR8' } })
        .catch((e: unknown) => e)) as OmniError;
      return err.toIpcError().details;
    };
    // No timestamp or path: the message had been dropped.
    expect((await words(401, { message: 'API key expired on 2026-11-01' }))?.serviceMessage).toBe(
      'API key expired on 2026-11-01',
    );
    expect((await words(400, { type: 'about:blank', title: 'Bad RFC', detail: 'RFC too short' }))?.serviceMessage).toBe(
      'RFC too short',
    );
    const long = await words(400, {
      timestamp: '2026-11-27T04:00:00Z',
      status: 400,
      error: 'Bad Request',
      path: '/x',
      message: 'Invalid request. '.repeat(300_000),
      details: { dump: 'y'.repeat(100_000) },
    });
    expect(String(long?.serviceMessage)).toMatch(/… \(5100000 characters\)$/);
    expect(String(long?.serviceMessage).length).toBeLessThan(600);
    expect(long?.serviceDetails).toEqual({ omitted: '100011 characters' });
  });

  it('a 200 web page names the address, proxy or portal; a cut-off write answer says it may be stored', async () => {
    const page = await setup(() => new Response('<!doctype html><title>Sign in to Wi-Fi</title>', { status: 200 }));
    const pageErr = (await page.client.call('listApiKeys', {}).catch((e: unknown) => e)) as OmniError;
    expect(pageErr.kind).toBe('schema');
    expect(pageErr.explanation.code).toBe('NOT_THE_SERVICE');
    expect(pageErr.toIpcError().advice?.en).toMatch(/proxy.*captive portal/);
    expect(pageErr.toIpcError().advice?.es).toMatch(/portal cautivo/);

    const cut = await setup(() => new Response('{"success":tr', { status: 200 }));
    const cutErr = (await cut.client
      .call('addName', { body: { name: 'Ana' } }, { interviewId: 'iv 1' })
      .catch((e: unknown) => e)) as OmniError;
    expect(cutErr.explanation.code).toBe('WRITE_ANSWER_UNREADABLE');
    expect(cutErr.retryable).toBe(false);
    expect(cutErr.toIpcError().message.en).toMatch(/may have stored it/);
  });

  it('an already-aborted signal stops the call before anything is read', async () => {
    const { client } = await setup(() => Response.json([]));
    const controller = new AbortController();
    controller.abort();
    const fetchAborting = await client.call('listApiKeys', {}, { signal: controller.signal }).catch((e: unknown) => e);
    expect((fetchAborting as OmniError).kind).toBe('aborted');
  });
});

describe('Idempotency-Key', () => {
  it('a note or name carries the caller’s key; without one, each call makes its own, so identical notes do not share it', async () => {
    const { client, seen } = await setup(() => Response.json({ success: true }));
    const keyOf = () => new Headers(seen.at(-1)!.init.headers).get('idempotency-key');
    await client.call(
      'addConferenceNotes',
      { body: { notes: 'Checked ID' } },
      { interviewId: 'iv 1', idempotencyKey: 'k-1' },
    );
    expect(keyOf()).toBe('k-1');
    await client.call('addConferenceNotes', { body: { notes: 'Checked ID' } }, { interviewId: 'iv 1' });
    const first = keyOf();
    await client.call('addConferenceNotes', { body: { notes: 'Checked ID' } }, { interviewId: 'iv 1' });
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(keyOf()).not.toBe(first);
    await client.call('addName', { body: { name: 'Ana' } }, { interviewId: 'iv 1' });
    expect(keyOf()).toMatch(/^[0-9a-f-]{36}$/);
    await client.call('signStringNom151', { body: { stringToSign: 'x' } }).catch(() => undefined);
    expect(keyOf()).toBeNull();
  });
});

describe('server token under faults', () => {
  it('retries a 429 (Retry-After), a 503 and a reset on the authorization, one request in flight for every waiter', async () => {
    const vault = new MemoryVault();
    await vault.setCredential(E, 'apiKey', 'key-1234');
    await vault.setCredential(E, 'integrationId', 'int-1234');
    await vault.setCredential(E, 'secret', 'sec-1234');
    const faults = [
      () => new Response('{}', { status: 429, headers: { 'retry-after': '0' } }),
      () => new Response('busy', { status: 503 }),
      () => {
        throw Object.assign(new TypeError('fetch failed'), {
          cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }),
        });
      },
    ];
    let authorizeCalls = 0;
    const fetchImpl: typeof fetch = async (input) => {
      if (String(input).endsWith('/authorize/server')) {
        const fault = faults[authorizeCalls++];
        return fault ? fault() : Response.json({ token: 'server-1234' });
      }
      return Response.json([]);
    };
    const client = new OmniClient({
      env: {
        id: 'e',
        baseUrl: 'https://omni.example/',
        authUrl: 'https://auth.example',
        apiVersion: '1.0',
        tokenHeader: 'X-Incode-Hardware-Id',
      },
      vault,
      fetch: fetchImpl,
      logger: createLogger({ sink: () => undefined }),
      retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 },
    });
    const answers = await Promise.all([
      client.call('listApiKeys', {}),
      client.call('listApiKeys', {}),
      client.call('listApiKeys', {}),
    ]);
    expect(answers).toEqual([[], [], []]);
    expect(authorizeCalls).toBe(4);
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates', () => {
    const now = Date.parse('2026-11-22T06:00:00Z');
    expect(parseRetryAfter('5', now)).toBe(5000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 06:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 05:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('reads nothing else as a date, and asks for a day at most', () => {
    const now = Date.parse('2026-11-22T06:00:00Z');
    // Date.parse had read these as dates long past: retried at once.
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('99999999999999999999', now)).toBeUndefined();
    expect(parseRetryAfter('999999', now)).toBe(86_400_000);
    expect(parseRetryAfter('Thu, 01 Jan 2099 00:00:00 GMT', now)).toBe(86_400_000);
  });
});
