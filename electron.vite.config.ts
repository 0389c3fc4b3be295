import react from '@vitejs/plugin-react';
import { randomBytes } from 'node:crypto';
import { cpSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

/**
 * Files main reads beside its module at run time: the demo server's media fixtures (new URL('./fixtures/…',
 * import.meta.url)) and the threads' plain-JavaScript files, started as Workers: the embedded database, the chain
 * walker with the hashes and paging it imports, and the NOM-151 verifier's (which imports the bundled nom151-verify.js).
 */
const copyRuntimeFiles = (): Plugin => ({
  name: 'omni-copy-runtime-files',
  closeBundle: () => {
    cpSync(resolve('main/demo-server/fixtures'), resolve('out/main/fixtures'), { recursive: true });
    for (const thread of ['embedded-worker.mjs', 'chain-walker.mjs', 'chain-hash.mjs', 'chain-pages.mjs'])
      cpSync(resolve('main/record', thread), resolve('out/main', thread));
    cpSync(resolve('main/nom151/verifier-thread.mjs'), resolve('out/main/verifier-thread.mjs'));
  },
});

/**
 * `electron-vite dev` only. The strict CSP forbids inline scripts, and React's refresh preamble is one. Vite tags
 * every script and style it injects with a per-run nonce; main reads that nonce from OMNI_DEV_CSP_NONCE (electron-vite
 * starts Electron with this process's environment) and sends the dev CSP for the dev server's answers
 * (main/security-policy.ts devRendererFrom). The strict meta tag is dropped in dev because a page's policies add up:
 * it would still block the preamble. Builds are untouched.
 */
export const devCspNonce = (): Plugin => ({
  name: 'omni-dev-csp-nonce',
  apply: 'serve',
  config() {
    const nonce = randomBytes(18).toString('base64url');
    process.env.OMNI_DEV_CSP_NONCE = nonce;
    return { html: { cspNonce: nonce } };
  },
  transformIndexHtml: {
    order: 'pre',
    handler: (html) => html.replace(/<meta\s+http-equiv="Content-Security-Policy"[^>]*>\s*/i, ''),
  },
});

/**
 * electron-vite builds the three parts into out/: main (ESM, Node deps external), preload (one self-contained
 * CommonJS file: sandboxed preloads cannot import modules) and the renderer (same sources as the web build,
 * without preload/web.ts: in Electron the preload installs window.omni).
 */
export default defineConfig({
  main: {
    plugins: [copyRuntimeFiles()],
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: { index: resolve('main/index.ts'), 'nom151-verify': resolve('main/nom151/verify.ts') },
        // Shared code beside the entries, not in chunks/: a module finds its threads and fixtures beside itself.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs', inlineDynamicImports: true },
      },
    },
  },
  renderer: {
    root: 'renderer',
    base: './',
    plugins: [react(), devCspNonce()],
    build: {
      outDir: 'out/renderer',
      rollupOptions: { input: { index: resolve('renderer/index.html') } },
    },
  },
});
