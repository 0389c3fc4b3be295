#!/usr/bin/env node
/**
 * Packaging (`npm run dist`) downloads Electron, and electron-builder's tools, from their host (github.com, or
 * ELECTRON_MIRROR). Without it the build failed after many silent seconds with ENOTFOUND and a stack trace; this says
 * why before the download is tried. electron-builder runs it as its beforePack hook; `node scripts/packaging-host.mjs`
 * runs the same check alone.
 */
import { lookup } from 'node:dns/promises';
import { pathToFileURL } from 'node:url';

const LOOKUP_TIMEOUT_MS = 5000;

export function downloadHost(env = process.env) {
  const mirror = env.ELECTRON_MIRROR ?? env.npm_config_electron_mirror;
  if (!mirror) return 'github.com';
  try {
    return new URL(mirror).hostname;
  } catch {
    return mirror;
  }
}

/** undefined when the host resolves; otherwise the message to print. */
export async function packagingHostProblem(env = process.env) {
  const host = downloadHost(env);
  const timeout = new Promise((_, reject) =>
    setTimeout(() => reject(Object.assign(new Error('timed out'), { code: 'ETIMEOUT' })), LOOKUP_TIMEOUT_MS).unref(),
  );
  try {
    await Promise.race([lookup(host), timeout]);
    return undefined;
  } catch (error) {
    const code = error?.code ?? 'unknown error';
    return (
      `Packaging downloads Electron and its build tools from ${host}, which cannot be reached from here (${code}).\n` +
      'Connect to a network that reaches it, or set ELECTRON_MIRROR to a mirror you can reach, then run npm run dist again.\n' +
      `El empaquetado descarga Electron y sus herramientas desde ${host}, que no se puede alcanzar desde aquí (${code}).\n` +
      'Conéctate a una red que lo alcance, o define ELECTRON_MIRROR con un espejo accesible, y vuelve a ejecutar npm run dist.\n'
    );
  }
}

/** electron-builder's beforePack hook: stops with the message instead of the download's stack trace. */
export async function beforePack() {
  const problem = await packagingHostProblem();
  if (!problem) return;
  process.stderr.write(problem);
  process.exit(1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await beforePack();
