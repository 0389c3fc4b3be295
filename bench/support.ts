import { execFileSync } from 'node:child_process';
import { chromium, type Browser } from '@playwright/test';

/** What every browser bench needs: the same build, the same Chromium, the same IPC call and the same median. */

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Its own build of the renderer (of the checkout at `cwd`), so a concurrent build of out/web cannot swap chunks under the page. */
export function buildRenderer(outDir: string, cwd = process.cwd()): void {
  execFileSync(
    process.execPath,
    [
      'node_modules/vite/bin/vite.js',
      'build',
      '--config',
      'renderer/vite.config.ts',
      '--logLevel',
      'error',
      '--outDir',
      outDir,
    ],
    { stdio: 'inherit', cwd },
  );
}

/** Debian's Chromium (OMNI_CHROMIUM to use another) with the flags this machine needs. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.OMNI_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

/** How a bench reaches an in-process web shell's IPC: its origin and the launch key from its address. */
export const shellIpc = (shell: { origin: string; appUrl: string }) => ({
  origin: shell.origin,
  key: new URL(shell.appUrl).hash.replace('#k=', ''),
});

/** One IPC call to a web shell, as the page makes it; throws when the answer is a failure. */
export async function callIpc<T>(
  shell: { origin: string; key: string },
  channel: string,
  input: unknown = {},
): Promise<T> {
  const res = await fetch(`${shell.origin}/ipc/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: shell.origin, 'x-omni-shell-key': shell.key },
    body: JSON.stringify(input),
  });
  const result = (await res.json()) as { ok: boolean; data?: T; error?: unknown };
  if (!result.ok) throw new Error(`${channel}: ${JSON.stringify(result.error)}`);
  return result.data as T;
}
