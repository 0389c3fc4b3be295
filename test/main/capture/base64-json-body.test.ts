import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base64JsonBody, base64Length } from '../../../main/capture/base64-json-body';
import { Base64Encoder } from '../../../main/capture/base64-simd';
import { fileChunks } from '../../../main/capture/file-chunks';
import { checkImage, describeImageProblem, MAX_IMAGE_BYTES } from '../../../common/rules/image-check';
import { ImportJobs } from '../../../main/capture/import-jobs';
import { StagedFiles, StagingTooLargeError } from '../../../main/capture/staging';

async function collect(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part));
  return Buffer.concat(parts);
}

async function* chunked(bytes: Buffer, sizes: number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  let i = 0;
  while (at < bytes.length) {
    const size = sizes[i++ % sizes.length]!;
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capture-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('base64JsonBody', () => {
  it.each([0, 1, 2, 3, 4, 5, 100, 1001])(
    'encodes %i bytes in odd chunk sizes exactly like Buffer.toString("base64")',
    async (n) => {
      const bytes = Buffer.from(Array.from({ length: n }, (_, i) => (i * 37 + 11) & 0xff));
      const body = base64JsonBody(chunked(bytes, [1, 2, 4, 7]), {
        field: 'video',
        sourceBytes: n,
        extra: { type: 'selfie' },
      });
      const text = (await collect(body.stream)).toString('utf8');
      expect(JSON.parse(text)).toEqual({ video: bytes.toString('base64'), type: 'selfie' });
      expect(Buffer.byteLength(text)).toBe(body.contentLength);
    },
  );

  it('omits extra fields when none are given and escapes their values when given', async () => {
    const plain = base64JsonBody(chunked(Buffer.from('abc'), [3]), { field: 'video', sourceBytes: 3 });
    expect((await collect(plain.stream)).toString()).toBe('{"video":"YWJj"}');
    const odd = base64JsonBody(chunked(Buffer.from('abc'), [3]), {
      field: 'video',
      sourceBytes: 3,
      extra: { type: 'a"b' },
    });
    expect(JSON.parse((await collect(odd.stream)).toString())).toEqual({ video: 'YWJj', type: 'a"b' });
  });

  it('fails instead of sending a body whose length differs from the announced one', async () => {
    const body = base64JsonBody(chunked(Buffer.from('abcd'), [4]), { field: 'video', sourceBytes: 5 });
    await expect(collect(body.stream)).rejects.toThrow(/changed while it was being read/);
  });

  it('encodes every byte value in every triple position like Buffer.toString("base64")', () => {
    const bytes = Buffer.from(
      Array.from({ length: 256 * 3 }, (_, i) =>
        i % 3 === 0 ? i / 3 : i % 3 === 1 ? 255 - (i - 1) / 3 : (i * 7) & 0xff,
      ),
    );
    const out = Buffer.alloc(base64Length(bytes.length) + 4);
    // Starts after one already encoded triple, as the carry path does.
    expect(new Base64Encoder().encodeTriples(bytes, 0, bytes.length, out, 4)).toBe(out.length);
    expect(out.subarray(4).toString('latin1')).toBe(bytes.toString('base64'));
  });

  it('computes base64 lengths with padding', () => {
    expect([0, 1, 2, 3, 4].map(base64Length)).toEqual([0, 4, 4, 4, 8]);
  });
});

describe('ChunkPool', async () => {
  const { ChunkPool, releaseChunk } = await import('../../../main/capture/chunk-pool');

  it('lends fresh buffers until one is given back, then reuses it; foreign chunks are ignored', () => {
    const pool = new ChunkPool(16, { keep: 1 });
    const a = pool.take(10);
    const b = pool.take(16);
    expect(a.length).toBe(10);
    expect(a.buffer).not.toBe(b.buffer);
    releaseChunk(a);
    releaseChunk(a); // a second release of the same write changes nothing
    const c = pool.take(4);
    expect(c.buffer).toBe(a.buffer);
    expect(pool.take(4).buffer).not.toBe(a.buffer);
    releaseChunk(Buffer.alloc(4));
    expect(() => pool.take(17)).toThrow(RangeError);
  });
});

describe('fileChunks', () => {
  it('reads a file in bounded chunks, reports progress and stops on abort', async () => {
    const path = join(dir, 'chunks.bin');
    await writeFile(path, Buffer.alloc(10_000, 7));
    const seen: number[] = [];
    const sizes: number[] = [];
    for await (const c of fileChunks(path, { chunkBytes: 3000, onBytes: (n) => seen.push(n) })) sizes.push(c.length);
    expect(sizes).toEqual([3000, 3000, 3000, 1000]);
    expect(seen).toEqual([3000, 6000, 9000, 10000]);

    const distinct = join(dir, 'distinct.bin');
    const bytes = Buffer.from(Array.from({ length: 9000 }, (_, i) => (i * 131 + 7) & 0xff));
    await writeFile(distinct, bytes);
    const parts: Buffer[] = [];
    for await (const c of fileChunks(distinct, { chunkBytes: 3000 })) {
      const held = Buffer.from(c);
      // While the consumer works on a chunk the next one is read ahead; it must land in the other buffer.
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(Buffer.compare(held, c)).toBe(0);
      parts.push(held);
    }
    expect(Buffer.concat(parts).equals(bytes)).toBe(true);
    for await (const _ of fileChunks(distinct, { chunkBytes: 3000 })) break;

    const controller = new AbortController();
    const read = (async () => {
      for await (const _ of fileChunks(path, { chunkBytes: 3000, signal: controller.signal })) controller.abort();
    })();
    await expect(read).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('checkImage', () => {
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0]);
  it('accepts PNG and JPEG by content', () => {
    expect(checkImage(png, 100, 'image/png')).toEqual({ ok: true, kind: 'png' });
    expect(checkImage(jpeg, 100, 'image/jpeg')).toEqual({ ok: true, kind: 'jpeg' });
    expect(checkImage(jpeg, 100, '')).toEqual({ ok: true, kind: 'jpeg' });
  });
  it('refuses empty, too large, non-images and renamed files with an explanation in both languages', () => {
    const cases = [
      checkImage(png, 0, 'image/png'),
      checkImage(png, MAX_IMAGE_BYTES + 1, 'image/png'),
      checkImage(Uint8Array.from([0x25, 0x50, 0x44, 0x46, 0, 0, 0, 0]), 10, 'application/pdf'),
      checkImage(png, 10, 'image/jpeg'),
    ];
    expect(cases.map((c) => (c.ok ? 'ok' : c.problem.code))).toEqual([
      'EMPTY',
      'TOO_LARGE',
      'NOT_AN_IMAGE',
      'TYPE_MISMATCH',
    ]);
    for (const c of cases) {
      if (c.ok) continue;
      const text = describeImageProblem(c.problem);
      expect(text.en.length).toBeGreaterThan(10);
      expect(text.es).not.toBe(text.en);
    }
  });
});

describe('StagedFiles', () => {
  it('streams an upload into a temp file, serves it by id and deletes it on release', async () => {
    const staging = new StagedFiles(dir);
    const staged = await staging.receive(Readable.from([Buffer.from('hello '), Buffer.from('world')]), {
      name: '../../etc/clip.mp4',
    });
    expect(staged).toMatchObject({ name: 'clip.mp4', size: 11, owned: true });
    expect(await readFile(staging.get(staged.id)!.path, 'utf8')).toBe('hello world');
    await staging.release(staged.id);
    expect(staging.get(staged.id)).toBeUndefined();
    await expect(readFile(staged.path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses an upload over the limit and leaves no partial file', async () => {
    const staging = new StagedFiles(dir);
    await expect(
      staging.receive(Readable.from([Buffer.alloc(10), Buffer.alloc(10)]), { name: 'big.mp4', maxBytes: 15 }),
    ).rejects.toBeInstanceOf(StagingTooLargeError);
  });

  it("at quit deletes every temp copy and its folder, and none of the user's files", async () => {
    const root = await mkdtemp(join(dir, 'quit-'));
    const mine = join(root, 'mine.mp4');
    await writeFile(mine, 'abc');
    const staging = new StagedFiles(root);
    await staging.registerPath(mine);
    const copy = await staging.receive(Readable.from([Buffer.from('upload')]), { name: 'clip.mp4' });
    expect((await readdir(root)).sort()).toEqual(['mine.mp4', expect.stringMatching(/^omni-staging-/)]);
    await staging.releaseAll();
    expect(staging.get(copy.id)).toBeUndefined();
    expect(await readdir(root)).toEqual(['mine.mp4']);
    // Staging again after that starts a new folder.
    const again = await staging.receive(Readable.from([Buffer.from('x')]), { name: 'b.mp4' });
    expect(await readFile(again.path, 'utf8')).toBe('x');
  });

  it('registers a user file by path without owning it', async () => {
    const path = join(dir, 'mine.mp4');
    await writeFile(path, 'abc');
    const staging = new StagedFiles(dir);
    const staged = await staging.registerPath(path);
    expect(staged).toMatchObject({ name: 'mine.mp4', size: 3, owned: false });
    await staging.release(staged.id);
    expect(await readFile(path, 'utf8')).toBe('abc');
  });
});

describe('ImportJobs', () => {
  const describeError = (err: unknown) => ({ code: 'X', message: { en: String(err), es: String(err) } });

  it('streams the file into the upload, reports progress and the recording id', async () => {
    const path = join(dir, 'video.mp4');
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i & 0xff));
    await writeFile(path, bytes);
    const jobs = new ImportJobs(describeError);
    let received = '';
    let announced = 0;
    const started = await jobs.start(
      { interviewId: 'iv1', filePath: path, fileName: 'video.mp4', type: 'selfie' },
      async (body, ctx) => {
        announced = body.contentLength;
        received = (await collect(body.stream)).toString();
        expect(ctx.interviewId).toBe('iv1');
        return { recordingId: 'rec-1' };
      },
    );
    expect(started).toMatchObject({ state: 'uploading', totalBytes: 5000 });
    const final = await jobs.settled(started.jobId);
    expect(final).toMatchObject({ state: 'done', recordingId: 'rec-1', bytesDone: 5000 });
    expect(JSON.parse(received)).toEqual({ video: bytes.toString('base64'), type: 'selfie' });
    expect(Buffer.byteLength(received)).toBe(announced);
  });

  it('cancel aborts the upload and reports cancelled, not failed', async () => {
    const path = join(dir, 'slow.mp4');
    await writeFile(path, Buffer.alloc(3 * 1024 * 1024));
    const jobs = new ImportJobs(describeError);
    const started = await jobs.start(
      { interviewId: 'iv1', filePath: path, fileName: 'slow.mp4' },
      async (body, ctx) => {
        for await (const _ of body.stream) await new Promise((r) => setTimeout(r, 5));
        if (ctx.signal.aborted) throw ctx.signal.reason;
        return { recordingId: 'never' };
      },
    );
    await new Promise((r) => setTimeout(r, 10));
    const cancelled = await jobs.cancel(started.jobId);
    expect(cancelled?.state).toBe('cancelled');
    expect(cancelled?.bytesDone).toBeLessThan(3 * 1024 * 1024);
  });

  it('reports a failed upload with the described error', async () => {
    const path = join(dir, 'fail.mp4');
    await writeFile(path, 'abc');
    const jobs = new ImportJobs(describeError);
    const started = await jobs.start({ interviewId: 'iv1', filePath: path, fileName: 'fail.mp4' }, async () => {
      throw new Error('boom');
    });
    expect(await jobs.settled(started.jobId)).toMatchObject({ state: 'failed', error: { code: 'X' } });
  });
});

describe('capture advice', async () => {
  const { faceAdvice, backIdAdvice, authAdvice, SHADOW_RECAPTURE_FROM } = await import('../../../main/capture/advice');

  it('marks unchecked flags as not checked and a dark selfie as recapture', () => {
    const view = faceAdvice({
      isBright: false,
      confidence: 0,
      hasLenses: false,
      age: 30,
      sessionStatus: 'Alive',
      captureAttemptsLimit: { max: 3, remaining: 1 },
    });
    const by = Object.fromEntries(view.indicators.map((i) => [i.field, i.verdict]));
    expect(by).toMatchObject({
      isBright: 'recapture',
      confidence: 'ok',
      hasLenses: 'ok',
      hasFaceMask: 'notChecked',
      age: 'info',
      sessionStatus: 'ok',
    });
    expect(view.recapture).toBe(true);
    expect(view.attempts).toEqual({ max: 3, remaining: 1 });
    expect(faceAdvice({ confidence: 0.4 }).indicators.find((i) => i.field === 'confidence')?.verdict).toBe('warning');
  });

  it('judges resolution against 155 and shadow from the midpoint; ignores quality when not classified', () => {
    const at = (r: Parameters<typeof backIdAdvice>[0], field: string) =>
      backIdAdvice(r).indicators.find((i) => i.field === field)?.verdict;
    expect(at({ classification: true, horizontalResolution: 155 }, 'horizontalResolution')).toBe('ok');
    expect(at({ classification: true, horizontalResolution: 154 }, 'horizontalResolution')).toBe('recapture');
    expect(at({ classification: true, shadowConfidence: SHADOW_RECAPTURE_FROM }, 'shadowConfidence')).toBe('recapture');
    expect(at({ classification: true, correctGlare: false, skipGlareBack: true }, 'correctGlare')).toBe('info');
    const unclassified = backIdAdvice({
      classification: false,
      correctSharpness: false,
      horizontalResolution: 100,
      failReason: 'WRONG_DOCUMENT_SIDE',
    });
    expect(unclassified.indicators.find((i) => i.field === 'correctSharpness')?.verdict).toBe('info');
    expect(unclassified.failReason).toMatchObject({ code: 'WRONG_DOCUMENT_SIDE' });
    expect(unclassified.recapture).toBe(true);
  });

  it('reads authentication as one-to-one only with a hint', () => {
    expect(authAdvice({ overallStatus: 'PASS', candidate: 'c1' }, true)).toMatchObject({
      mode: 'oneToOne',
      passed: true,
      candidate: 'c1',
    });
    expect(
      authAdvice({ overallStatus: 'FAIL', error: { name: 'FACE_TOO_DARK', message: 'dark' } }, false),
    ).toMatchObject({ mode: 'oneToN', passed: false, error: { code: 'FACE_TOO_DARK' } });
    expect(
      authAdvice({ overallStatus: 'FAIL', error: { name: 'DEEPFAKE_DETECTED', message: 'synthetic' } }, false),
    ).toMatchObject({
      passed: false,
      error: { code: 'DEEPFAKE_DETECTED', message: { en: 'synthetic (DEEPFAKE_DETECTED: not in the spec)' } },
    });
  });

  it('keeps a typeOfId and a failReason newer than the spec, marked as not in the spec', () => {
    const advice = backIdAdvice({
      typeOfId: 'DigitalNationalId',
      failReason: 'HOLOGRAM_MISSING',
      classification: false,
    });
    expect(advice.indicators.find((i) => i.field === 'typeOfId')).toMatchObject({
      value: 'DigitalNationalId',
      notInSpec: true,
    });
    expect(advice.failReason).toMatchObject({
      code: 'HOLOGRAM_MISSING',
      message: { en: '(HOLOGRAM_MISSING: not in the spec)', es: '(HOLOGRAM_MISSING: no está en la especificación)' },
    });
    expect(advice.recapture).toBe(true);
    expect(backIdAdvice({ typeOfId: 'Passport' }).indicators.find((i) => i.field === 'typeOfId')?.notInSpec).toBe(
      undefined,
    );
  });
});

describe('streamingFetch', async () => {
  const http = await import('node:http');
  const { streamingFetch } = await import('../../../main/capture/streaming-fetch');

  async function server(
    handler: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void,
  ) {
    const s = http.createServer(handler);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return {
      url: `http://127.0.0.1:${(s.address() as import('node:net').AddressInfo).port}`,
      close: () => new Promise((r) => s.close(r)),
    };
  }
  const streamOf = (parts: string[]) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of parts) c.enqueue(new TextEncoder().encode(p));
        c.close();
      },
    });

  it('sends a streamed body over node:http and returns a normal Response', async () => {
    const s = await server((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () =>
        res
          .writeHead(201, { 'content-type': 'application/json', 'x-seen': req.headers['x-token'] as string })
          .end(JSON.stringify({ body, length: req.headers['content-length'] })),
      );
    });
    const res = await streamingFetch()(`${s.url}/up`, {
      method: 'POST',
      headers: { 'x-token': 't1', 'content-length': '11' },
      body: streamOf(['hello ', 'world']),
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(201);
    expect(res.headers.get('x-seen')).toBe('t1');
    expect(await res.json()).toEqual({ body: 'hello world', length: '11' });
    await s.close();
  });

  it('decodes a gzip, deflate or br answer, as fetch does, so an import that succeeded reads as JSON', async () => {
    const zlib = await import('node:zlib');
    const encoders = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync } as const;
    const s = await server((req, res) => {
      req.resume();
      req.on('end', () => {
        const encoding = req.url!.slice(1) as keyof typeof encoders;
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': encoding,
          'x-asked': String(req.headers['accept-encoding']),
        });
        res.end(encoders[encoding](Buffer.from(JSON.stringify({ success: true, via: encoding }))));
      });
    });
    for (const encoding of Object.keys(encoders)) {
      const res = await streamingFetch()(`${s.url}/${encoding}`, {
        method: 'POST',
        body: streamOf(['x']),
        duplex: 'half',
      } as RequestInit);
      expect(res.headers.get('x-asked')).toContain(encoding);
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(await res.json()).toEqual({ success: true, via: encoding });
    }
    await s.close();
  });

  it('leaves other requests to the regular fetch and reports an early refusal', async () => {
    const calls: string[] = [];
    const base = (async (input: RequestInfo | URL) => {
      calls.push(String(input));
      return new Response('{}');
    }) as typeof fetch;
    await streamingFetch(base)('http://127.0.0.1:9/x', { method: 'POST', body: '{}' });
    expect(calls).toEqual(['http://127.0.0.1:9/x']);

    const s = await server((_req, res) =>
      res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end('{"status":413}'),
    );
    let pulls = 0;
    const big = new ReadableStream<Uint8Array>({
      pull(c) {
        if (++pulls > 32) c.close();
        else c.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const res = await streamingFetch()(`${s.url}/up`, { method: 'POST', body: big, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    await s.close();
  });

  it('hands each pooled chunk back once it is written, so the next chunks reuse the same memory', async () => {
    const { ChunkPool } = await import('../../../main/capture/chunk-pool');
    const received: Buffer[] = [];
    const s = await server((req, res) => {
      req.on('data', (c: Buffer) => received.push(Buffer.from(c)));
      req.on('end', () => res.writeHead(200).end('{}'));
    });
    // Chunks far above the request's 16 KiB high-water mark, as an import's are: each write waits for a drain.
    const size = 64 * 1024;
    const pool = new ChunkPool(size, { keep: 4 });
    const sent: Uint8Array[] = [];
    let n = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (n === 40) return c.close();
        const chunk = pool.take(size).fill(n++);
        sent.push(chunk);
        c.enqueue(chunk);
      },
    });
    const res = await streamingFetch()(`${s.url}/up`, {
      method: 'POST',
      headers: { 'content-length': String(40 * size) },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(200);
    // Every byte arrived as sent, although the buffers were refilled: none was reused before its write finished.
    expect(
      Buffer.concat(received).equals(Buffer.concat(Array.from({ length: 40 }, (_, i) => Buffer.alloc(size, i)))),
    ).toBe(true);
    expect(new Set(sent.map((c) => c.buffer)).size).toBeLessThan(10);
    await s.close();
  });

  it('aborts with the signal', async () => {
    const s = await server(() => undefined);
    const controller = new AbortController();
    const pending = streamingFetch()(`${s.url}/up`, {
      method: 'POST',
      body: streamOf(['x']),
      signal: controller.signal,
      duplex: 'half',
    } as RequestInit);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await s.close();
  });
});

describe('Electron stage-path channel', async () => {
  const { registerStagePathChannel } = await import('../../../main/capture/electron-staging');
  const { STAGE_PATH_CHANNEL } = await import('../../../common/ipc/capture');

  it('registers a picked file by path for the app frame only, and says when the path is not a readable file', async () => {
    const handlers = new Map<string, (event: unknown, path: unknown) => Promise<unknown>>();
    const ipcMain = {
      handle: (channel: string, fn: (event: unknown, path: unknown) => Promise<unknown>) => handlers.set(channel, fn),
    };
    const staged = new StagedFiles(dir);
    registerStagePathChannel(ipcMain as never, {
      staged,
      isAppSender: (event) => (event as unknown as { app: boolean }).app,
    });
    const handle = handlers.get(STAGE_PATH_CHANNEL)!;
    const path = join(dir, 'picked.webm');
    await writeFile(path, 'abcd');
    const ok = (await handle({ app: true }, path)) as {
      ok: true;
      data: { stagedFileId: string; name: string; size: number };
    };
    expect(ok).toMatchObject({ ok: true, data: { name: 'picked.webm', size: 4 } });
    expect(staged.get(ok.data.stagedFileId)?.path).toBe(path);
    expect(await handle({ app: false }, path)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    expect(await handle({ app: true }, 42)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await handle({ app: true }, join(dir, 'missing.webm'))).toMatchObject({
      ok: false,
      error: { code: 'FILE_UNREADABLE' },
    });
    expect(await handle({ app: true }, dir)).toMatchObject({ ok: false, error: { code: 'FILE_UNREADABLE' } });
  });
});
