import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Path of Electron's binary, or why there is none. The npm package installs without it when
 * ELECTRON_SKIP_BINARY_DOWNLOAD=1 (as on machines without access to Electron's download host).
 */
export function electronBinary() {
  const require = createRequire(import.meta.url);
  if (!resolves(require, 'electron/package.json')) return { reason: 'the electron package is not installed' };
  try {
    const path = require('electron');
    if (typeof path === 'string' && existsSync(path)) return { path };
    return { reason: `the electron package points at ${path}, which does not exist` };
  } catch {
    return { reason: 'the electron package is installed without its binary (ELECTRON_SKIP_BINARY_DOWNLOAD)' };
  }
}

/** The packages `npm start` needs besides Electron (the renderer build and the web shell) that are not installed. */
export function missingTools() {
  const require = createRequire(import.meta.url);
  return ['vite', 'tsx', 'electron-vite'].filter((name) => !resolves(require, `${name}/package.json`));
}

function resolves(require, specifier) {
  try {
    require.resolve(specifier);
    return true;
  } catch {
    return false;
  }
}
