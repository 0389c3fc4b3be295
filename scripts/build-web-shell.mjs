#!/usr/bin/env node
/**
 * The web shell's main-process code (main/web-shell/cli.ts and what it imports) as one JavaScript file for plain
 * `node`, so a test run that starts the shell many times (the Playwright journeys: one shell per test) loads
 * JavaScript instead of having tsx transform TypeScript at every start. `node scripts/build-web-shell.mjs OUT_DIR`
 * writes OUT_DIR/cli.mjs (and the Playwright workers' shell host beside it) and prints cli.mjs's path.
 *
 * - Packages stay imports (`packages: 'external'`): OUT_DIR must be inside the project (.tmp/), so that they resolve
 *   from its node_modules as they do from the sources.
 * - Main reads files beside its own modules (`new URL('./embedded-worker.mjs', import.meta.url)`, the demo server's
 *   fixtures, the project's package.json and out/web from main/web-shell). In one bundled file every module would
 *   share the bundle's URL, so each project module's `import.meta.url` is replaced by its source file's URL: those
 *   files are found where they are, unchanged.
 */
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;

/** Each project module's `import.meta.url` as its source file's URL (not the bundle's). */
const sourceUrls = {
  name: 'omni-source-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.(ts|tsx|mts|js|mjs)$/ }, async (args) => {
      if (/[\\/]node_modules[\\/]/.test(args.path)) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!/import\.meta\.(url|dirname|filename)/.test(text)) return undefined;
      const url = pathToFileURL(args.path);
      const contents = text
        .replaceAll('import.meta.url', JSON.stringify(url.href))
        .replaceAll('import.meta.dirname', JSON.stringify(resolve(args.path, '..')))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      const loader = args.path.endsWith('.tsx') ? 'tsx' : /\.(ts|mts)$/.test(args.path) ? 'ts' : 'js';
      return { contents, loader, resolveDir: resolve(args.path, '..') };
    });
  },
};

/**
 * Builds OUT_DIR/cli.mjs and, beside it, OUT_DIR/shell-host.mjs (test/e2e/shell-host.ts: the Playwright workers'
 * in-process shells), OUT_DIR/demo-server.mjs (`npm run demo-server`, for the tests that start its command line) and
 * OUT_DIR/record-template.mjs (test/helpers/record-template.ts, run by scripts/test.mjs before the runners);
 * returns cli.mjs's absolute path. OUT_DIR is made if need be.
 */
export async function buildWebShell(outDir) {
  const outdir = resolve(outDir);
  if (relative(root, outdir).startsWith('..'))
    throw new Error(`The web shell's build must be inside ${root} so its packages resolve; got ${outdir}`);
  await build({
    entryPoints: {
      cli: join(root, 'main/web-shell/cli.ts'),
      'shell-host': join(root, 'test/e2e/shell-host.ts'),
      'demo-server': join(root, 'main/demo-server/cli.ts'),
      'record-template': join(root, 'test/helpers/record-template.ts'),
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    packages: 'external',
    sourcemap: 'inline',
    logLevel: 'warning',
    plugins: [sourceUrls],
  });
  return join(outdir, 'cli.mjs');
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const outDir = process.argv[2];
  if (!outDir) {
    process.stderr.write('Usage: node scripts/build-web-shell.mjs OUT_DIR\n');
    process.exit(2);
  }
  process.stdout.write(`${await buildWebShell(outDir)}\n`);
}
