import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { cliCommand } from '../../helpers/cli-command';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGTERM');
});

function runCli(args: string[]): ChildProcess {
  const child = spawn(process.execPath, [...cliCommand('demo-server'), ...args], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return child;
}

describe('npm run demo-server', () => {
  it('prints one line with its loopback URL and serves the interface there', async () => {
    const child = runCli(['--port', '0']);
    const lines = createInterface({ input: child.stdout! });
    const [line] = (await once(lines, 'line')) as [string];
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(line)?.[0];
    expect(url).toBeDefined();
    const credentials = await (await fetch(`${url}/__demo/credentials`)).json();
    expect(credentials.apiKey).toBeTruthy();
    const res = await fetch(`${url}/omni/api-key`, { headers: { 'x-api-key': credentials.apiKey } });
    expect(res.status).toBe(400);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('refuses a bad port and a non-loopback host without the flag', async () => {
    const badPort = runCli(['--port', 'abc']);
    const [portCode] = await once(badPort, 'exit');
    expect(portCode).toBe(2);
    const unknownFlag = runCli(['--prot', '1']);
    const [flagCode] = await once(unknownFlag, 'exit');
    expect(flagCode).toBe(2);
    const wide = runCli(['--port', '0', '--host', '0.0.0.0']);
    let stderr = '';
    wide.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [hostCode] = await once(wide, 'exit');
    expect(hostCode).toBe(1);
    expect(stderr).toMatch(/allowNonLoopback/);
    // Three starts of the CLI one after another (through tsx when no build is named): a loaded machine needs more than 20 s.
  }, 60_000);

  it('--profile production-like answers as production does; an unknown profile is refused', async () => {
    const child = runCli(['--port', '0', '--profile', 'production-like']);
    const lines = createInterface({ input: child.stdout! });
    const [line] = (await once(lines, 'line')) as [string];
    expect(line).toContain('profile: production-like');
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(line)![0];
    expect(await (await fetch(`${url}/__demo/profile`)).json()).toEqual({ profile: 'production-like' });
    child.kill('SIGTERM');
    await once(child, 'exit');

    const unknown = runCli(['--port', '0', '--profile', 'prod']);
    let stderr = '';
    unknown.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = await once(unknown, 'exit');
    expect(code).toBe(2);
    expect(stderr).toMatch(/--profile must be spec or production-like/);
    // Two starts of the CLI, as above.
  }, 60_000);
});
