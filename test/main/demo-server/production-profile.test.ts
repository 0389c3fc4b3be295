import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { unreadFieldsOf } from '../../../common/omni';
import { VIDEO_SELFIE_FIXTURE } from '../../../main/demo-server/media';
import { BEYOND_SPEC, CHECK_BEYOND_SPEC } from '../../../main/demo-server/production-profile';
import { verifyEvidence } from '../../../main/nom151/verify';
import type { OmniClient } from '../../../main/omni/client';
import { endpoints, type EndpointName } from '../../../main/omni/endpoints';
import { GOOD_IMAGE, jpegBase64, startHarness, type Harness } from '../../helpers/demo-support';
import { at, isRecord, leavesOf, sameValue, type Leaf } from '../../helpers/json-leaves';

/**
 * Every endpoint of the endpoint table against the demo service's production profile: nulls for absent optional
 * fields, epoch times, page-wrapped lists, enum values beyond the spec, gzip on every answer, ISO error times and the
 * standard sealed layout. No answer may be rejected, and what came beyond the spec is kept.
 */
let h: Harness;
let client: OmniClient;

beforeAll(async () => {
  h = await startHarness({ profile: 'production-like' });
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.server.reset();
  client = await h.client();
});

const iv = { interviewId: 'demo-clean-pass' };

const matrix: { [N in EndpointName]: (c: OmniClient) => Promise<unknown> } = {
  authorizeServer: (c) =>
    c.call('authorizeServer', {
      body: {
        integration_id: h.credentials.integrationId,
        integrationId: h.credentials.integrationId,
        secret: h.credentials.secret,
      },
    }),
  listApiKeys: (c) => c.call('listApiKeys', {}),
  validateRfc: (c) => c.call('validateRfc', { body: { rfc: 'GODE561231GR8' } }),
  addFace: (c) => c.call('addFace', { body: { base64Image: GOOD_IMAGE } }, iv),
  calculateContractNom151: (c) =>
    c.call('calculateContractNom151', {
      body: { signedContractId: 'demo-clean-pass-credito', includeCertificateDetailsInResponse: true },
    }),
  authenticateFace: (c) =>
    c.call('authenticateFace', { body: { base64Image: GOOD_IMAGE, hint: 'spoof-attempt-detected@demo.mx' } }),
  addBackSecondId: (c) =>
    c.call('addBackSecondId', { body: { base64Image: jpegBase64({ width: 640, height: 400 }) } }, iv),
  importVideo: async (c) =>
    c.call('importVideo', { body: { video: (await readFile(VIDEO_SELFIE_FIXTURE)).toString('base64') } }, iv),
  addConferenceNotes: (c) => c.call('addConferenceNotes', { body: { notes: 'Revisado.' } }, iv),
  signStringNom151: (c) => c.call('signStringNom151', { body: { stringToSign: 'Acepto' } }),
  addName: (c) => c.call('addName', { body: { name: 'Ana López' } }, iv),
  getContractLinks: (c) => c.call('getContractLinks', { query: { id: 'demo-contracts-many' } }),
  getRawIdvResults: (c) => c.call('getRawIdvResults', { query: { id: 'demo-fraud-high' } }),
  addCurp: (c) => c.call('addCurp', { body: { curp: 'HEGG560427MVZRRL04' } }, iv),
  getVideoSelfieUrl: (c) => c.call('getVideoSelfieUrl', { query: { interviewId: 'demo-clean-pass' } }),
  getCrossDocResults: (c) => c.call('getCrossDocResults', { query: { id: 'demo-fraud-high' } }),
};

/** GET an endpoint with a plain node:http request, to see the answer's bytes and headers as they travel. */
async function rawGet(path: string): Promise<{ headers: http.IncomingHttpHeaders; json: unknown }> {
  const token = await h.serverToken();
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${h.server.url}${path}`,
      {
        headers: {
          'api-version': '1.0',
          'x-api-key': h.credentials.apiKey,
          'x-incode-hardware-id': token,
          'accept-encoding': 'gzip',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const text = (res.headers['content-encoding'] === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8');
          resolve({ headers: res.headers, json: JSON.parse(text) });
        });
      },
    );
    req.on('error', reject);
  });
}

/** Read at its own path, or set aside as it came under `unreadFields` of an object on the way there. */
function foundIn(read: unknown, path: string[], value: Leaf[1]): boolean {
  if (sameValue(value, at(read, path))) return true;
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const unread = unreadFieldsOf(at(read, path.slice(0, depth)));
    const key = path[depth] as string;
    if (!(key in unread)) continue;
    const kept = unread[key];
    // An array item that did not fit sits under the array's name, not at its index.
    return sameValue(value, at(kept, path.slice(depth + 1))) || leavesOf(kept).some(([, v]) => sameValue(value, v));
  }
  return false;
}

describe('demo service, production profile', () => {
  it('the matrix covers every endpoint of the endpoint table', () => {
    expect(Object.keys(matrix).sort()).toEqual(Object.keys(endpoints).sort());
  });

  it.each(Object.keys(matrix) as EndpointName[])('%s: the answer is read, not rejected', async (name) => {
    await expect(matrix[name](client)).resolves.toBeDefined();
  });

  it.each(Object.keys(matrix) as EndpointName[])(
    '%s: every value the service sent is in what the client returns, read or kept as unread',
    async (name) => {
      h.seen.length = 0;
      const read = await matrix[name](client);
      const answer = h.seen.findLast((r) => new URL(r.url).pathname === endpoints[name].path);
      expect(answer, `${name}: the answer as it travelled`).toBeDefined();
      expect(answer!.status).toBeLessThan(300);
      let sent: unknown = JSON.parse(answer!.text);
      if (Array.isArray(read) && isRecord(sent) && Array.isArray(sent.content)) {
        // A page wrapper's counts describe the list, which is read whole.
        expect(sent.totalElements).toBe(sent.content.length);
        sent = sent.content;
      }
      const leaves = leavesOf(sent);
      expect(leaves.length, `${name}: the answer has values to compare`).toBeGreaterThan(0);
      expect(leaves.filter(([path, value]) => !foundIn(read, path, value)).map(([path]) => path.join('.'))).toEqual([]);
    },
  );

  it('answers gzip, page-wrapped lists with epoch times, and null for absent optional fields', async () => {
    const keys = await rawGet('/omni/api-key');
    expect(keys.headers['content-encoding']).toBe('gzip');
    const page = keys.json as { content: Array<Record<string, unknown>>; totalElements: number };
    expect(page.totalElements).toBe(page.content.length);
    expect(typeof page.content[0]!.createdAt).toBe('number');

    const idv = await rawGet('/omni/get/raw-idv-results?id=demo-clean-pass');
    expect(idv.headers['content-encoding']).toBe('gzip');
    const passed = await client.call('authenticateFace', {
      body: { base64Image: GOOD_IMAGE, hint: 'ana.lopez@demo.mx' },
    });
    expect(passed).toMatchObject({ overallStatus: 'PASS' });
    expect(JSON.parse(h.seen.at(-1)!.text)).toMatchObject({ overallStatus: 'PASS', error: null });
    const deleted = await rawGet('/omni/get/contracts-links?id=demo-deleted');
    expect(deleted.json).toEqual({
      success: false,
      sessionStatus: 'Deleted',
      additionalInformation: null,
      traceId: expect.any(String),
    });

    const read = await client.call('listApiKeys', {});
    expect(read).toHaveLength(page.content.length);
    expect(read[0]!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('keeps enum values beyond the spec as they came', async () => {
    const idv = await client.call('getRawIdvResults', { query: { id: 'demo-fraud-high' } });
    expect(idv.checkResults).toContainEqual({ ...CHECK_BEYOND_SPEC, engine: BEYOND_SPEC.checkEngine });
    expect(idv.fraudRisk?.severity).toBe('HIGH');
    expect(unreadFieldsOf(idv)).toEqual({});
    const auth = await matrix.authenticateFace(client);
    expect(auth).toMatchObject({ overallStatus: 'FAIL', error: { name: 'DEEPFAKE_DETECTED' } });
  });

  it('seals contracts in the standard layout, which verifies offline', async () => {
    const sealed = await client.call('calculateContractNom151', {
      body: { signedContractId: 'demo-clean-pass-credito', includeCertificateDetailsInResponse: true },
    });
    const pdf = Buffer.from(sealed.additionalInformation!.signedDocumentWithNomSignatureBase64!, 'base64');
    const root = await (await fetch(`${h.server.url}/__demo/nom151-root.pem`)).text();
    const result = await verifyEvidence({ evidence: pdf, trustedRootsPem: [root] });
    expect(result.failures).toEqual([]);
    expect(result.source.document).toBe('original-revision');
  });

  it('errors carry ISO times; 502/503/504 come as a gateway web page; Retry-After as asked; a switch back to spec', async () => {
    await h.demo('faults', { route: 'getCrossDocResults', kind: 'status', status: 429, retryAfterS: 7 });
    const limited = await client
      .call('getCrossDocResults', { query: { id: 'demo-clean-pass' } })
      .catch((e: unknown) => e as { retryAfterMs?: number; body?: { timestamp: string } });
    expect(limited).toMatchObject({ retryAfterMs: 7000 });
    expect((limited as { body: { timestamp: string } }).body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);

    await h.demo('faults', { route: 'getCrossDocResults', kind: 'status', status: 502 });
    const gateway = await client
      .call('getCrossDocResults', { query: { id: 'demo-clean-pass' } })
      .catch((e: { toIpcError(): { message: { en: string }; details?: Record<string, unknown> } }) => e.toIpcError());
    // A gateway's page is a passing outage, not a wrong address.
    expect(gateway).toMatchObject({ message: { en: 'The service is not answering right now.' } });
    expect((gateway as { details: Record<string, unknown> }).details.serviceMessage).toMatch(/^502 Bad Gateway/);

    await h.demo('profile', { profile: 'spec' });
    expect((await rawGet('/omni/api-key')).json).toBeInstanceOf(Array);
  });
});
