import { mkdtemp, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewError, StagingLimitError } from '../../../main/errors';
import { ImportJobs, type UploadBody } from '../../../main/capture/import-jobs';
import { StagedFiles } from '../../../main/capture/staging';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'import-owner-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// As OmniClient does: any failure of the request, the body's included, becomes a network error.
const describeError = (err: unknown) =>
  err instanceof ReviewError ? err.data : { code: 'NETWORK', message: { en: 'unreachable', es: 'inalcanzable' } };

/** An upload that waits for `open()` before reading the body, like a slow service. */
function gatedUpload(): { upload: UploadBody; open: () => void } {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  return {
    open,
    upload: async (body) => {
      await gate;
      try {
        for await (const _ of body.stream);
      } catch {
        throw new TypeError('fetch failed');
      }
      return { recordingId: 'rec' };
    },
  };
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('one import per staged file (L1)', () => {
  it('refuses a second import of a file an import is reading, and allows it once that ends', async () => {
    const path = join(dir, 'once.webm');
    await writeFile(path, Buffer.alloc(1000, 1));
    const jobs = new ImportJobs(describeError);
    const first = gatedUpload();
    const job = await jobs.start({ interviewId: 'iv', filePath: path, fileName: 'once.webm' }, first.upload);
    const second = jobs.start({ interviewId: 'iv', filePath: path, fileName: 'once.webm' }, gatedUpload().upload);
    await expect(second).rejects.toMatchObject({ code: 'IMPORT_IN_PROGRESS', data: { retryable: false } });
    await expect(second).rejects.toHaveProperty('data.message.es');
    first.open();
    expect(await jobs.settled(job.jobId)).toMatchObject({ state: 'done' });
    const third = gatedUpload();
    third.open();
    const again = await jobs.start({ interviewId: 'iv', filePath: path, fileName: 'once.webm' }, third.upload);
    expect(await jobs.settled(again.jobId)).toMatchObject({ state: 'done' });
  });
});

describe('a staged copy released during its import (M2)', () => {
  it('stays on disk and counted against the limits until the import ends, then is deleted', async () => {
    const staged = new StagedFiles(dir, { maxFiles: 1 });
    const file = await staged.receive(Readable.from([Buffer.alloc(1000, 2)]), { name: 'a.webm' });
    const jobs = new ImportJobs(describeError);
    const { upload, open } = gatedUpload();
    const job = await jobs.start({ interviewId: 'iv', filePath: file.path, fileName: file.name }, upload);
    await staged.release(file.id);
    expect(staged.get(file.id)).toBeUndefined();
    // The import still needs the bytes, and they still take the slot.
    expect(await exists(file.path)).toBe(true);
    await expect(staged.receive(Readable.from([Buffer.alloc(10)]), { name: 'b.webm' })).rejects.toBeInstanceOf(
      StagingLimitError,
    );
    open();
    expect(await jobs.settled(job.jobId)).toMatchObject({ state: 'done' });
    await expect.poll(() => exists(file.path)).toBe(false);
    const next = await staged.receive(Readable.from([Buffer.alloc(10)]), { name: 'b.webm' });
    await staged.release(next.id);
  });
});

describe('a video that changes during its import (M3)', () => {
  const start = async (name: string, change: (path: string) => Promise<unknown>) => {
    const path = join(dir, name);
    await writeFile(path, Buffer.alloc(1024 * 1024, 3));
    const jobs = new ImportJobs(describeError);
    const job = await jobs.start({ interviewId: 'iv', filePath: path, fileName: name }, async (body) => {
      try {
        let first = true;
        for await (const _ of body.stream) {
          if (first) await change(path);
          first = false;
        }
      } catch {
        throw new TypeError('fetch failed');
      }
      return { recordingId: 'rec' };
    });
    return (await jobs.settled(job.jobId))!;
  };

  it('reports a file cut short as changed, not as a network failure', async () => {
    const done = await start('cut.webm', (path) => truncate(path, 200 * 1024));
    expect(done.state).toBe('failed');
    expect(done.error).toMatchObject({ code: 'VIDEO_FILE_CHANGED', retryable: false });
    expect(done.error?.message.es).toMatch(/cambió/);
  });

  it('reports a file that vanished before it was opened as gone', async () => {
    const path = join(dir, 'gone2.webm');
    await writeFile(path, Buffer.alloc(1000));
    const jobs = new ImportJobs(describeError);
    const { upload, open } = gatedUpload();
    const job = await jobs.start({ interviewId: 'iv', filePath: path, fileName: 'gone2.webm' }, upload);
    await rm(path);
    open();
    expect(await jobs.settled(job.jobId)).toMatchObject({ state: 'failed', error: { code: 'VIDEO_FILE_GONE' } });
  });
});
