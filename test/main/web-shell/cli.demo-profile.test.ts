import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callShell } from '../../helpers/shell-calls';
import { cliCommand } from '../../helpers/cli-command';

const dir = mkdtempSync(join(tmpdir(), 'omni-demo-profile-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

function startWeb(args: string[]): ChildProcess {
  return spawn(
    process.execPath,
    [...cliCommand('web-shell'), '--port', '0', '--no-open', '--data-dir', join(dir, 'data'), ...args],
    { env: { ...process.env, DISPLAY: '', WAYLAND_DISPLAY: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

describe('npm run start:web -- --demo-profile', () => {
  it('production-like: the built-in demo service answers in that profile', async () => {
    const child = startWeb(['--demo-profile', 'production-like']);
    try {
      let stdout = '';
      const ready = await new Promise<RegExpMatchArray>((resolve, reject) => {
        child.stdout!.on('data', (c: Buffer) => {
          stdout += c.toString();
          const match = /ready at (http:\/\/[^/\s]+)\/#k=(\S+)/.exec(stdout);
          if (match) resolve(match);
        });
        child.once('exit', (code) => reject(new Error(`web shell exited with ${code}`)));
      });
      const data = await callShell<{ environments: { kind: string; baseUrl: string }[] }>(
        `${ready[1]}/#k=${ready[2]}`,
        'settings.environments',
      );
      const demoUrl = data.environments.find((e) => e.kind === 'demo')!.baseUrl;
      expect(await (await fetch(`${demoUrl}/__demo/profile`)).json()).toEqual({ profile: 'production-like' });
    } finally {
      child.kill('SIGTERM');
    }
  }, 30_000);

  it('an unknown profile is refused before anything starts', async () => {
    const child = startWeb(['--demo-profile', 'prod']);
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr).toMatch(/--demo-profile must be spec or production-like/);
  }, 30_000);
});
