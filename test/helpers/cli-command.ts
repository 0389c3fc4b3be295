import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The arguments for `node` that start one of the project's command lines: its JavaScript build when this run made
 * one (scripts/test.mjs and Playwright's global setup name it in OMNI_WEB_SHELL_JS, scripts/build-web-shell.mjs puts
 * the demo server's beside it), else its TypeScript through tsx. Same code either way; the build spares each start
 * tsx's transform (about 1.2 s of CPU, docs/testing.md).
 */
export function cliCommand(which: 'web-shell' | 'demo-server'): string[] {
  const built = process.env.OMNI_WEB_SHELL_JS;
  if (built) {
    const file = which === 'web-shell' ? built : join(dirname(built), 'demo-server.mjs');
    if (existsSync(file)) return ['--enable-source-maps', file];
  }
  return ['--import', 'tsx', which === 'web-shell' ? 'main/web-shell/cli.ts' : 'main/demo-server/cli.ts'];
}
