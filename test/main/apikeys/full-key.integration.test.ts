import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceDestination } from '../../../main/auth/destination';
import { MemoryVault } from '../../../main/auth/memory-vault';
import { OmniClient } from '../../../main/omni/client';
import { createRouter } from '../../../main/ipc/router';
import { handlers } from '../../../main/ipc/handlers/index';
import { ensureMasked as masked, isMasked } from '../../../main/omni/answer';
import type { ApiKeyListView } from '../../../common/ipc/apikeys';
import { startTestServer, type TestServer } from '../../helpers/omni-test-server';
import { APP_URL, callThrough, serviceContext } from '../../helpers/router-calls';

/** No shape of key listing puts a full key in the rows or the raw view (red team 7, H2). */

const API_KEY = 'live-apikey-Zq81kLm0PpW3';
const OTHER = 'omni_live_7Hq2Kx9Lm4Np8Rt1Vw5Yz3Bc6Df0Gj';
const records = [
  { id: 'k1', name: 'star-inside', maskedKey: `${OTHER}*` },
  { id: 'k2', name: 'array', maskedKey: [OTHER] },
  { id: 'k3', name: 'object', maskedKey: { full: OTHER } },
  { id: 'k4', name: 'secretKey', secretKey: OTHER },
  { id: 'k5', name: 'apiSecret', apiSecret: OTHER, privateKey: OTHER, keyValue: OTHER, credential: OTHER },
  { id: 'k6', name: API_KEY, prefix: API_KEY },
  { id: 'k7', name: 'nested', details: { key: OTHER, apiKey: OTHER, note: 'kept' } },
  { id: 'k8', name: 'held key, one star', maskedKey: `${API_KEY.slice(0, 6)}*${API_KEY.slice(7)}` },
  { id: 'k9', name: 'spec', maskedKey: 'demo-fin••••9b2e', organizationId: 'org-1' },
];

let server: TestServer;
let view: ApiKeyListView;

beforeAll(async () => {
  server = await startTestServer({ 'GET /omni/api-key': () => ({ json: records }) });
  const vault = new MemoryVault();
  const to = serviceDestination({ id: 'e', baseUrl: server.url, authUrl: server.url });
  await vault.setCredential(to, 'apiKey', API_KEY);
  await vault.setCredential(to, 'integrationId', 'integration-1');
  await vault.setCredential(to, 'secret', 'live-secret-9f8e7d6c5b4a');
  const client = new OmniClient({
    env: { id: 'e', baseUrl: server.url, authUrl: server.url, apiVersion: '1.0', tokenHeader: 'X-Incode-Hardware-Id' },
    vault,
    retry: { attempts: 1, baseDelayMs: 5, maxDelayMs: 20 },
  });
  const router = createRouter({ handlers, context: serviceContext(client, []), appUrl: APP_URL });
  view = await callThrough<ApiKeyListView>(router, 'apikeys.list', {});
});
afterAll(() => server.close());

const row = (id: string) => view.keys.find((k) => k.id === id)!;

describe('API key listing with full keys in it', () => {
  it('has no full key anywhere: rows, extra columns or the raw view', () => {
    const text = JSON.stringify(view);
    expect(text).not.toContain(OTHER);
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(API_KEY.slice(7));
  });

  it('drops fields named like a key, nested ones included, and redacts the held key in plain fields', () => {
    expect(row('k4').extra).not.toHaveProperty('secretKey');
    expect(Object.keys(row('k5').extra)).toEqual([]);
    expect(row('k6')).toMatchObject({ name: '[redacted]', extra: { prefix: '[redacted]' } });
    expect(JSON.parse(String(row('k7').extra.details))).toEqual({
      key: '[redacted]',
      apiKey: '[redacted]',
      note: 'kept',
    });
  });

  it('masks a maskedKey that is a full key with a star, or a list or object', () => {
    expect(row('k1').maskedKey).toBe('omni••••f0Gj');
    expect(row('k2').extra.maskedKey).toBe('["omni••••f0Gj"]');
    expect(row('k3').extra.maskedKey).toBe('{"full":"omni••••f0Gj"}');
    expect(row('k8').maskedKey).toMatch(/^live••••PpW3$/);
  });

  it('still shows the masked form the spec describes', () => {
    expect(row('k9')).toMatchObject({ maskedKey: 'demo-fin••••9b2e', extra: { organizationId: 'org-1' } });
    expect(view.answer.body).toContainEqual(expect.objectContaining({ id: 'k9', maskedKey: 'demo-fin••••9b2e' }));
  });
});

describe('isMasked', () => {
  it('accepts mostly masked values only', () => {
    for (const v of ['demo-fin••••9b2e', '****1234', '••••', 'abcd…wxyz'.replace('…', '•••')])
      expect(isMasked(v)).toBe(true);
    for (const v of [`${OTHER}*`, 'abcdefghijkl••••', 'ab•cdefghijklmnop', '0123456789abc•••x'])
      expect(isMasked(v)).toBe(false);
    expect(masked('short*')).toBe('••••');
  });
});
