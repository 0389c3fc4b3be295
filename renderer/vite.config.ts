import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/**
 * Web-shell build of the renderer (`npm run build:renderer` → out/web). Identical to the Electron renderer except
 * that preload/web.ts is injected as the first module script: in Electron the sandboxed preload installs
 * `window.omni`; in the browser this script does, over fetch to the loopback host.
 */
const webPreload = (): Plugin => ({
  name: 'omni-web-preload',
  transformIndexHtml: {
    order: 'pre',
    handler: (html) =>
      html.replace(
        '<script type="module" src="./main.tsx"></script>',
        '<script type="module" src="../preload/web.ts"></script>\n    <script type="module" src="./main.tsx"></script>',
      ),
  },
});

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react(), webPreload()],
  build: {
    outDir: fileURLToPath(new URL('../out/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    // pdf.js and friends are large; chunks load lazily per area.
    chunkSizeWarningLimit: 2000,
  },
});
