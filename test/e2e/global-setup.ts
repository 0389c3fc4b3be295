import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The web shell serves the built renderer. Each Playwright run builds its own copy (several runs may share this
 * machine, and a rebuild under a running test would swap the hashed assets) unless the caller (scripts/test.mjs)
 * already built one and names it in OMNI_WEB_STATIC_DIR.
 */
export default function globalSetup() {
  if (process.env.OMNI_WEB_STATIC_DIR) return undefined;
  const dir = join(process.cwd(), '.tmp', `e2e-web-${process.pid}`);
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
  return () => rmSync(dir, { recursive: true, force: true });
}
