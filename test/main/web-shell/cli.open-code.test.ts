import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cliCommand } from '../../helpers/cli-command';

const dir = mkdtempSync(join(tmpdir(), 'omni-hardening-open-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Each request to the host, answered but not followed. */
async function open(url: string) {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), body: await res.text() };
}

/** The origin a web shell prints when it is ready. */
function readyOrigin(child: ChildProcessByStdio<null, Readable, Readable>): Promise<string> {
  let stdout = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      const match = /ready at (http:\/\/\S+?)\/#k=/.exec(stdout);
      if (match) resolve(new URL(match[1]!).origin);
    });
    child.once('exit', (code) => reject(new Error(`web shell exited with ${code}`)));
  });
}

describe.skipIf(process.platform !== 'linux')(
  'the web shell opens the browser on a private file holding a one-time code, never the key',
  () => {
    it('xdg-open gets a file’s path, the file a code, the code gives the key once, then is refused', async () => {
      // A stand-in xdg-open that records the command line it was given, as another local user could read it.
      const bin = join(dir, 'bin');
      const seen = join(dir, 'xdg-open-args');
      mkdirSync(bin);
      writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$*" > '${seen}'\n`);
      chmodSync(join(bin, 'xdg-open'), 0o755);

      const child = spawn(process.execPath, [...cliCommand('web-shell'), '--data-dir', join(dir, 'data')], {
        env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, DISPLAY: ':99', WAYLAND_DISPLAY: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
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
        // Only a private file's path is on the command line; the code is in the file.
        expect(commandLine).not.toContain(key);
        expect(commandLine).not.toContain('code=');
        expect(commandLine).toBe(pathToFileURL(join(dir, 'data', 'open.html')).href);
        const opener = fileURLToPath(commandLine);
        expect(statSync(opener).mode & 0o777).toBe(0o600);
        const code = /url=(http:\/\/127\.0\.0\.1:\d+\/open\?code=[\w-]+)"/.exec(readFileSync(opener, 'utf8'))?.[1];
        expect(code).toBeDefined();

        const first = await open(code!);
        expect(first.status).toBe(200);
        expect(first.body).toContain(`url=/#k=${key}"`);
        const again = await open(code!);
        expect(again.status).toBe(410);
        expect(again.location).toBeNull();
        expect(again.body).not.toContain(key);
        expect(again.body).toMatch(/already used/);
        // The file goes when the shell stops.
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
        expect(existsSync(opener)).toBe(false);

        // The next launch is on another origin: a service worker a page left on this one does not see its key.
        const next = spawn(
          process.execPath,
          [...cliCommand('web-shell'), '--no-open', '--data-dir', join(dir, 'data')],
          {
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        try {
          const nextOrigin = await readyOrigin(next);
          expect(nextOrigin).not.toBe(new URL(ready[1]!).origin);
        } finally {
          const gone = new Promise((resolve) => next.once('exit', resolve));
          next.kill();
          await gone;
        }
      } finally {
        // Gone before the folder is removed: the shell's database writes its files as it stops.
        const exited = child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined;
        child.kill();
        await exited;
      }
    }, 30_000);
  },
);
