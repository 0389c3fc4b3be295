import react from '@vitejs/plugin-react';
import { cpSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

/** The demo server reads its media fixtures beside its module (new URL('./fixtures/…', import.meta.url)). */
const copyDemoFixtures = (): Plugin => ({
  name: 'omni-copy-demo-fixtures',
  closeBundle: () => cpSync(resolve('main/demo-server/fixtures'), resolve('out/main/fixtures'), { recursive: true }),
});

/**
 * electron-vite builds the three parts into out/: main (ESM, Node deps external), preload (one self-contained
 * CommonJS file: sandboxed preloads cannot import modules) and the renderer (same sources as the web build,
 * without preload/web.ts: in Electron the preload installs window.omni).
 */
export default defineConfig({
  main: {
    plugins: [copyDemoFixtures()],
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve('main/index.ts') } },
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
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      rollupOptions: { input: { index: resolve('renderer/index.html') } },
    },
  },
});
