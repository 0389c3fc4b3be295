import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StagedFiles } from '../../../main/capture/staging';
import { StagingTooLargeError } from '../../../main/errors';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capture-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('StagedFiles', () => {
  it('streams an upload into a temp file, serves it by id and deletes it on release', async () => {
    const staging = new StagedFiles(dir);
    const staged = await staging.receive(Readable.from([Buffer.from('hello '), Buffer.from('world')]), {
      name: '../../etc/clip.mp4',
    });
    expect(staged).toMatchObject({ name: 'clip.mp4', size: 11, owned: true });
    expect(await readFile(staging.get(staged.id)!.path, 'utf8')).toBe('hello world');
    // The shared temp folder holds it in a folder only this user opens (README: a private temp folder).
    expect((await stat(dirname(staged.path))).mode & 0o777).toBe(0o700);
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
