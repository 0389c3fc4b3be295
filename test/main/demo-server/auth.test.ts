import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { OmniError } from '../../../main/omni/omni-error';
import { startDemoServer } from '../../../main/demo-server';
import { startHarness, type Harness } from '../../helpers/demo-support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('demo server: headers, API keys and tokens', () => {
  it('authorizes with the app client and issues a 15-minute HS256 JWT on the server clock', async () => {
    const client = await h.client();
    const { expiresAt } = await client.authorize();
    const token = await h.serverToken();
    const claims = decodeJwt(token);
    expect(claims.exp! - claims.iat!).toBe(15 * 60);
    expect(claims.kind).toBe('server');
    expect(expiresAt).toBeGreaterThan(Date.now() + 14 * 60_000);
  });

  it('accepts either spelling of the integration id and refuses neither or two different values', async () => {
    const { integrationId, secret } = h.credentials;
    for (const body of [
      { integration_id: integrationId, secret },
      { integrationId, secret },
    ]) {
      const res = await h.raw('/v1/integration/authorize/server', { method: 'POST', body });
      expect(res.status).toBe(200);
    }
    const neither = await h.raw('/v1/integration/authorize/server', { method: 'POST', body: { secret } });
    expect(neither.status).toBe(400);
    expect(neither.json.message).toMatch(/integration_id/);
    const differ = await h.raw('/v1/integration/authorize/server', {
      method: 'POST',
      body: { integration_id: integrationId, integrationId: '11111111-1111-1111-1111-111111111111', secret },
    });
    expect(differ.status).toBe(400);
    expect(differ.json.message).toMatch(/differ/);
    const wrongSecret = await h.raw('/v1/integration/authorize/server', {
      method: 'POST',
      body: { integration_id: integrationId, secret: 'nope' },
    });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.json.message).toMatch(/secret/);
  });

  it('answers 400 with the error body when api-version is missing, even on the authorization path', async () => {
    for (const path of ['/omni/api-key', '/v1/integration/authorize/server']) {
      const res = await h.raw(path, {
        method: path.startsWith('/v1') ? 'POST' : 'GET',
        apiVersion: null,
        body: path.startsWith('/v1') ? {} : undefined,
      });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ status: 400, error: 'Bad Request', path });
      expect(res.json.message).toMatch(/api-version/);
      expect(typeof res.json.timestamp).toBe('number');
    }
  });

  it('answers 401 for a missing, unknown or disabled x-api-key', async () => {
    const missing = await h.raw('/omni/api-key', { apiKey: null });
    expect(missing.status).toBe(401);
    expect(missing.json.message).toMatch(/x-api-key is missing/);
    const unknown = await h.raw('/omni/api-key', { apiKey: 'not-a-key' });
    expect(unknown.status).toBe(401);
    const disabled = await h.raw('/omni/api-key', { apiKey: 'demo-fin-legacy-2b7f0a9e31' });
    expect(disabled.status).toBe(401);
    expect(disabled.json.message).toMatch(/disabled/);
  });

  it('answers 401 for a missing, forged or wrong-kind token, with a message naming the fix', async () => {
    const missing = await h.raw('/omni/api-key');
    expect(missing.status).toBe(401);
    expect(missing.json.message).toMatch(/X-Incode-Hardware-Id/);
    const token = await h.serverToken();
    const forged = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await h.raw('/omni/api-key', { token: forged })).status).toBe(401);
    const session = await h.raw('/omni/api-key', { token: h.session('demo-clean-pass') });
    expect(session.status).toBe(401);
    expect(session.json.message).toMatch(/server token/);
    const serverOnSessionWrite = await h.raw('/omni/add/name', { method: 'POST', token, body: { name: 'X' } });
    expect(serverOnSessionWrite.status).toBe(401);
    expect(serverOnSessionWrite.json.message).toMatch(/session token/);
  });

  it('expires server tokens when the server clock passes 15 minutes; the client re-authorizes and repeats once', async () => {
    const token = await h.serverToken();
    expect((await h.raw('/omni/api-key', { token })).status).toBe(200);
    const client = await h.client();
    await client.call('listApiKeys', {});
    await h.demo('clock', { advanceMs: 15 * 60_000 + 1_000 });
    const expired = await h.raw('/omni/api-key', { token });
    expect(expired.status).toBe(401);
    expect(expired.json.message).toMatch(/expired/);
    // The client's own clock did not move, so it only learns from the 401, renews and succeeds.
    const keys = await client.call('listApiKeys', {});
    expect(keys.length).toBeGreaterThan(0);
    await h.demo('reset');
  });

  it('scopes session tokens to their interview and tokens to their organization', async () => {
    const client = await h.client();
    // Session token of one interview cannot read another by id.
    const other = await h.raw('/omni/get/raw-idv-results?id=demo-fraud-high', { token: h.session('demo-clean-pass') });
    expect(other.status).toBe(401);
    expect(other.json.message).toMatch(/belongs to interview demo-clean-pass/);
    // ...but may name its own interview.
    expect(
      (await h.raw('/omni/get/raw-idv-results?id=demo-clean-pass', { token: h.session('demo-clean-pass') })).status,
    ).toBe(200);
    // Another organization's interview is unknown to this organization.
    await expect(client.call('getRawIdvResults', { query: { id: 'demo-orgb-onboarding' } })).rejects.toMatchObject({
      httpStatus: 400,
    });
    const orgB = h.credentials.organizations[1]!;
    const orgBClient = await h.client({ credentials: orgB });
    expect(
      await orgBClient.call(
        'addName',
        { body: { name: 'Ulises Navarro Prieto' } },
        { interviewId: 'demo-orgb-onboarding' },
      ),
    ).toMatchObject({ success: true });
    expect(
      (await orgBClient.call('getCrossDocResults', { query: { id: 'demo-orgb-onboarding' } })).fullName,
    ).toBeDefined();
    await expect(
      client.call('addName', { body: { name: 'x' } }, { interviewId: 'demo-orgb-onboarding' }),
    ).rejects.toMatchObject({ httpStatus: 401 });
    const orgBToken = await h.serverToken(orgB);
    const crossOrg = await h.raw('/omni/api-key', { token: orgBToken });
    expect(crossOrg.status).toBe(401);
    expect(crossOrg.json.message).toMatch(/another organization/);
    // Unknown interview id: 400.
    const unknown = await h.raw('/omni/get/raw-idv-results?id=nope', { token: await h.serverToken() });
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toMatch(/Unknown interview id nope/);
    // A server token without an id on a fetch endpoint: told to pass the id or use the session token.
    const noId = await h.raw('/omni/get/raw-idv-results', { token: await h.serverToken() });
    expect(noId.status).toBe(401);
    expect(noId.json.message).toMatch(/pass the interview id/);
  });

  it('lists API keys: the super administrator may pick another organization; anyone else gets their own', async () => {
    const admin = await h.client();
    const own = await admin.call('listApiKeys', {});
    expect(own.map((k) => k.id).sort()).toEqual(['key-fin-admin', 'key-fin-crm', 'key-fin-legacy']);
    for (const record of own) {
      expect(record.maskedKey).toMatch(/••••/);
      expect(JSON.stringify(record)).not.toMatch(/demo-fin-admin-4c1f9b2e7d/);
    }
    expect(own.find((k) => k.id === 'key-fin-legacy')?.enabled).toBe(false);
    const orgB = await admin.call('listApiKeys', { query: { apiKey: 'org-aseguradora-demo' } });
    expect(orgB.map((k) => k.id).sort()).toEqual(['key-ase-main', 'key-ase-portal']);
    const byKey = await admin.call('listApiKeys', { query: { apiKey: h.credentials.organizations[1]!.apiKey } });
    expect(byKey.map((k) => k.id).sort()).toEqual(['key-ase-main', 'key-ase-portal']);
    await expect(admin.call('listApiKeys', { query: { apiKey: 'org-unknown' } })).rejects.toMatchObject({
      httpStatus: 400,
    });

    const plain = await h.client({ credentials: h.credentials.organizations[1]! });
    const ignored = await plain.call('listApiKeys', { query: { apiKey: 'org-financiera-demo' } });
    expect(ignored.map((k) => k.id).sort()).toEqual(['key-ase-main', 'key-ase-portal']);
  });

  it('reports client errors as OmniError with the service message', async () => {
    const client = await h.client({ credentials: { ...h.credentials, secret: 'wrong' } });
    const err = await client.call('listApiKeys', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OmniError);
    expect((err as OmniError).httpStatus).toBe(401);
    expect((err as OmniError).body?.message).toMatch(/secret/);
  });

  it('binds loopback only unless allowNonLoopback is set', async () => {
    await expect(startDemoServer({ host: '0.0.0.0' })).rejects.toThrow(/allowNonLoopback/);
    const server = await startDemoServer({ host: '127.0.0.1' });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await server.close();
  });
});
