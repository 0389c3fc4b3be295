import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_IMAGE, fail, startHarness, type Harness } from '../../helpers/demo-support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(() => h.demo('reset'));

describe('demo server: injected faults', () => {
  it('status: the next `times` calls fail with that status, then the route recovers (RFC 500)', async () => {
    const client = await h.client();
    expect(await h.demo('faults', { route: '/api/validate/rfc', kind: 'status', status: 500, times: 2 })).toMatchObject(
      { ok: true, route: '/api/validate/rfc', pending: 2 },
    );
    for (let i = 0; i < 2; i++) {
      const err = await fail(client.call('validateRfc', { body: { rfc: 'GODE561231GR8' } }));
      expect(err.httpStatus).toBe(500);
      expect(err.body).toMatchObject({ status: 500, error: 'Internal Server Error', path: '/api/validate/rfc' });
      expect(err.body?.message).toMatch(/Injected fault/);
    }
    expect((await client.call('validateRfc', { body: { rfc: 'GODE561231GR8' } })).validRFC).toBe(true);
  });

  it('status 429 carries Retry-After; the client waits for it and retries a GET', async () => {
    await h.demo('faults', { route: 'getRawIdvResults', kind: 'status', status: 429 });
    const direct = await h.raw('/omni/get/raw-idv-results?id=demo-clean-pass', { token: await h.serverToken() });
    expect(direct.status).toBe(429);
    expect(direct.headers.get('retry-after')).toBe('2');
    await h.demo('faults', { route: 'getRawIdvResults', kind: 'status', status: 429 });
    const client = await h.client({ retryAttempts: 2 });
    const started = Date.now();
    expect(
      (await client.call('getRawIdvResults', { query: { id: 'demo-clean-pass' } })).checkResults.length,
    ).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
  });

  it('delay: the call answers normally after the delay', async () => {
    const client = await h.client();
    await h.demo('faults', { route: '/omni/api-key', kind: 'delay', delayMs: 300 });
    await client.authorize();
    const started = Date.now();
    await client.call('listApiKeys', {});
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('reset: the connection is dropped without an answer; a retried GET recovers', async () => {
    await h.demo('faults', { route: 'getCrossDocResults', kind: 'reset' });
    const once = await h.client();
    const err = await fail(once.call('getCrossDocResults', { query: { id: 'demo-clean-pass' } }));
    expect(err.kind).toBe('network');
    await h.demo('faults', { route: 'getCrossDocResults', kind: 'reset' });
    const retrying = await h.client({ retryAttempts: 2 });
    expect(await retrying.call('getCrossDocResults', { query: { id: 'demo-clean-pass' } })).toHaveProperty('fullName');
  });

  it('malformed: a 200 whose body is not JSON', async () => {
    await h.demo('faults', { route: '/omni/add/name', kind: 'malformed' });
    const raw = await h.raw('/omni/add/name', {
      method: 'POST',
      token: h.session('demo-clean-pass'),
      body: { name: 'x' },
    });
    expect(raw.status).toBe(200);
    expect(() => JSON.parse(raw.text)).toThrow();
    await h.demo('faults', { route: 'addName', kind: 'malformed' });
    const client = await h.client();
    const err = await fail(client.call('addName', { body: { name: 'Ana' } }, { interviewId: 'demo-clean-pass' }));
    expect(err.kind).toBe('schema');
  });

  it('refuses unknown routes and bad control bodies', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${h.server.url}/__demo/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const unknown = await post('faults', { route: '/omni/nope', kind: 'status' });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).message).toMatch(/Unknown route/);
    expect((await post('faults', { route: 'addName', kind: 'explode' })).status).toBe(400);
    expect((await post('clock', { advanceMs: -5 })).status).toBe(400);
  });
});

describe('demo server: reset and clock', () => {
  it('reset puts every interview, attempt counter, recording and fault back to the seed', async () => {
    const client = await h.client();
    await client.call('addName', { body: { name: 'Cambiado' } }, { interviewId: 'demo-clean-pass' });
    await client.call('addFace', { body: { base64Image: GOOD_IMAGE } }, { interviewId: 'demo-attempts-limited' });
    await client.call(
      'importVideo',
      { body: { video: Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3, 4]).toString('base64') } },
      { interviewId: 'demo-clean-pass' },
    );
    await h.demo('faults', { route: 'addName', kind: 'status', status: 503, times: 5 });
    await h.demo('clock', { advanceMs: 20 * 60_000 });
    await h.server.reset();
    const state = await (await fetch(`${h.server.url}/__demo/interviews/demo-clean-pass`)).json();
    expect(state.name).toBeNull();
    expect(await (await fetch(`${h.server.url}/__demo/interviews/demo-clean-pass/recordings`)).json()).toEqual([]);
    const again = await client.call(
      'addFace',
      { body: { base64Image: GOOD_IMAGE } },
      { interviewId: 'demo-attempts-limited' },
    );
    expect(again.captureAttemptsLimit).toEqual({ max: 3, remaining: 2 });
    expect(await client.call('addName', { body: { name: 'Ana' } }, { interviewId: 'demo-clean-pass' })).toMatchObject({
      success: true,
    });
  });

  it('clock moves the server time forward and reports it', async () => {
    const before = Date.now();
    const { now } = await h.demo('clock', { advanceMs: 3_600_000 });
    expect(now - before).toBeGreaterThanOrEqual(3_600_000);
    const token = await h.serverToken();
    const { exp, iat } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(iat * 1000).toBeGreaterThanOrEqual(before + 3_599_000);
    expect(exp - iat).toBe(900);
  });

  it('lists seeded interviews with session tokens that work', async () => {
    const labels = h.interviews.map((i) => i.interviewId);
    for (const id of [
      'demo-clean-pass',
      'demo-fraud-high',
      'demo-empty-idv',
      'demo-closed',
      'demo-deleted',
      'demo-orgb-onboarding',
    ])
      expect(labels).toContain(id);
    expect(new Set(h.interviews.map((i) => i.sessionStatus))).toEqual(new Set(['Alive', 'Closed', 'Deleted']));
    const res = await h.raw('/omni/cross-doc-data-check/results', { token: h.session('demo-deleted') });
    expect(res.status).toBe(200);
    const orgB = await (await fetch(`${h.server.url}/__demo/interviews?organizationId=org-aseguradora-demo`)).json();
    expect(orgB.map((i: { interviewId: string }) => i.interviewId)).toEqual(['demo-orgb-onboarding']);
  });
});
