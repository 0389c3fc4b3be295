import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serviceDestination } from '../../../main/auth/destination';
import type { AuditAction } from '../../../common/views';
import type { MainContext } from '../../../main/ports';
import { createRouter } from '../../../main/ipc/router';
import { handlers } from '../../../main/ipc/handlers/index';
import { captureState } from '../../../main/capture/state';
import { ImportJobs } from '../../../main/capture/import-jobs';
import { streamingFetch } from '../../../main/capture/streaming-fetch';
import { MemoryVault } from '../../../main/auth/memory-vault';
import { OmniClient } from '../../../main/omni/client';
import type { CallInput } from '../../../main/omni/endpoints';
import { toIpcErrorData } from '../../../main/errors';
import { AuthErrorName, FailReason } from '../../../common/omni';
import type { AuthResultView, BackIdResultView, FaceResultView, ImportJobView } from '../../../common/ipc/capture';
import { GOOD_IMAGE, jpegBase64, pngBase64, startHarness, type Harness } from '../../helpers/demo-support';
import { APP_URL, callThrough, failure } from '../../helpers/router-calls';

/** The capture IPC domain end to end: router → handlers → OmniClient → demo server, every documented outcome. */

let h: Harness;
let ctx: MainContext;
let router: ReturnType<typeof createRouter>;
let dir: string;
const audit: { interviewId?: string; action: AuditAction; detail: Record<string, unknown> }[] = [];

const call = <T>(channel: string, input: unknown) => callThrough<T>(router, channel, input);

const png = (spec = {}) => ({ kind: 'file', base64: pngBase64(spec), mimeType: 'image/png', name: 'photo.png' });
const good = { kind: 'file', base64: GOOD_IMAGE, mimeType: 'image/png', name: 'selfie.png' };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capture-it-'));
  h = await startHarness({ maxBodyBytes: 8 * 1024 * 1024 });
  const client = await h.client();
  ctx = {
    omni: () => client,
    audit: {
      append: async (entry: { action: AuditAction; detail: Record<string, unknown> }) => {
        audit.push(entry);
        return { ...entry, seq: audit.length, at: '', environment: 'demo', prevHash: '', hash: '' };
      },
    },
  } as unknown as MainContext;
  router = createRouter({ handlers, context: ctx, appUrl: APP_URL });
});
afterAll(async () => {
  await captureState(ctx).staged.releaseAll();
  await h.close();
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => h.demo('reset'));

describe('selfie', () => {
  it('reports every indicator as advice and no recapture for a good selfie', async () => {
    const view = await call<FaceResultView>('capture.addFace', {
      interviewId: 'demo-clean-pass',
      image: good,
      captureType: 'UPLOAD',
    });
    expect(view.recapture).toBe(false);
    expect(view.indicators.find((i) => i.field === 'isBright')).toMatchObject({ value: true, verdict: 'ok' });
    expect(view.indicators.find((i) => i.field === 'age')).toMatchObject({ value: 34, verdict: 'info' });
    expect(view.attempts).toBeUndefined();
    expect(audit.at(-1)).toMatchObject({
      interviewId: 'demo-clean-pass',
      action: 'captured',
      detail: { kind: 'selfie', recapture: false },
    });
  });

  it('says which indicators advise a recapture and how many attempts are left', async () => {
    const view = await call<FaceResultView>('capture.addFace', { interviewId: 'demo-face-recapture', image: good });
    expect(view.recapture).toBe(true);
    const recapture = view.indicators.filter((i) => i.verdict === 'recapture').map((i) => i.field);
    expect(recapture.sort()).toEqual([
      'confidence',
      'faceOccluded',
      'hasClosedEyes',
      'hasFaceMask',
      'hasHeadCover',
      'hasLenses',
    ]);
    const limited = await call<FaceResultView>('capture.addFace', {
      interviewId: 'demo-attempts-limited',
      image: good,
    });
    expect(limited.attempts).toEqual({ max: 3, remaining: 2 });
    const dark = await call<FaceResultView>('capture.addFace', {
      interviewId: 'demo-clean-pass',
      image: { ...good, base64: jpegBase64({ mean: 45, noise: 40 }), mimeType: 'image/jpeg' },
    });
    expect(dark.indicators.find((i) => i.field === 'isBright')).toMatchObject({ value: false, verdict: 'recapture' });
  });

  it.each([
    ['demo-face-multiple', '4010'],
    ['demo-face-not-found', '4019'],
    ['demo-face-low-quality', '4077'],
    ['demo-face-occluded', '4078'],
  ])('explains the custom status of %s (%s) in both languages', async (interviewId, code) => {
    const error = await failure(call('capture.addFace', { interviewId, image: good }));
    expect(error).toMatchObject({ code: 'OMNI_HTTP', httpStatus: 400, serviceCode: code, retryable: false });
    expect(error.message.es).not.toBe(error.message.en);
    expect(error.advice?.en).toBeTruthy();
  });

  it('refuses a file that is not the image it claims before calling the service', async () => {
    const before = h.seen.length;
    const error = await failure(
      call('capture.addFace', { interviewId: 'demo-clean-pass', image: { ...good, mimeType: 'image/jpeg' } }),
    );
    expect(error.code).toBe('INVALID_IMAGE');
    const gif = await failure(
      call('capture.addFace', {
        interviewId: 'demo-clean-pass',
        image: { ...good, base64: Buffer.from('GIF89a-not-a-photo').toString('base64') },
      }),
    );
    expect(gif.code).toBe('INVALID_IMAGE');
    expect(h.seen.length).toBe(before);
  });

  it('says there is no session token for an interview the vault does not know, and refuses closed sessions', async () => {
    expect((await failure(call('capture.addFace', { interviewId: 'unknown-interview', image: good }))).code).toBe(
      'NO_SESSION_TOKEN',
    );
    const closed = await failure(call('capture.addFace', { interviewId: 'demo-closed', image: good }));
    expect(closed).toMatchObject({ httpStatus: 400 });
    expect(JSON.stringify(closed)).toContain('Closed');
  });

  it('reports exhausted attempts with the limit from the service', async () => {
    const error = await failure(call('capture.addFace', { interviewId: 'demo-attempts-exhausted', image: good }));
    expect(error.details).toMatchObject({ serviceDetails: { captureAttemptsLimit: { max: 3, remaining: 0 } } });
  });
});

describe('back of second ID', () => {
  it('shows quality against 155, classification, issue data, consent and expiry', async () => {
    const view = await call<BackIdResultView>('capture.addBackSecondId', {
      interviewId: 'demo-expired-id',
      image: png({ width: 640, height: 400 }),
    });
    const by = Object.fromEntries(view.indicators.map((i) => [i.field, i]));
    expect(by.horizontalResolution).toMatchObject({ value: 640, verdict: 'ok' });
    expect(by.classification).toMatchObject({ value: true, verdict: 'ok' });
    expect(by.isDocumentExpired).toMatchObject({ value: true, verdict: 'warning' });
    expect(by.showMandatoryConsent).toMatchObject({ value: true, verdict: 'warning' });
    expect(by.regulationType).toMatchObject({ value: 'MX_LFPDPPP' });
    expect(by.typeOfId?.value).toBe('VoterIdentification');
    expect(by.issueYear?.value).toBe(2014);
    const small = await call<BackIdResultView>('capture.addBackSecondId', {
      interviewId: 'demo-clean-pass',
      image: png({ width: 120, height: 120 }),
    });
    expect(small.indicators.find((i) => i.field === 'horizontalResolution')).toMatchObject({
      value: 120,
      verdict: 'recapture',
    });
    expect(small.recapture).toBe(true);
  });

  it('explains every failReason in turn, with the accepted documents where given', async () => {
    const seen: string[] = [];
    for (const _ of FailReason.options) {
      const view = await call<BackIdResultView>('capture.addBackSecondId', {
        interviewId: 'demo-id-fail-reasons',
        image: good,
      });
      expect(view.failReason?.message.en).toBeTruthy();
      expect(view.recapture).toBe(true);
      if (view.failReason?.code === 'ID_TYPE_UNACCEPTABLE')
        expect(view.response.acceptedDocuments?.length).toBeGreaterThan(0);
      seen.push(view.failReason!.code);
    }
    expect(seen.sort()).toEqual([...FailReason.options].sort());
  });

  it.each([
    ['demo-no-front-id', 'frontUploaded'],
    ['demo-passport', 'typeOfId'],
    ['demo-id-processing-finished', 'idProcessingFinished'],
  ])('refuses %s with the rule in the error details', async (interviewId, detail) => {
    const error = await failure(call('capture.addBackSecondId', { interviewId, image: good }));
    expect(error.httpStatus).toBe(400);
    expect(Object.keys((error.details?.serviceDetails as object) ?? {})).toContain(detail);
  });
});

describe('face authentication', () => {
  it('passes one-to-one with a hint and names the candidate', async () => {
    const view = await call<AuthResultView>('capture.authenticateFace', { image: good, hint: 'ana.lopez@demo.mx' });
    expect(view).toMatchObject({ mode: 'oneToOne', passed: true, candidate: 'cust-ana-lopez' });
  });

  it('explains every error name the service can answer', async () => {
    const names = AuthErrorName.options.filter((n) => n !== 'HINT_NOT_PROVIDED' && n !== 'NONEXISTENT_CUSTOMER');
    for (const name of names) {
      const hint = `${name.toLowerCase().replaceAll('_', '-')}@demo.mx`;
      const view = await call<AuthResultView>('capture.authenticateFace', { image: good, hint });
      expect(view.passed).toBe(false);
      expect(view.error).toMatchObject({ code: name });
      expect(view.error?.message.es).toBeTruthy();
    }
    expect((await call<AuthResultView>('capture.authenticateFace', { image: good })).error?.code).toBe(
      'HINT_NOT_PROVIDED',
    );
    expect(
      (await call<AuthResultView>('capture.authenticateFace', { image: good, hint: 'nobody@demo.mx' })).error?.code,
    ).toBe('NONEXISTENT_CUSTOMER');
  });
});

describe('video import', () => {
  async function stage(bytes: Buffer, name = 'clip.webm') {
    return captureState(ctx).staged.receive(Readable.from([bytes]), { name });
  }
  async function until(jobId: string): Promise<ImportJobView> {
    for (;;) {
      const job = await call<ImportJobView>('capture.importVideoStatus', { jobId });
      if (job.state !== 'uploading' && job.state !== 'processing') return job;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  const webm = (size: number) => {
    const bytes = Buffer.alloc(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 7919) & 0xff;
    bytes.writeUInt32BE(0x1a45dfa3, 0);
    return bytes;
  };

  it('streams a staged file to the service; the demo stores exactly the same bytes', async () => {
    const bytes = webm(3 * 1024 * 1024 + 1);
    const staged = await stage(bytes);
    const started = await call<ImportJobView>('capture.importVideoStart', {
      interviewId: 'demo-clean-pass',
      stagedFileId: staged.id,
      type: 'selfie',
    });
    expect(started.totalBytes).toBe(bytes.length);
    const done = await until(started.jobId);
    expect(done).toMatchObject({ state: 'done', bytesDone: bytes.length });
    const recordings = await (await fetch(`${h.server.url}/__demo/interviews/demo-clean-pass/recordings`)).json();
    expect(recordings).toEqual([
      expect.objectContaining({
        recordingId: done.recordingId,
        type: 'selfie',
        sizeBytes: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      }),
    ]);
    // The temp copy is deleted after the upload.
    await new Promise((r) => setTimeout(r, 20));
    expect(captureState(ctx).staged.get(staged.id)).toBeUndefined();
  });

  it('reports a body over the server limit (413) and refuses a non-video file up front', async () => {
    const tooBig = await stage(webm(7 * 1024 * 1024));
    const big = await until(
      (
        await call<ImportJobView>('capture.importVideoStart', {
          interviewId: 'demo-clean-pass',
          stagedFileId: tooBig.id,
        })
      ).jobId,
    );
    expect(big).toMatchObject({ state: 'failed', error: { httpStatus: 413 } });
    // Main refuses a file that is not WebM or MP4 before uploading anything, and deletes the temp copy.
    const text = await stage(Buffer.from('not a video at all'), 'notes.txt');
    expect(
      (await failure(call('capture.importVideoStart', { interviewId: 'demo-clean-pass', stagedFileId: text.id }))).code,
    ).toBe('NOT_A_VIDEO');
    expect(captureState(ctx).staged.get(text.id)).toBeUndefined();
  });

  it('cancels a running import', async () => {
    await h.demo('faults', { route: 'importVideo', kind: 'delay', delayMs: 2000 });
    const staged = await stage(webm(1024 * 1024));
    const started = await call<ImportJobView>('capture.importVideoStart', {
      interviewId: 'demo-clean-pass',
      stagedFileId: staged.id,
    });
    const cancelled = await call<ImportJobView>('capture.importVideoCancel', { jobId: started.jobId });
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.error).toBeUndefined();
  });

  it("streams through the app's streamingFetch: same bytes stored, an over-limit body reported as 413", async () => {
    const vault = new MemoryVault();
    const to = serviceDestination({ id: 'demo', baseUrl: h.server.url, authUrl: h.server.url });
    await vault.setCredential(to, 'apiKey', h.credentials.apiKey);
    await vault.setSessionToken(to, 'demo-clean-pass', h.session('demo-clean-pass'));
    const client = new OmniClient({
      env: {
        id: 'demo',
        baseUrl: h.server.url,
        authUrl: h.server.url,
        apiVersion: '1.0',
        tokenHeader: 'X-Incode-Hardware-Id',
      },
      vault,
      fetch: streamingFetch(),
    });
    const jobs = new ImportJobs((e) => toIpcErrorData(e, 'test'));
    const upload = (path: string) =>
      jobs.start(
        { interviewId: 'demo-clean-pass', filePath: path, fileName: 'clip.webm' },
        (rawBody, { interviewId, signal }) =>
          client.call('importVideo', {} as CallInput<'importVideo'>, { interviewId, signal, rawBody }),
      );
    const bytes = webm(2 * 1024 * 1024 + 2);
    const okPath = join(dir, 'ok.webm');
    await writeFile(okPath, bytes);
    const ok = await jobs.settled((await upload(okPath)).jobId);
    expect(ok?.state).toBe('done');
    const stored = await (await fetch(`${h.server.url}/__demo/interviews/demo-clean-pass/recordings`)).json();
    expect(stored.at(-1)).toMatchObject({
      recordingId: ok?.recordingId,
      sizeBytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    const bigPath = join(dir, 'big.webm');
    await writeFile(bigPath, webm(9 * 1024 * 1024));
    const big = await jobs.settled((await upload(bigPath)).jobId);
    expect(big).toMatchObject({ state: 'failed', error: { httpStatus: 413 } });
  });

  it('releases a staged file nobody imports', async () => {
    const staged = await stage(webm(1024));
    expect(await call('capture.releaseStagedFile', { stagedFileId: staged.id })).toEqual({ released: true });
    expect(captureState(ctx).staged.get(staged.id)).toBeUndefined();
    expect(await call('capture.releaseStagedFile', { stagedFileId: staged.id })).toEqual({ released: false });
  });

  it('explains an unknown staged file and an unknown job', async () => {
    expect(
      (
        await failure(
          call('capture.importVideoStart', { interviewId: 'demo-clean-pass', stagedFileId: crypto.randomUUID() }),
        )
      ).code,
    ).toBe('STAGED_FILE_NOT_FOUND');
    expect((await failure(call('capture.importVideoStatus', { jobId: crypto.randomUUID() }))).code).toBe(
      'IMPORT_NOT_FOUND',
    );
  });
});
