import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorBody } from '../../../common/omni';
import { endpoints, type EndpointDef, type EndpointName } from '../../../main/omni/endpoints';
import { VIDEO_SELFIE_FIXTURE } from '../../../main/demo-server/media';
import { curpCases, rfcRegistry } from '../../../main/demo-server/registries';
import { customers, interviews } from '../../../main/demo-server/seed';
import { GOOD_IMAGE, pngBase64, startHarness, type Harness } from '../../helpers/demo-support';

/**
 * Drives every endpoint with every seeded interview, good and bad inputs and missing headers, then checks that
 * every single answer conforms to the shared contract: the endpoint's response schema on 2xx, the error body
 * otherwise (with `status` equal to the HTTP status, except the face-upload custom codes).
 */

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const DemoCredentials = z.object({ apiKey: z.string().min(1), integrationId: z.uuid(), secret: z.string().min(1) });
const DemoInterviews = z.array(
  z.object({
    interviewId: z.string().min(1),
    sessionToken: z.string().min(1),
    sessionStatus: z.enum(['Alive', 'Closed', 'Deleted']),
    label: z.string().min(1),
  }),
);

function inputsFor(name: EndpointName, video: string): Array<{ query?: Record<string, string>; body?: unknown }> {
  switch (name) {
    case 'authorizeServer':
      return [
        { body: { integration_id: h.credentials.integrationId, secret: h.credentials.secret } },
        { body: { secret: 'x' } },
        { body: 'not json' },
      ];
    case 'listApiKeys':
      return [{}, { query: { apiKey: 'org-aseguradora-demo' } }, { query: { apiKey: 'nope' } }];
    case 'validateRfc':
      return [
        ...rfcRegistry.map((r) => ({ body: { rfc: r.rfc } })),
        { body: { rfc: 'HEGG560427IU5' } },
        { body: { rfc: 'BAD' } },
        { body: {} },
      ];
    case 'addFace':
      return [
        { body: { base64Image: GOOD_IMAGE } },
        { body: { base64Image: pngBase64({ noise: 0 }) } },
        { body: { base64Image: 'AAAA' } },
        { body: { imageUrl: 'https://x.example/a.png' } },
        { body: {} },
      ];
    case 'calculateContractNom151':
      return [
        ...interviews.flatMap((i) =>
          i.contracts.map((c) => ({
            body: {
              signedContractId: c.documentId,
              includeSignedDocumentInResponse: true,
              includeCertificateDetailsInResponse: true,
            },
          })),
        ),
        { body: { signedContractId: 'nope' } },
      ];
    case 'authenticateFace':
      return [
        ...customers.map((c) => ({ body: { base64Image: GOOD_IMAGE, hint: c.hint } })),
        { body: { base64Image: GOOD_IMAGE } },
        { body: { base64Image: '@@' } },
      ];
    case 'addBackSecondId':
      return [
        ...Array.from({ length: 11 }, () => ({ body: { base64Image: GOOD_IMAGE }, query: { captureType: 'MANUAL' } })),
        { body: { base64Image: GOOD_IMAGE }, query: { captureType: 'WRONG' } },
      ];
    case 'importVideo':
      return [{ body: { video, type: 'selfie' } }, { body: { video: 'AAAA' } }, { body: { video, type: 'wrong' } }];
    case 'addConferenceNotes':
      return [{ body: { notes: 'Nota de revisión' } }, { body: { notes: '' } }];
    case 'signStringNom151':
      return [{ body: { stringToSign: 'texto' } }, { body: {} }];
    case 'addName':
      return [{ body: { name: 'Nombre' } }, { body: { name: '   ' } }];
    case 'addCurp':
      return [...curpCases.map((c) => ({ body: { curp: c.curp } })), { body: { curp: 'BAD' } }];
    case 'getContractLinks':
    case 'getRawIdvResults':
    case 'getCrossDocResults':
      return [{}, ...interviews.map((i) => ({ query: { id: i.id } })), { query: { id: 'nope' } }];
    case 'getVideoSelfieUrl':
      return [{}, ...interviews.map((i) => ({ query: { interviewId: i.id } }))];
  }
}

describe('demo server: contract conformance of every response', () => {
  it('answers every endpoint, every interview and every header failure within the contract', async () => {
    const video = (await readFile(VIDEO_SELFIE_FIXTURE)).toString('base64');
    const serverToken = await h.serverToken();
    for (const [name, def] of Object.entries(endpoints) as Array<[EndpointName, EndpointDef]>) {
      const tokens =
        def.token === 'none'
          ? [undefined]
          : def.token === 'server'
            ? [serverToken]
            : def.token === 'fetch'
              ? [serverToken, ...h.interviews.map((i) => i.sessionToken)]
              : h.interviews.map((i) => i.sessionToken);
      for (const token of tokens) {
        for (const input of inputsFor(name, video)) {
          const path = def.path + (input.query ? `?${new URLSearchParams(input.query)}` : '');
          const init = {
            method: def.method,
            ...(token ? { token } : {}),
            ...(def.method === 'POST' ? { body: input.body ?? {} } : {}),
          };
          await h.raw(path, init);
        }
      }
      const sample = def.method === 'POST' ? { body: {} } : {};
      await h.raw(def.path, { method: def.method, apiVersion: null, ...sample });
      await h.raw(def.path, { method: def.method, apiKey: null, ...sample });
      await h.raw(def.path, { method: def.method, apiKey: 'unknown', ...sample });
      if (def.token !== 'none') await h.raw(def.path, { method: def.method, ...sample });
      if (def.token !== 'none') await h.raw(def.path, { method: def.method, token: 'forged.token.value', ...sample });
    }
    await h.raw('/omni/does-not-exist');
    // Media links answer the same error body when refused.
    const { url } = JSON.parse(
      (await h.raw('/omni/generateVideoSelfieDownloadUrl', { token: h.session('demo-clean-pass') })).text,
    );
    const signed = new URL(url);
    await h.raw(`${signed.pathname}?expires=1&signature=abc`);
    await h.raw(signed.pathname);
    await h.raw(signed.pathname + signed.search, { headers: { range: 'bytes=99999999-' } });
    await h.raw('/files/contracts/nope.pdf');
    await h.raw('/omni/add/name', { method: 'POST', token: h.session('demo-clean-pass'), body: '{"name": ' });
    await h.raw('/omni/add/name', {
      method: 'POST',
      token: h.session('demo-clean-pass'),
      headers: { 'content-type': 'application/xml' },
      body: '<name/>',
    });

    const byPath = new Map(Object.entries(endpoints).map(([n, d]) => [d.path, n as EndpointName]));
    const problems: string[] = [];
    const statuses = new Set<number>();
    for (const r of h.seen) {
      const path = new URL(r.url).pathname;
      statuses.add(r.status);
      let json: unknown;
      try {
        json = JSON.parse(r.text);
      } catch {
        problems.push(`${r.method} ${r.url} ${r.status}: not JSON`);
        continue;
      }
      if (r.status >= 200 && r.status < 300) {
        const name = byPath.get(path);
        if (!name) continue;
        const parsed = endpoints[name].response.safeParse(json);
        if (!parsed.success)
          problems.push(
            `${name} ${r.status}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
          );
        if (!r.contentType.startsWith('application/json')) problems.push(`${name}: content-type ${r.contentType}`);
      } else {
        const parsed = ErrorBody.safeParse(json);
        if (!parsed.success) {
          problems.push(`${r.method} ${path} ${r.status}: not an error body`);
          continue;
        }
        const body = parsed.data;
        if (body.path !== path) problems.push(`${path}: error path ${body.path}`);
        if (!body.message) problems.push(`${path} ${r.status}: no message`);
        const custom =
          [4010, 4019, 4077, 4078].includes(body.status) && r.status === 400 && path === endpoints.addFace.path;
        if (body.status !== r.status && !custom)
          problems.push(`${path}: body status ${body.status} on HTTP ${r.status}`);
      }
    }
    expect(problems).toEqual([]);
    expect(h.seen.length).toBeGreaterThan(1500);
    for (const status of [200, 400, 401, 403, 404, 415, 416]) expect(statuses).toContain(status);
  }, 120_000);

  it('answers the /__demo/ routes in the shapes decisions.md fixes', async () => {
    expect(DemoCredentials.safeParse(await (await fetch(`${h.server.url}/__demo/credentials`)).json()).success).toBe(
      true,
    );
    expect(DemoInterviews.safeParse(await (await fetch(`${h.server.url}/__demo/interviews`)).json()).success).toBe(
      true,
    );
  });
});
