import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuthErrorName, FailReason } from '../../../common/omni';
import { PNG } from 'pngjs';
import { analyzeImage, decodeCommonPng } from '../../../main/demo-server/image';
import { VIDEO_SELFIE_FIXTURE } from '../../../main/demo-server/media';
import { customers } from '../../../main/demo-server/seed';
import { GOOD_IMAGE, jpegBase64, pngBase64, fail, startHarness, type Harness } from '../../helpers/demo-support';

let h: Harness;
let imageHost: http.Server;
let imageHostUrl = '';
beforeAll(async () => {
  // A local "CDN" on loopback that the allow-list names, to prove imageUrl is really fetched.
  const png = Buffer.from(GOOD_IMAGE, 'base64');
  imageHost = http.createServer((req, res) => {
    if (req.url === '/selfie.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => imageHost.listen(0, '127.0.0.1', resolve));
  imageHostUrl = `http://127.0.0.1:${(imageHost.address() as AddressInfo).port}`;
  h = await startHarness({ imageUrlAllowList: ['127.0.0.1'], maxBodyBytes: 4 * 1024 * 1024 });
});
afterAll(async () => {
  await h.close();
  await new Promise((resolve) => imageHost.close(resolve));
});
afterEach(() => h.demo('reset'));

describe('demo server: add face', () => {
  it('measures brightness from the pixels and reports the scenario flags', async () => {
    const client = await h.client();
    const ok = await client.call('addFace', { body: { base64Image: GOOD_IMAGE } }, { interviewId: 'demo-clean-pass' });
    expect(ok).toMatchObject({ age: 34, isBright: true, confidence: 0, hasLenses: false, sessionStatus: 'Alive' });
    expect(ok.captureAttemptsLimit).toBeUndefined();
    const dim = await client.call(
      'addFace',
      { body: { base64Image: jpegBase64({ mean: 45, noise: 40 }) } },
      { interviewId: 'demo-clean-pass' },
    );
    expect(dim.isBright).toBe(false);
    const recapture = await client.call(
      'addFace',
      { body: { base64Image: GOOD_IMAGE } },
      { interviewId: 'demo-face-recapture' },
    );
    expect(recapture).toMatchObject({
      confidence: 1,
      hasLenses: true,
      hasFaceMask: true,
      hasClosedEyes: true,
      hasHeadCover: true,
      faceOccluded: true,
    });
  });

  it('answers each custom status 4010, 4019, 4077, 4078 from its scenario, and 4019/4077 from the pixels', async () => {
    const client = await h.client();
    for (const [interviewId, status] of [
      ['demo-face-multiple', 4010],
      ['demo-face-not-found', 4019],
      ['demo-face-low-quality', 4077],
      ['demo-face-occluded', 4078],
    ] as const) {
      const err = await fail(client.call('addFace', { body: { base64Image: GOOD_IMAGE } }, { interviewId }));
      expect(err.httpStatus).toBe(400);
      expect(err.body?.status).toBe(status);
      expect(err.body?.message).toBeTruthy();
    }
    const flat = await fail(
      client.call('addFace', { body: { base64Image: pngBase64({ noise: 0 }) } }, { interviewId: 'demo-clean-pass' }),
    );
    expect(flat.body?.status).toBe(4019);
    const blurry = await fail(
      client.call(
        'addFace',
        { body: { base64Image: pngBase64({ noise: 0, gradient: 120 }) } },
        { interviewId: 'demo-clean-pass' },
      ),
    );
    expect(blurry.body?.status).toBe(4077);
    const tiny = await fail(
      client.call(
        'addFace',
        { body: { base64Image: pngBase64({ width: 80, height: 80 }) } },
        { interviewId: 'demo-clean-pass' },
      ),
    );
    expect(tiny.body?.status).toBe(4077);
  });

  it('counts capture attempts down and refuses at zero; an undecodable file costs no attempt', async () => {
    const client = await h.client();
    await expect(
      client.call('addFace', { body: { base64Image: 'AAAA' } }, { interviewId: 'demo-attempts-limited' }),
    ).rejects.toMatchObject({ httpStatus: 400 });
    for (const remaining of [2, 1, 0]) {
      const res = await client.call(
        'addFace',
        { body: { base64Image: GOOD_IMAGE } },
        { interviewId: 'demo-attempts-limited' },
      );
      expect(res.captureAttemptsLimit).toEqual({ max: 3, remaining });
    }
    const refused = await fail(
      client.call('addFace', { body: { base64Image: GOOD_IMAGE } }, { interviewId: 'demo-attempts-limited' }),
    );
    expect(refused.httpStatus).toBe(400);
    expect(refused.body?.message).toMatch(/No selfie capture attempts left/);
    expect(refused.body?.details).toMatchObject({ captureAttemptsLimit: { max: 3, remaining: 0 } });
    const exhausted = await fail(
      client.call('addFace', { body: { base64Image: GOOD_IMAGE } }, { interviewId: 'demo-attempts-exhausted' }),
    );
    expect(exhausted.httpStatus).toBe(400);
  });

  it('refuses undecodable images, non-base64 text and writes to Closed or Deleted sessions with a clear 400', async () => {
    const client = await h.client();
    const notImage = await fail(
      client.call(
        'addFace',
        { body: { base64Image: Buffer.from('hello, not an image').toString('base64') } },
        { interviewId: 'demo-clean-pass' },
      ),
    );
    expect(notImage.body?.message).toMatch(/neither a PNG nor a JPEG/);
    const truncated = await fail(
      client.call('addFace', { body: { base64Image: GOOD_IMAGE.slice(0, 200) } }, { interviewId: 'demo-clean-pass' }),
    );
    expect(truncated.body?.message).toMatch(/could not be decoded as PNG/);
    const notBase64 = await fail(
      client.call('addFace', { body: { base64Image: '***' } }, { interviewId: 'demo-clean-pass' }),
    );
    expect(notBase64.body?.message).toMatch(/not valid base64/);
    for (const interviewId of ['demo-closed', 'demo-deleted']) {
      const err = await fail(client.call('addFace', { body: { base64Image: GOOD_IMAGE } }, { interviewId }));
      expect(err.httpStatus).toBe(400);
      expect(err.body?.message).toMatch(/no longer accepts changes/);
    }
  });

  it('fetches imageUrl only from allow-listed domains', async () => {
    const client = await h.client();
    const ok = await client.call(
      'addFace',
      { body: { imageUrl: `${imageHostUrl}/selfie.png` } },
      { interviewId: 'demo-clean-pass' },
    );
    expect(ok.isBright).toBe(true);
    const refused = await fail(
      client.call(
        'addFace',
        { body: { imageUrl: 'https://images.example.com/selfie.png' } },
        { interviewId: 'demo-clean-pass' },
      ),
    );
    expect(refused.body?.message).toMatch(/images\.example\.com is not on this server's allow-list/);
    const missing = await fail(
      client.call('addFace', { body: { imageUrl: `${imageHostUrl}/missing.png` } }, { interviewId: 'demo-clean-pass' }),
    );
    expect(missing.body?.message).toMatch(/HTTP 404/);

    const closedList = await startHarness();
    try {
      const res = await closedList.raw('/omni/add/face/third-party', {
        method: 'POST',
        token: closedList.session('demo-clean-pass'),
        body: { imageUrl: `${imageHostUrl}/selfie.png` },
      });
      expect(res.status).toBe(400);
      expect(res.json.message).toMatch(/fetches from no domain/);
    } finally {
      await closedList.close();
    }
  });
});

describe('demo server: image decoding', () => {
  it('decodes 8-bit PNGs of every color type exactly as pngjs does, and leaves other variants to pngjs', () => {
    for (const colorType of [0, 2, 4, 6] as const) {
      for (const [width, height] of [
        [1, 1],
        [97, 61],
        [320, 240],
      ] as const) {
        const png = new PNG({ width, height });
        for (let i = 0; i < png.data.length; i++) png.data[i] = (i * 7919 + (i >> 9) * 31) & 255;
        const bytes = PNG.sync.write(png, { colorType });
        const fast = decodeCommonPng(bytes);
        expect(fast, `colorType ${colorType} ${width}x${height}`).toBeDefined();
        expect(
          Buffer.from(fast!.data).equals(PNG.sync.read(bytes).data),
          `colorType ${colorType} ${width}x${height}`,
        ).toBe(true);
      }
    }
    const sixteenBit = PNG.sync.write(new PNG({ width: 4, height: 4 }), { colorType: 6, bitDepth: 16 });
    expect(decodeCommonPng(sixteenBit)).toBeUndefined();
    expect(analyzeImage(sixteenBit).width).toBe(4);
    const corrupt = Buffer.from(GOOD_IMAGE, 'base64');
    const at = corrupt.length - 40;
    corrupt.writeUInt8(corrupt.readUInt8(at) ^ 0xff, at);
    expect(() => analyzeImage(corrupt)).toThrow(/could not be decoded as PNG/);
  });
});

describe('demo server: back of second ID', () => {
  it('computes resolution, sharpness and glare from the pixels', async () => {
    const client = await h.client();
    const good = await client.call(
      'addBackSecondId',
      { body: { base64Image: jpegBase64({ width: 640, height: 400 }) }, query: { captureType: 'UPLOAD' } },
      { interviewId: 'demo-clean-pass' },
    );
    expect(good).toMatchObject({
      correctSharpness: true,
      correctGlare: true,
      horizontalResolution: 640,
      classification: true,
      readability: true,
      typeOfId: 'VoterIdentification',
      countryCode: 'MEX',
      curpCheck: true,
      idQualityAttemptApproved: true,
      idFaceExtractionSkipped: false,
      sessionStatus: 'Alive',
      isDocumentExpired: false,
    });
    expect(good.failReason).toBeUndefined();
    expect(good.attemptId).toMatch(/^[0-9a-f-]{36}$/);
    const blurry = await client.call(
      'addBackSecondId',
      { body: { base64Image: pngBase64({ width: 150, height: 100, noise: 0, gradient: 80 }) } },
      { interviewId: 'demo-clean-pass' },
    );
    expect(blurry).toMatchObject({ correctSharpness: false, correctGlare: true, horizontalResolution: 150 });
    const glare = await client.call(
      'addBackSecondId',
      { body: { base64Image: pngBase64({ glare: 0.1 }) } },
      { interviewId: 'demo-clean-pass' },
    );
    expect(glare).toMatchObject({ correctGlare: false, horizontalResolution: 320 });
  });

  it('enforces the rules: finished processing, no front side, passport, attempts, closed sessions', async () => {
    const client = await h.client();
    const cases: Array<[string, RegExp]> = [
      ['demo-id-processing-finished', /ID processing already finished/],
      ['demo-no-front-id', /front side of the ID first/],
      ['demo-passport', /passport/],
      ['demo-attempts-exhausted', /No ID capture attempts left/],
      ['demo-closed', /Closed/],
    ];
    for (const [interviewId, message] of cases) {
      const err = await fail(client.call('addBackSecondId', { body: { base64Image: GOOD_IMAGE } }, { interviewId }));
      expect(err.httpStatus, interviewId).toBe(400);
      expect(err.body?.message, interviewId).toMatch(message);
    }
    for (const remaining of [2, 1, 0]) {
      const res = await client.call(
        'addBackSecondId',
        { body: { base64Image: GOOD_IMAGE } },
        { interviewId: 'demo-attempts-limited' },
      );
      expect(res.captureAttemptsLimit).toEqual({ max: 3, remaining });
    }
    await expect(
      client.call('addBackSecondId', { body: { base64Image: GOOD_IMAGE } }, { interviewId: 'demo-attempts-limited' }),
    ).rejects.toMatchObject({ httpStatus: 400 });
  });

  it('reports idFaceExtractionSkipped, expiry and mandatory consent from the interview', async () => {
    const client = await h.client();
    expect(
      (
        await client.call(
          'addBackSecondId',
          { body: { base64Image: GOOD_IMAGE } },
          { interviewId: 'demo-id-face-skipped' },
        )
      ).idFaceExtractionSkipped,
    ).toBe(true);
    const expired = await client.call(
      'addBackSecondId',
      { body: { base64Image: GOOD_IMAGE } },
      { interviewId: 'demo-expired-id' },
    );
    expect(expired).toMatchObject({
      isDocumentExpired: true,
      showMandatoryConsent: true,
      regulationType: 'MX_LFPDPPP',
      issueYear: 2014,
    });
  });

  it('answers every failReason in turn for demo-id-fail-reasons', async () => {
    const client = await h.client();
    const seen: string[] = [];
    for (let i = 0; i < FailReason.options.length; i++) {
      const res = await client.call(
        'addBackSecondId',
        { body: { base64Image: GOOD_IMAGE } },
        { interviewId: 'demo-id-fail-reasons' },
      );
      expect(res.classification).toBe(false);
      expect(res.readability).toBe(false);
      seen.push(res.failReason!);
      if (res.failReason === 'ID_TYPE_UNACCEPTABLE') expect(res.acceptedDocuments?.length).toBeGreaterThan(0);
      if (res.failReason === 'WRONG_DOCUMENT_SIDE') expect(res.forceFrontIdCapture).toBe(true);
    }
    expect(seen).toEqual(FailReason.options);
  });
});

describe('demo server: face authentication', () => {
  it('passes a known customer by hint and reaches every error name', async () => {
    const client = await h.client();
    const pass = await client.call('authenticateFace', {
      body: { base64Image: GOOD_IMAGE, hint: 'ana.lopez@demo.mx' },
    });
    expect(pass).toMatchObject({ overallStatus: 'PASS', candidate: 'cust-ana-lopez' });
    const reached = new Set<string>();
    const check = async (body: { base64Image: string; hint?: string }) => {
      const res = await client.call('authenticateFace', { body });
      expect(res.overallStatus).toBe('FAIL');
      expect(res.error?.message).toBeTruthy();
      reached.add(res.error!.name);
      return res.error!.name;
    };
    for (const c of customers.filter((c) => !c.outcome.pass))
      expect(await check({ base64Image: GOOD_IMAGE, hint: c.hint })).toBe(c.outcome.pass ? '' : c.outcome.name);
    expect(await check({ base64Image: GOOD_IMAGE })).toBe('HINT_NOT_PROVIDED');
    expect(await check({ base64Image: GOOD_IMAGE, hint: 'nobody@demo.mx' })).toBe('NONEXISTENT_CUSTOMER');
    // Measured from the pixels regardless of the customer:
    expect(await check({ base64Image: pngBase64({ mean: 30, noise: 25 }), hint: 'ana.lopez@demo.mx' })).toBe(
      'FACE_TOO_DARK',
    );
    expect(await check({ base64Image: pngBase64({ noise: 0, gradient: 100 }), hint: 'ana.lopez@demo.mx' })).toBe(
      'FACE_TOO_BLURRY',
    );
    expect(await check({ base64Image: pngBase64({ width: 60, height: 60 }), hint: 'ana.lopez@demo.mx' })).toBe(
      'FACE_TOO_SMALL',
    );
    expect(await check({ base64Image: pngBase64({ noise: 0 }), hint: 'ana.lopez@demo.mx' })).toBe('FACE_NOT_FOUND');
    expect([...reached].sort()).toEqual([...AuthErrorName.options].sort());
  });

  it('counts authentication attempts for a limited customer and ignores the hint one-to-N', async () => {
    const client = await h.client();
    for (const remaining of [2, 1, 0]) {
      const res = await client.call('authenticateFace', { body: { base64Image: GOOD_IMAGE, hint: 'limited@demo.mx' } });
      expect(res.captureAttemptsLimit).toEqual({ max: 3, remaining });
    }
    await expect(
      client.call('authenticateFace', { body: { base64Image: GOOD_IMAGE, hint: 'limited@demo.mx' } }),
    ).rejects.toMatchObject({ httpStatus: 400 });
    const orgB = await h.client({ credentials: h.credentials.organizations[1]! });
    expect(await orgB.call('authenticateFace', { body: { base64Image: GOOD_IMAGE } })).toMatchObject({
      overallStatus: 'PASS',
      candidate: 'cust-ulises-navarro',
    });
    expect(await orgB.call('authenticateFace', { body: { base64Image: GOOD_IMAGE, hint: 'anything' } })).toMatchObject({
      overallStatus: 'PASS',
    });
  });

  it('refuses an undecodable image with 400', async () => {
    const client = await h.client();
    await expect(
      client.call('authenticateFace', { body: { base64Image: 'AAAA', hint: 'ana.lopez@demo.mx' } }),
    ).rejects.toMatchObject({ httpStatus: 400 });
  });
});

describe('demo server: import video', () => {
  it('stores a real recording, returns its id and lists it for the interview', async () => {
    const client = await h.client();
    const video = (await readFile(VIDEO_SELFIE_FIXTURE)).toString('base64');
    const { recordingId } = await client.call(
      'importVideo',
      { body: { video, type: 'selfie' } },
      { interviewId: 'demo-clean-pass' },
    );
    expect(recordingId).toMatch(/^rec-/);
    const listed = await (await fetch(`${h.server.url}/__demo/interviews/demo-clean-pass/recordings`)).json();
    expect(listed).toEqual([
      expect.objectContaining({
        recordingId,
        type: 'selfie',
        mimeType: 'video/webm',
        sizeBytes: Buffer.from(video, 'base64').length,
      }),
    ]);
  });

  it('accepts a large recording streamed by the client under the default 200 MB limit', async () => {
    const big = await startHarness();
    try {
      const client = await big.client();
      const chunk = Buffer.alloc(3 * 1024 * 1024, 7);
      const first = Buffer.from(chunk);
      first.writeUInt32BE(0x1a45dfa3, 0);
      const chunks = [first, ...Array.from({ length: 9 }, () => chunk)];
      const parts = [
        Buffer.from('{"type":"merged","video":"'),
        ...chunks.map((c) => Buffer.from(c.toString('base64'))),
        Buffer.from('"}'),
      ];
      const contentLength = parts.reduce((n, p) => n + p.length, 0);
      async function* stream() {
        for (const part of parts) yield new Uint8Array(part);
      }
      const { recordingId } = await client.call(
        'importVideo',
        { body: { video: 'unused-with-rawBody' } },
        { interviewId: 'demo-clean-pass', rawBody: { stream: stream(), contentLength } },
      );
      const [listed] = await (await fetch(`${big.server.url}/__demo/interviews/demo-clean-pass/recordings`)).json();
      expect(listed).toMatchObject({ recordingId, type: 'merged', sizeBytes: 30 * 1024 * 1024 });
      const hash = createHash('sha256');
      for (const c of chunks) hash.update(c);
      expect(listed.sha256).toBe(hash.digest('hex'));
    } finally {
      await big.close();
    }
  }, 60_000);

  it('refuses a body that is not a video, and answers 413 over the size limit', async () => {
    const client = await h.client();
    const notVideo = await fail(
      client.call(
        'importVideo',
        { body: { video: Buffer.from('plain text').toString('base64') } },
        { interviewId: 'demo-clean-pass' },
      ),
    );
    expect(notVideo.body?.message).toMatch(/not a WebM or MP4/);
    const huge = Buffer.alloc(5 * 1024 * 1024, 1);
    huge.writeUInt32BE(0x1a45dfa3, 0);
    const tooLarge = await fail(
      client.call('importVideo', { body: { video: huge.toString('base64') } }, { interviewId: 'demo-clean-pass' }),
    );
    expect(tooLarge.httpStatus).toBe(413);
    expect(tooLarge.body?.message).toMatch(/larger than this server's limit/);
  });
});
