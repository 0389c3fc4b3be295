import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RECORD_FOLDER } from '../../main/app-context';
import { startWebShell, type WebShell } from '../../main/web-shell/index';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJpbnRlcnZpZXdJZCI6Im1vZGVzIn0.c2lnbmF0dXJlLW1vZGVz';

async function call(shell: WebShell, channel: string, input: unknown = {}) {
  const key = new URL(shell.appUrl).hash.replace('#k=', '');
  const res = await fetch(`${shell.origin}/ipc/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: shell.origin, 'x-omni-shell-key': key },
    body: JSON.stringify(input),
  });
  const result = (await res.json()) as { ok: boolean; error?: unknown };
  if (!result.ok) throw new Error(`${channel}: ${JSON.stringify(result.error)}`);
}

/** Every entry under dir with its permission bits, the folder itself first. */
/**
 * The mode of the folder and of each file in it. The embedded review database is one entry: its folder is 0700, so
 * nothing inside can be reached by another user whatever PGlite's own files' modes are.
 */
async function modes(dir: string): Promise<[string, string][]> {
  const found: [string, string][] = [['.', ((await stat(dir)).mode & 0o777).toString(8)]];
  for (const entry of await readdir(dir, { recursive: true }))
    if (!entry.startsWith(`${RECORD_FOLDER}/`))
      found.push([entry, ((await stat(join(dir, entry))).mode & 0o777).toString(8)]);
  return found;
}

const privateMode = (name: string) => (name === '.' || name === RECORD_FOLDER ? '700' : '600');

describe.skipIf(process.platform === 'win32')('web shell data files are private to their user', () => {
  const parent = mkdtempSync(join(tmpdir(), 'omni-hardening-files-'));
  afterAll(() => rm(parent, { recursive: true, force: true }));

  async function useAll(dataDir: string) {
    const shell = await startWebShell({ port: 0, dataDir });
    try {
      await call(shell, 'settings.acceptWeakStorage');
      await call(shell, 'settings.setPreferences', { theme: 'dark' });
      await call(shell, 'queue.importText', { text: `interviewId,sessionToken\nmodes-1,${JWT}`, format: 'csv' });
      await call(shell, 'interview.saveDraft', { interviewId: 'modes-1', kind: 'notes', text: 'Nombre: Ana Pérez' });
      await call(shell, 'interview.open', { interviewId: 'modes-1' }).catch(() => undefined);
    } finally {
      await shell.close();
    }
  }

  it('a new data folder is 0700 and every file in it 0600', async () => {
    const dataDir = join(parent, 'new', 'web');
    await useAll(dataDir);
    const found = await modes(dataDir);
    expect(found.map(([name]) => name)).toEqual(
      expect.arrayContaining(['omni-reviewer.json', RECORD_FOLDER, 'vault.key']),
    );
    expect(found).toEqual(found.map(([name]) => [name, privateMode(name)]));
  });

  it('a folder and files an earlier version left readable to others are made private', async () => {
    const dataDir = join(parent, 'old');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    for (const name of ['omni-reviewer-drafts.json', 'audit-trail.jsonl']) {
      writeFileSync(join(dataDir, name), name.endsWith('.json') ? '{}' : '', { mode: 0o644 });
      chmodSync(join(dataDir, name), 0o644);
    }
    mkdirSync(join(dataDir, RECORD_FOLDER), { mode: 0o755 });
    chmodSync(join(dataDir, RECORD_FOLDER), 0o755);
    await useAll(dataDir);
    const found = await modes(dataDir);
    // The earlier version's files were imported into the record and kept aside, private too.
    expect(found.some(([name]) => name.startsWith('audit-trail.jsonl.imported-'))).toBe(true);
    expect(found).toEqual(found.map(([name]) => [name, privateMode(name)]));
  });
});
