import { request as httpRequest } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SHELL_KEY_HEADER } from '../../../common/web-shell';
import { startHost, type Host } from '../../../main/web-shell/host';
import { createMediaStore } from '../../../main/media/registry';
import { createWebFiles } from '../../../main/web-shell/downloads';
import type { Router } from '../../../main/ipc/router';

const KEY = 'k'.repeat(43);
const LIMIT = 4096;
let host: Host;
let clock = Date.now();
let staticDir: string;
const onError = vi.fn();
const handle = vi.fn(async (channel: string) => ({ ok: true as const, data: { channel } }));
const router: Router = { channels: () => ['app.info'], handle };

/** Raw HTTP, so a malformed path reaches the host as written. */
function raw(
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: host.port,
        path,
        method: opts.method ?? 'GET',
        headers: { host: `127.0.0.1:${host.port}`, ...opts.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type']),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}
const ipcHeaders = (withKey = true) => ({
  'content-type': 'application/json',
  origin: host.origin,
  ...(withKey ? { [SHELL_KEY_HEADER]: KEY } : {}),
});

beforeAll(async () => {
  staticDir = await mkdtemp(join(tmpdir(), 'omni-hardening-host-'));
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
  host = await startHost({
    router,
    staticDir,
    media: createMediaStore({ urlFor: (id) => id }),
    downloads: createWebFiles(KEY),
    key: KEY,
    port: 0,
    onError,
    maxIpcBodyBytes: LIMIT,
    now: () => clock,
  });
});
afterAll(async () => {
  await host.close();
  await rm(staticDir, { recursive: true, force: true });
});

describe('web shell host: malformed requests get typed answers', () => {
  it('a malformed % escape in an IPC channel: the key is checked first, then a typed 400; nothing logged', async () => {
    const without = await raw('/ipc/app.%E0%A4%A', { method: 'POST', headers: ipcHeaders(false), body: '{}' });
    expect(without.status).toBe(403);
    const res = await raw('/ipc/app.%E0%A4%A', { method: 'POST', headers: ipcHeaders(), body: '{}' });
    expect(res.status).toBe(400);
    expect(res.type).toMatch(/application\/json/);
    expect(JSON.parse(res.body)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: { en: expect.any(String), es: expect.any(String) } },
    });
    expect(handle).not.toHaveBeenCalled();
    expect(onError).not.toHaveBeenCalled();
  });

  it.each(['/media/%E0%A4%A?exp=1&sig=x', '/download/%ZZ?exp=1&sig=x', '/%E0%A4%A'])(
    'a malformed escape elsewhere is a 400, not a 500: %s',
    async (path) => {
      const res = await raw(path);
      expect(res.status).toBe(400);
      expect(onError).not.toHaveBeenCalled();
    },
  );

  it('a body over the limit gets a typed 413, not a connection reset', async () => {
    const res = await fetch(`${host.origin}/ipc/app.info`, {
      method: 'POST',
      headers: ipcHeaders(),
      body: JSON.stringify({ text: 'x'.repeat(LIMIT * 2) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      ok: false,
      error: { code: 'PAYLOAD_TOO_LARGE', message: { en: expect.any(String), es: expect.any(String) } },
    });
    expect(handle).not.toHaveBeenCalled();
    const fits = await fetch(`${host.origin}/ipc/app.info`, { method: 'POST', headers: ipcHeaders(), body: '{}' });
    expect(fits.status).toBe(200);
  });

  it('a chunked body over the limit also gets the 413', async () => {
    const res = await raw('/ipc/app.info', {
      method: 'POST',
      headers: { ...ipcHeaders(), 'transfer-encoding': 'chunked' },
      body: 'y'.repeat(LIMIT * 3),
    });
    expect(res.status).toBe(413);
  });
});

describe('web shell host: one-time open codes', () => {
  const open = (url: string) => fetch(url, { redirect: 'manual' });

  it('a code opens the app once, carrying the key only into the app address; it holds no part of the key', async () => {
    const url = host.oneTimeOpenUrl();
    expect(url).not.toContain(KEY);
    const first = await open(url);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain(`<meta http-equiv="refresh" content="0;url=/#k=${KEY}">`);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const again = await open(url);
    expect(again.status).toBe(410);
    expect(await again.text()).not.toContain(KEY);
  });

  it('is opened as a page from the private opener file, a cross-site step; nothing else is, nor a fetch of it', async () => {
    const navigation = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
    const fetched = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'empty' };
    const url = host.oneTimeOpenUrl();
    expect((await raw(new URL(url).pathname + new URL(url).search, { headers: fetched })).status).toBe(403);
    expect((await raw(new URL(url).pathname + new URL(url).search, { headers: navigation })).status).toBe(200);
    expect((await raw('/', { headers: navigation })).status).toBe(403);
  });

  it('a code unused for more than five minutes, or a made-up one, is refused', async () => {
    const url = host.oneTimeOpenUrl();
    clock += 5 * 60 * 1000 + 1;
    expect((await open(url)).status).toBe(410);
    expect((await open(`${host.origin}/open?code=guess`)).status).toBe(410);
    expect((await open(`${host.origin}/open`)).status).toBe(410);
  });
});

describe('web shell host: where it listens', () => {
  // Another machine on the network, or a container beside this one, reaches every address but loopback.
  const outward = Object.values(networkInterfaces())
    .flat()
    .find((i) => i !== undefined && !i.internal && i.family === 'IPv4')?.address;

  it.skipIf(outward === undefined)(
    'takes no connection on this machine’s other addresses, only on 127.0.0.1',
    async () => {
      const connects = (address: string) =>
        new Promise<boolean>((resolve) => {
          const socket = connect({ host: address, port: host.port });
          const done = (connected: boolean) => {
            socket.destroy();
            resolve(connected);
          };
          socket.once('connect', () => done(true)).once('error', () => done(false));
          // Refused at once on a closed port; a firewall that drops instead answers nothing.
          socket.setTimeout(5_000, () => done(false));
        });
      expect(await connects('127.0.0.1')).toBe(true);
      expect(await connects(outward!)).toBe(false);
    },
  );
});
