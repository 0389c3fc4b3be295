import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildWebShell } from '../../scripts/build-web-shell.mjs';

/**
 * Built once per Playwright run, for the ~135 web shells its tests start (test/e2e/fixtures.ts):
 * - the renderer, which the web shell serves. Each run builds its own copy (several runs may share this machine, and
 *   a rebuild under a running test would swap the hashed assets) unless the caller (scripts/test.mjs) already built
 *   one and names it in OMNI_WEB_STATIC_DIR;
 * - the web shell's main-process code as JavaScript (scripts/build-web-shell.mjs), named in OMNI_WEB_SHELL_JS, so
 *   each shell starts on plain `node` instead of tsx transforming the TypeScript again (unless the caller names one),
 *   and beside it each worker's shell host (OMNI_WEB_SHELL_HOST_JS, test/e2e/shell-host.ts), which starts the
 *   worker's shells in one process.
 */
export default async function globalSetup() {
  const made: string[] = [];
  if (!process.env.OMNI_WEB_STATIC_DIR) {
    const dir = join(process.cwd(), '.tmp', `e2e-web-${process.pid}`);
    made.push(dir);
    execFileSync(
      process.execPath,
      [
        'node_modules/vite/bin/vite.js',
        'build',
        '--config',
        'renderer/vite.config.ts',
        '--outDir',
        dir,
        '--emptyOutDir',
        '--logLevel',
        'warn',
      ],
      {
        stdio: 'inherit',
      },
    );
    process.env.OMNI_WEB_STATIC_DIR = dir;
  }
  if (!process.env.OMNI_WEB_SHELL_JS) {
    const dir = join(process.cwd(), '.tmp', `e2e-shell-${process.pid}`);
    made.push(dir);
    process.env.OMNI_WEB_SHELL_JS = await buildWebShell(dir);
  }
  // Built beside cli.mjs: the workers' shell hosts (test/e2e/shell-host.ts), one process each for their shells.
  const host = join(dirname(process.env.OMNI_WEB_SHELL_JS), 'shell-host.mjs');
  if (process.env.OMNI_WEB_SHELL_HOST_JS === undefined && existsSync(host)) process.env.OMNI_WEB_SHELL_HOST_JS = host;
  return () => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  };
}
