import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

/**
 * README: "Settings and the encrypted credentials are kept in one data folder, readable by your user only (folders
 * 0700, files 0600)". Electron's own store, with the real electron-store and Conf writing real files: only the
 * `electron` module is a stand-in (vitest inlines electron-store so that its import of `electron` is this one), its
 * userData folder a temp folder left readable to others, as a first start might find it.
 */
const userData = vi.hoisted(() => ({ dir: '' }));
vi.mock('electron', () => {
  const electron = {
    app: { getPath: () => userData.dir, getVersion: () => '0.0.0-test' },
    ipcMain: { on: () => undefined },
    shell: {},
  };
  return { ...electron, default: electron };
});

const root = mkdtempSync(join(tmpdir(), 'omni-electron-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('Electron’s data folder', () => {
  it('is made 0700 and the settings file 0600 as electron-store writes it; Chromium’s own folders are left as they are', async () => {
    userData.dir = join(root, 'Omni Reviewer');
    mkdirSync(join(userData.dir, 'GPUCache'), { recursive: true, mode: 0o755 });
    const { electronJsonStore } = await import('../../../main/electron/store');
    const opened = electronJsonStore();
    opened.store.set('preferences', { language: 'es' });
    expect(statSync(userData.dir).mode & 0o777).toBe(0o700);
    const files = readdirSync(userData.dir).filter((name) => name.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) expect(statSync(join(userData.dir, name)).mode & 0o777, name).toBe(0o600);
    expect(statSync(join(userData.dir, 'GPUCache')).mode & 0o777).toBe(0o755);
  });
});
