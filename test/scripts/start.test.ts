import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** A copy of the project's start scripts in a folder of its own, with only the packages a test installs. */
function project(packages: Record<string, string | undefined>) {
  const root = mkdtempSync(join(tmpdir(), 'omni-hardening-start-'));
  roots.push(root);
  mkdirSync(join(root, 'scripts'));
  for (const file of ['start.mjs', 'electron-binary.mjs'])
    copyFileSync(new URL(`../../scripts/${file}`, import.meta.url), join(root, 'scripts', file));
  writeFileSync(
    join(root, 'package.json'),
    JSON.stringify({
      name: 'start-probe',
      private: true,
      type: 'module',
      // `--`: what npm start passes on (--data-dir) reaches the probe, not node's own options.
      scripts: { 'start:web': 'node -e "console.log(\'web shell starting\')" --' },
    }),
  );
  for (const [name, main] of Object.entries(packages)) {
    mkdirSync(join(root, 'node_modules', name), { recursive: true });
    writeFileSync(join(root, 'node_modules', name, 'package.json'), JSON.stringify({ name, main: 'index.js' }));
    if (main !== undefined) writeFileSync(join(root, 'node_modules', name, 'index.js'), main);
  }
  return root;
}
const roots: string[] = [];
afterAll(() => Promise.all(roots.map((r) => rm(r, { recursive: true, force: true }))));

/**
 * CI installs with ELECTRON_SKIP_BINARY_DOWNLOAD=1; each test says whether it wants it. The data folder is the
 * project's own, so no run remembers anything in the user's.
 */
const start = (root: string, env: Record<string, string> = {}) => {
  const { ELECTRON_SKIP_BINARY_DOWNLOAD: _inherited, OMNI_FETCH_ELECTRON: _asked, ...base } = process.env;
  return spawnSync(process.execPath, [join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...base, OMNI_REVIEWER_DATA_DIR: join(root, 'data'), ...env },
  });
};

/** A package whose installer notes that it ran, then fails as it does where Electron's download host is unreachable. */
function failingInstaller(root: string) {
  const marker = join(root, 'download-tried');
  writeFileSync(
    join(root, 'node_modules', 'electron', 'install.js'),
    `require('fs').writeFileSync(${JSON.stringify(marker)}, '');\nconsole.error('TypeError: fetch failed (ENOTFOUND github.com)');\nprocess.exit(1);`,
  );
  return marker;
}

describe('npm start tells a missing install from a missing Electron binary', () => {
  it('nothing installed: says to run npm install, in English and Spanish, and starts nothing', () => {
    const run = start(project({}));
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/not installed .*Run npm install/);
    expect(run.stderr).toMatch(/Ejecuta npm install/);
    expect(run.stdout + run.stderr).not.toMatch(/without its binary|not found/);
  });

  it('installed without the Electron binary: says so and starts the web shell', () => {
    // What electron's own index.js does when its binary was not downloaded.
    const noBinary =
      "throw new Error('Electron failed to install correctly, please delete node_modules/electron and try installing again');";
    const run = start(project({ electron: noBinary, vite: undefined, tsx: undefined, 'electron-vite': undefined }));
    expect(run.stdout).toContain('installed without its binary');
    expect(run.stdout).toContain('web shell starting');
    expect(run.status).toBe(0);
  });

  it('Electron 42+ without its binary yet: tries the download once, then says why it failed and starts the web shell', () => {
    const root = project({ electron: undefined, vite: undefined, tsx: undefined, 'electron-vite': undefined });
    const marker = failingInstaller(root);
    const run = start(root);
    expect(existsSync(marker)).toBe(true);
    expect(run.stdout).toContain("Fetching Electron's binary");
    expect(run.stdout).toMatch(/could not be downloaded .*ENOTFOUND github\.com/);
    expect(run.stdout).not.toContain('ELECTRON_SKIP_BINARY_DOWNLOAD');
    expect(run.stdout).toContain('web shell starting');
    expect(run.status).toBe(0);
  });

  it('ELECTRON_SKIP_BINARY_DOWNLOAD=1: no download is tried; the web shell starts', () => {
    const root = project({ electron: undefined, vite: undefined, tsx: undefined, 'electron-vite': undefined });
    const marker = failingInstaller(root);
    const run = start(root, { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
    expect(existsSync(marker)).toBe(false);
    expect(run.stdout).toContain('installed without its binary');
    expect(run.stdout).toContain('web shell starting');
    expect(run.status).toBe(0);
  });
});

describe("Electron's absence is told once, not at every start", () => {
  const withoutBinary = () =>
    project({ electron: undefined, vite: undefined, tsx: undefined, 'electron-vite': undefined });
  const setElectronVersion = (root: string, version: string) =>
    writeFileSync(
      join(root, 'node_modules', 'electron', 'package.json'),
      JSON.stringify({ name: 'electron', version, main: 'index.js' }),
    );

  it('the second start neither fetches again nor says why: it starts the web shell', () => {
    const root = withoutBinary();
    setElectronVersion(root, '45.4.1');
    const marker = failingInstaller(root);
    const first = start(root);
    expect(first.stdout).toContain("Fetching Electron's binary");
    expect(first.stdout).toContain('Later starts go straight to the web shell');
    const note = join(root, 'data', 'electron-binary-absent.json');
    expect(statSync(note).mode & 0o777).toBe(0o600);
    rmSync(marker);

    const second = start(root);
    expect(existsSync(marker)).toBe(false);
    expect(second.stdout).not.toContain("Fetching Electron's binary");
    expect(second.stdout).not.toContain('Electron is not available');
    expect(second.stdout).toContain('web shell starting');
    expect(second.status).toBe(0);
    expect(JSON.parse(readFileSync(note, 'utf8'))).toMatchObject({ electronVersion: '45.4.1' });
  });

  it('another Electron version installed since: tries its download once more', () => {
    const root = withoutBinary();
    setElectronVersion(root, '45.4.1');
    const marker = failingInstaller(root);
    start(root);
    rmSync(marker);
    setElectronVersion(root, '45.5.0');
    const run = start(root);
    expect(existsSync(marker)).toBe(true);
    expect(run.stdout).toContain("Fetching Electron's binary");
  });

  it('OMNI_FETCH_ELECTRON=1 tries again, and says so', () => {
    const root = withoutBinary();
    const marker = failingInstaller(root);
    start(root);
    rmSync(marker);
    const run = start(root, { OMNI_FETCH_ELECTRON: '1' });
    expect(existsSync(marker)).toBe(true);
    expect(run.stdout).toMatch(/could not be downloaded .*ENOTFOUND github\.com/);
    expect(run.stdout).toContain('web shell starting');
  });

  it('--data-dir given to npm start is where it is remembered', () => {
    const root = withoutBinary();
    failingInstaller(root);
    const own = join(root, 'own-data');
    const run = spawnSync(process.execPath, [join(root, 'scripts', 'start.mjs'), '--data-dir', own], {
      cwd: root,
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', OMNI_REVIEWER_DATA_DIR: join(root, 'data') },
    });
    expect(run.status).toBe(0);
    expect(existsSync(join(own, 'electron-binary-absent.json'))).toBe(true);
    expect(existsSync(join(root, 'data', 'electron-binary-absent.json'))).toBe(false);
  });
});
