import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../scripts/packaging-host.mjs', import.meta.url));

describe('npm run dist says it needs Electron’s download host before trying', () => {
  it('electron-builder runs the host check before packing (the step that downloads Electron)', () => {
    const yml = readFileSync(new URL('../../electron-builder.yml', import.meta.url), 'utf8');
    expect(yml).toMatch(/^beforePack: \.\/scripts\/packaging-host\.mjs$/m);
  });

  it('an unreachable host: a message naming it, in English and Spanish, exit 1, no stack trace, within seconds', () => {
    const started = Date.now();
    const run = spawnSync(process.execPath, [script], {
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_MIRROR: 'https://electron-mirror.invalid/electron/' },
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      'Packaging downloads Electron and its build tools from electron-mirror.invalid, which cannot be reached from here',
    );
    expect(run.stderr).toContain('El empaquetado descarga Electron');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
