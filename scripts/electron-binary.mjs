import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * Path of Electron's binary, or why there is none. Read from the electron package's files rather than by
 * `require('electron')`, which since Electron 42 starts a download as a side effect. `downloadable` says that
 * the package is there and only its binary is missing (fetched on first use since Electron 42).
 */
export function electronBinary() {
  const packageDir = resolvedDir('electron/package.json');
  if (!packageDir) return { reason: 'the electron package is not installed' };
  const pathFile = join(packageDir, 'path.txt');
  const binary = existsSync(pathFile) ? join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim()) : undefined;
  if (binary && existsSync(binary)) return { path: binary };
  return {
    reason: 'the electron package is installed without its binary',
    downloadable: existsSync(join(packageDir, 'install.js')),
  };
}

/**
 * Fetches Electron's binary with the package's own installer (from github.com, or ELECTRON_MIRROR). Returns why it
 * failed, in one line, or undefined when the binary is now there.
 */
export function downloadElectronBinary() {
  const packageDir = resolvedDir('electron/package.json');
  if (!packageDir) return 'the electron package is not installed';
  const run = spawnSync(process.execPath, [join(packageDir, 'install.js')], { encoding: 'utf8', timeout: 10 * 60_000 });
  if (run.status === 0 && electronBinary().path) return undefined;
  const output = `${run.stderr ?? ''}\n${run.stdout ?? ''}`;
  const cause =
    output.match(/\b(E[A-Z]{3,}[A-Z_]*)\b[^\n]*/)?.[0] ??
    output
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim();
  return run.error ? String(run.error.message) : (cause ?? `the installer ended with code ${run.status}`);
}

/** The installed electron package's version, or undefined when it is not installed. */
export function electronVersion() {
  const packageDir = resolvedDir('electron/package.json');
  if (!packageDir) return undefined;
  try {
    return JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/** The packages `npm start` needs besides Electron (the renderer build and the web shell) that are not installed. */
export function missingTools() {
  return ['vite', 'tsx', 'electron-vite'].filter((name) => !resolvedDir(`${name}/package.json`));
}

function resolvedDir(specifier) {
  try {
    return dirname(require.resolve(specifier));
  } catch {
    return undefined;
  }
}
