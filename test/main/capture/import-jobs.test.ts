import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportJobs } from '../../../main/capture/import-jobs';

async function collect(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part));
  return Buffer.concat(parts);
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capture-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
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
