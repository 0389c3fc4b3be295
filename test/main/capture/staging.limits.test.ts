import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STAGING_NAME_HEADER } from '../../../common/ipc/capture';
import type { IpcResult } from '../../../common/ipc/define';
import { MAX_STAGED_BYTES, MAX_STAGED_FILES, removeLeftoverStaging, StagedFiles } from '../../../main/capture/staging';
import { handleStagingUpload } from '../../../main/capture/web-staging';
import { StagingLimitError } from '../../../main/errors';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'staging-limits-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const bytes = (n: number) => Readable.from([Buffer.alloc(n, 1)]);

/** A PUT to the web shell's staging route, as the host hands it over, and what it answered. */
async function put(
  staged: StagedFiles,
  body: Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: IpcResult<unknown> }> {
  const req = Object.assign(Readable.from([body]), {
    method: 'PUT',
    headers,
    complete: true,
  }) as unknown as IncomingMessage;
  let status = 0;
  let text = '';
  const sink = { writableEnded: false };
  const res = Object.assign(sink, {
    writeHead(s: number) {
      status = s;
    },
    end(t: string) {
      text = t;
      sink.writableEnded = true;
    },
  }) as unknown as ServerResponse;
  await handleStagingUpload(req, res, staged);
  return { status, body: JSON.parse(text) as IpcResult<unknown> };
}

describe('staging holds a bounded number of files and bytes per session', () => {
  it(`the web shell route takes ${MAX_STAGED_FILES} uploads, then refuses the next with a typed error naming the limit`, async () => {
    const staged = new StagedFiles(await mkdtemp(join(root, 'files-')));
    for (let i = 0; i < MAX_STAGED_FILES; i++) expect((await put(staged, Buffer.from('x'))).status).toBe(200);
    const refused = await put(staged, Buffer.from('x'));
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ ok: false, error: { code: 'STAGING_LIMIT', retryable: false } });
    if (refused.body.ok) throw new Error('accepted');
    expect(refused.body.error.message.en).toContain(`${MAX_STAGED_FILES} files`);
    expect(refused.body.error.message.es).toContain(`${MAX_STAGED_FILES} archivos`);
    expect(refused.body.error.advice?.en).toMatch(/Import or remove/);
    await staged.releaseAll();
  });

  it('refuses a file said to be over the limit before writing a byte, and keeps its name as it reads', async () => {
    const dir = await mkdtemp(join(root, 'declared-'));
    const staged = new StagedFiles(dir);
    const refused = await put(staged, Buffer.from('x'), { 'content-length': String(MAX_STAGED_BYTES + 1) });
    expect(refused).toMatchObject({ status: 413, body: { ok: false, error: { code: 'FILE_TOO_LARGE' } } });
    expect(await readdir(dir)).toEqual([]);
    // U+202E before "gpj.exe" would show it as "exe.jpg".
    const named = await put(staged, Buffer.from('x'), { [STAGING_NAME_HEADER]: encodeURIComponent('\u202egpj.exe') });
    expect(named.body).toMatchObject({ ok: true, data: { name: 'gpj.exe' } });
    await staged.releaseAll();
  });

  it('a file released (its import ended) makes room again; the total bytes are bounded too, partial file removed', async () => {
    const dir = await mkdtemp(join(root, 'bytes-'));
    const staged = new StagedFiles(dir, { maxFiles: 2, maxTotalBytes: 100 });
    const first = await staged.receive(bytes(60), { name: 'a.webm' });
    await expect(staged.receive(bytes(60), { name: 'b.webm' })).rejects.toEqual(new StagingLimitError('bytes', 100));
    await staged.receive(bytes(30), { name: 'c.webm' });
    await expect(staged.receive(bytes(1), { name: 'd.webm' })).rejects.toEqual(new StagingLimitError('files', 2));
    await staged.release(first.id);
    await expect(staged.receive(bytes(60), { name: 'e.webm' })).resolves.toHaveProperty('size', 60);
    const [folder] = (await readdir(dir)).filter((n) => n.startsWith('omni-staging-'));
    // Two files and the owner mark: the refused uploads left nothing behind.
    expect((await readdir(join(dir, folder!))).length).toBe(3);
    await staged.releaseAll();
  });

  it('at start, a crashed run’s staging folder is removed; a live one’s and one without an owner are kept', async () => {
    const dir = await mkdtemp(join(root, 'start-'));
    const dead = join(dir, 'omni-staging-dead');
    const live = join(dir, 'omni-staging-live');
    const unmarked = join(dir, 'omni-staging-unmarked');
    for (const d of [dead, live, unmarked]) await mkdir(d);
    await writeFile(join(dead, '.owner-pid'), '2147483646');
    await writeFile(join(dead, 'upload'), 'left behind');
    await writeFile(join(live, '.owner-pid'), String(process.pid));
    expect(await removeLeftoverStaging(dir)).toBe(1);
    expect((await readdir(dir)).sort()).toEqual(['omni-staging-live', 'omni-staging-unmarked']);
  });
});
