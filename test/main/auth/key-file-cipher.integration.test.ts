import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'vault-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('a first start whose write of the key fails leaves no key file, and the next start makes one (red team 11)', () => {
  const keyFile = join(dir, 'vault.key');
  const create = join(import.meta.dirname, 'fixtures', 'create-key-file.mts');
  // No byte may be written (a full disk, as far as the write knows): the file is created, its write fails. An empty
  // key file left behind stopped every later start.
  const failed = spawnSync('bash', [
    '-c',
    `ulimit -f 0; exec "${process.execPath}" --import tsx "${create}" "${keyFile}"`,
  ]);
  expect(failed.status).not.toBe(0);
  expect(readdirSync(dir)).not.toContain('vault.key');
  const next = spawnSync(process.execPath, ['--import', 'tsx', create, keyFile], { encoding: 'utf8' });
  expect(next.stdout).toBe('created\n');
  expect(readFileSync(keyFile).length).toBe(32);
});
