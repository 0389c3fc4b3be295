import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliCommand } from '../../helpers/cli-command';

const dir = mkdtempSync(join(tmpdir(), 'omni-hardening-open-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Each request to the host, answered but not followed: the redirect's Location is what is checked. */
async function open(url: string) {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), body: await res.text() };
}

describe.skipIf(process.platform !== 'linux')(
  'the web shell opens the browser with a one-time code, never the key',
  () => {
    it('xdg-open gets a code, the code gives the key once, then is refused', async () => {
      // A stand-in xdg-open that records the command line it was given, as another local user could read it.
      const bin = join(dir, 'bin');
      const seen = join(dir, 'xdg-open-args');
      mkdirSync(bin);
      writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$*" > '${seen}'\n`);
      chmodSync(join(bin, 'xdg-open'), 0o755);

      const child = spawn(
        process.execPath,
        [...cliCommand('web-shell'), '--port', '0', '--data-dir', join(dir, 'data')],
        {
          env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, DISPLAY: ':99', WAYLAND_DISPLAY: '' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      try {
        let stdout = '';
        const ready = await new Promise<RegExpMatchArray>((resolve, reject) => {
          child.stdout.on('data', (c: Buffer) => {
            stdout += c.toString();
            const match = /ready at (http:\/\/\S+)#k=(\S+)/.exec(stdout);
            if (match) resolve(match);
          });
          child.once('exit', (code) => reject(new Error(`web shell exited with ${code}`)));
        });
        const key = ready[2]!;
        // The shell's redirection creates the file before printf writes to it: wait for its content.
        const written = () => (existsSync(seen) ? readFileSync(seen, 'utf8') : '');
        for (let i = 0; i < 200 && written() === ''; i++) await new Promise((r) => setTimeout(r, 50));
        const commandLine = written();
        expect(commandLine).not.toContain(key);
        expect(commandLine).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/open\?code=[\w-]+$/);

        const first = await open(commandLine);
        expect(first).toMatchObject({ status: 302, location: `/#k=${key}` });
        const again = await open(commandLine);
        expect(again.status).toBe(410);
        expect(again.location).toBeNull();
        expect(again.body).not.toContain(key);
        expect(again.body).toMatch(/already used/);
      } finally {
        // Gone before the folder is removed: the shell's database writes its files as it stops.
        const exited = child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined;
        child.kill();
        await exited;
      }
    }, 30_000);
  },
);
