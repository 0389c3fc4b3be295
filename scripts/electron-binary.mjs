import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Path of Electron's binary, or why there is none. The npm package installs without it when
 * ELECTRON_SKIP_BINARY_DOWNLOAD=1 (as on machines without access to Electron's download host).
 */
export function electronBinary() {
  const require = createRequire(import.meta.url);
  try {
    const path = require('electron');
    if (typeof path === 'string' && existsSync(path)) return { path };
    return { reason: `the electron package points at ${path}, which does not exist` };
  } catch {
    return { reason: 'the electron package is installed without its binary (ELECTRON_SKIP_BINARY_DOWNLOAD)' };
  }
}
