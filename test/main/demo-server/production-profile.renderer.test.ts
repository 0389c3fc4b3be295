import { startTestApp } from '../../helpers/app-context';
import { mkdtempSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unreadFieldsOf } from '../../../common/omni';
import type { ServiceAnswer } from '../../../common/views';
import type { ImportJobView } from '../../../common/ipc/capture';
import { type AppContextHandle } from '../../../main/app-context';
import { streamingFetch } from '../../../main/capture/streaming-fetch';
import { captureState } from '../../../main/capture/state';
import { startDemoServer } from '../../../main/demo-server/index';
import { VIDEO_SELFIE_FIXTURE } from '../../../main/demo-server/media';
import { handlers } from '../../../main/ipc/handlers/index';
import { createRouter } from '../../../main/ipc/router';
import { REDACTED } from '../../../main/log';
import { abbreviated, isSecretField, LONG_TEXT, withoutUrlQuery } from '../../../main/omni/answer';
import { endpoints, type EndpointName } from '../../../main/omni/endpoints';
import { GOOD_IMAGE, jpegBase64 } from '../../helpers/demo-support';
import { at, isRecord, leavesOf, sameValue, type Leaf } from '../../helpers/json-leaves';

/**
 * The proof, endpoint by endpoint under the production profile: every value the service sent reaches the
 * renderer, in the view or in the answer the screen's raw view shows, except secrets, which never do. The calls go
 * through the app as the screens make them (the IPC router over a full app context), and what crosses IPC is read
 * after a JSON round trip, as the renderer gets it.
 */
const APP_URL = 'http://127.0.0.1:1';
const dataDir = mkdtempSync(join(tmpdir(), 'omni-production-renderer-'));
let app: AppContextHandle;
let router: ReturnType<typeof createRouter>;
/** Every answer the service gave the app, decoded, by path. */
const sent: { path: string; text: string }[] = [];
/** Everything that crossed IPC to the renderer, as JSON. */
const rendered: string[] = [];
/** Every server token the service issued to the app. */
const serverTokens: string[] = [];

async function call<T>(channel: string, input: unknown): Promise<T> {
  const result = await router.handle(channel, input, { url: `${APP_URL}/`, isMainFrame: true });
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message.en}`);
  const json = JSON.stringify(result.data);
  rendered.push(json);
  return JSON.parse(json) as T;
}

function decoded(bytes: Buffer, encoding: string | null): string {
  // Node's fetch decodes by itself; the streamed-upload path hands the bytes over as they came.
  const magic = bytes[0] === 0x1f && bytes[1] === 0x8b;
  if (encoding === 'gzip' && magic) return gunzipSync(bytes).toString('utf8');
  if (encoding === 'br' && bytes[0] !== 0x7b) return brotliDecompressSync(bytes).toString('utf8');
  if (encoding === 'deflate' && bytes[0] !== 0x7b) return inflateSync(bytes).toString('utf8');
  return bytes.toString('utf8');
}

beforeAll(async () => {
  const base = streamingFetch();
  const recording: typeof fetch = async (input, init) => {
    const res = await base(input, init);
    const bytes = Buffer.from(await res.clone().arrayBuffer());
    const path = new URL(String(input instanceof Request ? input.url : input)).pathname;
    const text = decoded(bytes, res.headers.get('content-encoding'));
    sent.push({ path, text });
    if (path === endpoints.authorizeServer.path && res.ok)
      serverTokens.push((JSON.parse(text) as { token: string }).token);
    return res;
  };
  app = await startTestApp(dataDir, {
    startDemo: () => startDemoServer({ port: 0, profile: 'production-like', maxBodyBytes: 8 * 1024 * 1024 }),
    fetch: recording,
  });
  router = createRouter({ handlers, context: app.context, appUrl: APP_URL });
  await call('queue.addDemoSeeds', {});
}, 60_000);
afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const iv = 'demo-clean-pass';
const photo = { kind: 'file', base64: GOOD_IMAGE, mimeType: 'image/png', name: 'selfie.png' };

/** Each endpoint called the way its screen calls it; the answer the renderer gets for that call. */
const screens: { [N in Exclude<EndpointName, 'authorizeServer'>]: () => Promise<ServiceAnswer | undefined> } = {
  listApiKeys: async () => (await call<{ answer: ServiceAnswer }>('apikeys.list', {})).answer,
  validateRfc: async () =>
    (await call<{ answer: ServiceAnswer }>('validation.validateRfc', { rfc: 'GODE561231GR8' })).answer,
  addCurp: async () =>
    (await call<{ answer: ServiceAnswer }>('validation.addCurp', { interviewId: iv, curp: 'HEGG560427MVZRRL04' }))
      .answer,
  addFace: async () =>
    (await call<{ answer: ServiceAnswer }>('capture.addFace', { interviewId: iv, image: photo })).answer,
  addBackSecondId: async () =>
    (
      await call<{ answer: ServiceAnswer }>('capture.addBackSecondId', {
        interviewId: iv,
        image: { ...photo, base64: jpegBase64({ width: 640, height: 400 }), mimeType: 'image/jpeg' },
      })
    ).answer,
  authenticateFace: async () =>
    (
      await call<{ answer: ServiceAnswer }>('capture.authenticateFace', {
        image: photo,
        hint: 'spoof-attempt-detected@demo.mx',
      })
    ).answer,
  importVideo: async () => {
    const staged = await captureState(app.context).staged.receive(
      Readable.from([await readFile(VIDEO_SELFIE_FIXTURE)]),
      { name: 'selfie.webm' },
    );
    const started = await call<ImportJobView>('capture.importVideoStart', { interviewId: iv, stagedFileId: staged.id });
    await captureState(app.context).imports.settled(started.jobId);
    const done = await call<ImportJobView>('capture.importVideoStatus', { jobId: started.jobId });
    expect(done.state).toBe('done');
    return done.answer;
  },
  signStringNom151: async () => (await call<{ answer: ServiceAnswer }>('nom151.signString', { text: 'Acepto' })).answer,
  calculateContractNom151: async () =>
    (
      await call<{ answer: ServiceAnswer }>('nom151.sealContract', {
        signedContractId: 'demo-clean-pass-credito',
        includeSignedDocument: true,
        includeSealedPdf: true,
      })
    ).answer,
  addConferenceNotes: async () => {
    await call('interview.saveDraft', { interviewId: iv, kind: 'notes', text: 'Revisado.' });
    return (await call<{ answer: ServiceAnswer }>('interview.sendNotes', { interviewId: iv })).answer;
  },
  addName: async () => {
    await call('interview.saveDraft', { interviewId: iv, kind: 'name', text: 'Ana López' });
    return (await call<{ answer: ServiceAnswer }>('interview.sendName', { interviewId: iv })).answer;
  },
  getRawIdvResults: async () =>
    (await call<{ data: { answer: ServiceAnswer } }>('interview.rawIdv', { interviewId: 'demo-fraud-high' })).data
      .answer,
  getCrossDocResults: async () =>
    (await call<{ data: { answer: ServiceAnswer } }>('interview.crossDoc', { interviewId: 'demo-fraud-high' })).data
      .answer,
  getContractLinks: async () =>
    (await call<{ data: { answer: ServiceAnswer } }>('interview.contracts', { interviewId: 'demo-contracts-many' }))
      .data.answer,
  getVideoSelfieUrl: async () =>
    (await call<{ data: { answer: ServiceAnswer } }>('interview.video', { interviewId: iv })).data.answer,
};

/** What the raw view must show for a value the service sent: secrets redacted, URL queries cut, files abbreviated. */
function expectedShown(path: string[], value: Leaf[1], name: EndpointName): unknown {
  if (path.some((key) => isSecretField(name, key))) return REDACTED;
  if (typeof value !== 'string') return value;
  const cut = withoutUrlQuery(value);
  return cut.length > LONG_TEXT ? abbreviated(cut) : cut;
}

/** At its own path in the answer, or set aside as it came under `unreadFields` of an object on the way. */
function shownIn(body: unknown, path: string[], expected: unknown): boolean {
  if (sameValue(expected, at(body, path))) return true;
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const unread = unreadFieldsOf(at(body, path.slice(0, depth)));
    const key = path[depth]!;
    if (key in unread) return leavesOf(unread[key]).some(([, v]) => sameValue(expected, v));
  }
  return false;
}

describe('production profile: what the service sent reaches the renderer', () => {
  it('the matrix covers every endpoint a screen calls (the authorization answer is the server token, kept in main)', () => {
    expect(Object.keys(screens).sort()).toEqual(
      Object.keys(endpoints)
        .filter((n) => n !== 'authorizeServer')
        .sort(),
    );
  });

  it.each(Object.keys(screens) as Exclude<EndpointName, 'authorizeServer'>[])(
    '%s: every value sent is in the answer the screen shows; fields beyond the spec are listed',
    async (name) => {
      sent.length = 0;
      const answer = await screens[name]();
      expect(answer, `${name}: the view carries the answer`).toBeDefined();
      expect(answer!.endpoint).toBe(name);
      const travelled = sent.findLast((s) => s.path === endpoints[name].path);
      expect(travelled, `${name}: the answer as it travelled`).toBeDefined();
      let body: unknown = JSON.parse(travelled!.text);
      // A page wrapper's counts describe the list, which is read whole.
      if (Array.isArray(answer!.body) && isRecord(body) && Array.isArray(body.content)) {
        expect(body.totalElements).toBe(body.content.length);
        body = body.content;
      }
      const leaves = leavesOf(body);
      expect(leaves.length).toBeGreaterThan(0);
      const missing = leaves.filter(([path, value]) => !shownIn(answer!.body, path, expectedShown(path, value, name)));
      expect(missing.map(([path]) => path.join('.'))).toEqual([]);
      expect(answer!.beyondSpec.length, `${name}: the production profile adds fields beyond the spec`).toBeGreaterThan(
        0,
      );
      for (const { path, value } of answer!.beyondSpec) expect(at(answer!.body, path.split('.'))).toEqual(value);
    },
  );

  it('no secret reaches the renderer: server token, session tokens, credentials, pre-signed URL queries', async () => {
    const demoUrl = app.demoUrl()!;
    const interviews: { sessionToken: string }[] = await (await fetch(`${demoUrl}/__demo/interviews`)).json();
    const credentials: Record<string, string> = await (await fetch(`${demoUrl}/__demo/credentials`)).json();
    expect(serverTokens.length).toBeGreaterThan(0);
    const secrets = [
      ...serverTokens,
      ...interviews.map((i) => i.sessionToken),
      credentials.apiKey!,
      credentials.secret!,
    ].filter((s) => typeof s === 'string' && s.length >= 8);
    expect(secrets.length).toBeGreaterThan(3);
    const everything = rendered.join('\n');
    // Links were sent, each with its pre-signed query cut.
    expect(everything).toContain('/files/contracts/demo-contracts-many-credito.pdf?…');
    for (const secret of secrets) expect(everything).not.toContain(secret);
    expect(everything).not.toMatch(/X-Amz-Signature|[?&](sig|signature|token|expires)=/i);
  });
});
