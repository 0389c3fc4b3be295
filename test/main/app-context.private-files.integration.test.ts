import { lstatSync, mkdtempSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECORD_FOLDER } from '../../main/app-context';
import { startTestApp } from '../helpers/app-context';

/** Every path under a folder, itself included, with its permission bits. */
function modes(dir: string): { path: string; mode: number; dir: boolean }[] {
  const info = lstatSync(dir);
  const here = { path: dir, mode: info.mode & 0o777, dir: info.isDirectory() };
  if (!info.isDirectory()) return [here];
  return [here, ...readdirSync(dir).flatMap((name) => modes(join(dir, name)))];
}

describe.skipIf(process.platform === 'win32')('the embedded record’s own files are private', () => {
  it('PGlite’s folders are 0700 and its files 0600, while the app runs and after it closes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'omni-private-record-'));
    const app = await startTestApp(dataDir);
    try {
      const record = join(dataDir, RECORD_FOLDER);
      const open = modes(record);
      expect(open.length).toBeGreaterThan(10);
      expect(open.filter((e) => e.mode !== (e.dir ? 0o700 : 0o600))).toEqual([]);
    } finally {
      await app.close();
    }
    const closed = modes(join(dataDir, RECORD_FOLDER));
    expect(closed.filter((e) => e.mode !== (e.dir ? 0o700 : 0o600))).toEqual([]);
    await rm(dataDir, { recursive: true, force: true });
  });
});
