import { request as httpRequest, createServer, type Server } from 'node:http';
import { mkdtemp, writeFile, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SHELL_KEY_HEADER } from '../../../common/web-shell';
import { startHost, type Host } from '../../../main/web-shell/host';
import { createMediaStore } from '../../../main/media/registry';
import { createWebFiles } from '../../../main/web-shell/downloads';
import { signPath } from '../../../main/web-shell/tokens';
import type { Router } from '../../../main/ipc/router';

const KEY = 'k'.repeat(43);
const VIDEO = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));

let host: Host;
let upstream: Server;
let upstreamUrl: string;
let staticDir: string;
const handle = vi.fn(async (channel: string, input: unknown) => ({ ok: true as const, data: { channel, input } }));
const router: Router = { channels: () => ['app.info'], handle };
const media = createMediaStore({ urlFor: (id) => signPath(KEY, 'media', id, Date.now() + 60_000) });
const files = createWebFiles(KEY);

/** Raw HTTP so Host and Origin can be anything (fetch will not let a caller forge Host). */
function raw(
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: host.port, path, method: opts.method ?? 'GET', headers: opts.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('latin1'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

const own = () => ({ host: `127.0.0.1:${host.port}`, origin: host.origin });
const ipc = (headers: Record<string, string>, body = '{}') =>
  raw('/ipc/app.info', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const m = /bytes=(\d+)-(\d*)/.exec(req.headers.range ?? '');
    if (req.url?.startsWith('/expired')) return void res.writeHead(403).end('expired');
    if (!m)
      return void res
        .writeHead(200, { 'content-type': 'video/webm', 'content-length': VIDEO.length, 'accept-ranges': 'bytes' })
        .end(VIDEO);
    const start = Number(m[1]);
    const end = m[2] ? Number(m[2]) : VIDEO.length - 1;
    res.writeHead(206, {
      'content-type': 'video/webm',
      'content-range': `bytes ${start}-${end}/${VIDEO.length}`,
      'content-length': end - start + 1,
      'accept-ranges': 'bytes',
    });
    res.end(VIDEO.subarray(start, end + 1));
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  staticDir = await mkdtemp(join(tmpdir(), 'omni-host-'));
  await mkdir(join(staticDir, 'assets'));
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
  await writeFile(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  host = await startHost({ router, staticDir, media, downloads: files, key: KEY, port: 0 });
});

afterAll(async () => {
  await host.close();
  await new Promise((r) => upstream.close(r));
  await rm(staticDir, { recursive: true, force: true });
});

describe('web shell host: who is served', () => {
  it('serves IPC to its own page with the key', async () => {
    const res = await ipc({ ...own(), [SHELL_KEY_HEADER]: KEY }, '{"a":1}');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ ok: true, data: { channel: 'app.info', input: { a: 1 } } });
    expect(handle).toHaveBeenLastCalledWith('app.info', { a: 1 }, { url: host.origin, isMainFrame: true });
  });

  it.each([
    ['no key', () => ({ ...own() })],
    ['a wrong key', () => ({ ...own(), [SHELL_KEY_HEADER]: 'x'.repeat(43) })],
    ['a key of another length', () => ({ ...own(), [SHELL_KEY_HEADER]: 'short' })],
    ['no Origin', () => ({ host: own().host, [SHELL_KEY_HEADER]: KEY })],
    ['a foreign Origin', () => ({ ...own(), origin: 'http://evil.example', [SHELL_KEY_HEADER]: KEY })],
    ['another port as Origin', () => ({ ...own(), origin: 'http://127.0.0.1:1', [SHELL_KEY_HEADER]: KEY })],
    ['a rebinding Host', () => ({ ...own(), host: `evil.example:${host.port}`, [SHELL_KEY_HEADER]: KEY })],
    ['localhost as Host', () => ({ ...own(), host: `localhost:${host.port}`, [SHELL_KEY_HEADER]: KEY })],
    ['a cross-site fetch', () => ({ ...own(), 'sec-fetch-site': 'cross-site', [SHELL_KEY_HEADER]: KEY })],
  ])('refuses IPC with %s: 403', async (_name, headers) => {
    handle.mockClear();
    const res = await ipc(headers());
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(handle).not.toHaveBeenCalled();
  });

  it('serves the page only under its own Host and Origin, with a strict CSP', async () => {
    const page = await raw('/', { headers: { host: own().host } });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect((await raw('/assets/app.js', { headers: { host: own().host } })).status).toBe(200);
    expect((await raw('/', { headers: { host: `evil.example:${host.port}` } })).status).toBe(403);
    expect((await raw('/assets/app.js', { headers: { host: own().host, origin: 'http://evil.example' } })).status).toBe(
      403,
    );
    expect((await raw('/assets/missing.js', { headers: { host: own().host } })).status).toBe(404);
    // Dot segments cannot climb out of the renderer folder: the page itself is served instead.
    const climb = await raw('/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd', { headers: { host: own().host } });
    expect(climb.body).not.toContain('root:');
    expect((await raw('/..%2f..%2f..%2f..%2fetc%2fhosts.txt', { headers: { host: own().host } })).status).toBe(404);
  });

  it('answers JSON errors for bad IPC bodies instead of crashing', async () => {
    const bad = await ipc({ ...own(), [SHELL_KEY_HEADER]: KEY }, '{not json');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const text = await raw('/ipc/app.info', {
      method: 'POST',
      headers: { ...own(), [SHELL_KEY_HEADER]: KEY, 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(text.status).toBe(415);
    const lookalike = await raw('/ipc/app.info', {
      method: 'POST',
      headers: { ...own(), [SHELL_KEY_HEADER]: KEY, 'content-type': 'application/jsonfoo' },
      body: '{}',
    });
    expect(lookalike.status).toBe(415);
  });
});

describe('web shell host: calls batched in one request', () => {
  const batch = (body: unknown, headers: Record<string, string> = { ...own(), [SHELL_KEY_HEADER]: KEY }) =>
    raw('/ipc', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('answers each call on its own line, tagged with its place in the batch', async () => {
    const res = await batch([
      { channel: 'app.info', input: { n: 1 } },
      { channel: 'settings.environments', input: { n: 2 } },
    ]);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-ndjson');
    const answers = res.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { i: number; result: unknown });
    expect(answers.sort((a, b) => a.i - b.i)).toEqual([
      { i: 0, result: { ok: true, data: { channel: 'app.info', input: { n: 1 } } } },
      { i: 1, result: { ok: true, data: { channel: 'settings.environments', input: { n: 2 } } } },
    ]);
  });

  it('writes a fast answer as soon as it is ready, before a slow one in the same batch', async () => {
    let releaseSlow!: () => void;
    const slow = new Promise<void>((r) => (releaseSlow = r));
    handle.mockImplementation(async (channel: string, input: unknown) => {
      if (channel === 'slow.call') await slow;
      return { ok: true as const, data: { channel, input } };
    });
    try {
      const lines: string[] = [];
      const done = new Promise<void>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port: host.port,
            path: '/ipc',
            method: 'POST',
            headers: { ...own(), [SHELL_KEY_HEADER]: KEY, 'content-type': 'application/json' },
          },
          (res) => {
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              lines.push(...chunk.split('\n').filter(Boolean));
              // The fast answer is here while the slow call is still running: only then is it let go.
              if (lines.length === 1) releaseSlow();
            });
            res.on('end', resolve);
          },
        );
        req.on('error', reject);
        req.end(
          JSON.stringify([
            { channel: 'slow.call', input: {} },
            { channel: 'app.info', input: {} },
          ]),
        );
      });
      await done;
      expect(lines.map((l) => (JSON.parse(l) as { i: number }).i)).toEqual([1, 0]);
    } finally {
      handle.mockImplementation(async (channel: string, input: unknown) => ({
        ok: true as const,
        data: { channel, input },
      }));
    }
  });

  it('sends a finished answer while another call of the batch keeps the process busy', async () => {
    // The client runs in a worker (its own event loop) and raises a shared flag when the fast answer arrives; the
    // busy call spins through promise continuations, never yielding to the event loop, until it sees the flag.
    const arrived = new Int32Array(new SharedArrayBuffer(4));
    let sawFastAnswer = false;
    handle.mockImplementation(async (channel: string, input: unknown) => {
      if (channel === 'busy.call') {
        const giveUp = Date.now() + 2000;
        while (Atomics.load(arrived, 0) === 0 && Date.now() < giveUp) await null;
        sawFastAnswer = Atomics.load(arrived, 0) === 1;
      }
      return { ok: true as const, data: { channel, input } };
    });
    const client = new Worker(
      `const { request } = require('node:http');
       const { port, headers, body, arrived } = require('node:worker_threads').workerData;
       const flag = new Int32Array(arrived);
       const req = request({ host: '127.0.0.1', port, path: '/ipc', method: 'POST', headers }, (res) => {
         res.on('data', () => Atomics.store(flag, 0, 1));
         res.on('end', () => process.exit(0));
       });
       req.end(body);`,
      {
        eval: true,
        workerData: {
          port: host.port,
          headers: { ...own(), [SHELL_KEY_HEADER]: KEY, 'content-type': 'application/json' },
          body: JSON.stringify([
            { channel: 'busy.call', input: {} },
            { channel: 'app.info', input: {} },
          ]),
          arrived: arrived.buffer,
        },
      },
    );
    try {
      await new Promise((resolve, reject) => client.once('exit', resolve).once('error', reject));
      expect(sawFastAnswer).toBe(true);
    } finally {
      handle.mockImplementation(async (channel: string, input: unknown) => ({
        ok: true as const,
        data: { channel, input },
      }));
    }
  });

  it.each([
    ['not a list', { channel: 'app.info' }],
    ['an empty list', []],
    ['a call without a channel', [{ input: {} }]],
    ['more than 64 calls', Array.from({ length: 65 }, () => ({ channel: 'app.info', input: {} }))],
  ])('refuses %s: 400, nothing run', async (_name, body) => {
    handle.mockClear();
    const res = await batch(body);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(handle).not.toHaveBeenCalled();
  });

  it('asks the same key and Origin as a single call', async () => {
    handle.mockClear();
    const refused: Record<string, string>[] = [
      { ...own() },
      { host: own().host, [SHELL_KEY_HEADER]: KEY },
      { ...own(), [SHELL_KEY_HEADER]: 'x'.repeat(43) },
    ];
    for (const headers of refused) {
      const res = await batch([{ channel: 'app.info', input: {} }], headers);
      expect(res.status).toBe(403);
    }
    expect(handle).not.toHaveBeenCalled();
  });
});

describe('web shell host: media and downloads', () => {
  it('streams registered media with Range passed through (206, Content-Range), only with a valid signature', async () => {
    const url = media.register(`${upstreamUrl}/video.webm?X-Sig=secret-presign`, {
      contentType: 'video/webm',
      serviceOrigin: upstreamUrl,
    });
    const res = await raw(url, { headers: { host: own().host, range: 'bytes=100-199' } });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe('bytes 100-199/1000');
    expect(res.body.length).toBe(100);
    expect(Buffer.from(res.body, 'latin1').equals(VIDEO.subarray(100, 200))).toBe(true);
    // The pre-signed URL never reaches the page.
    expect(url).not.toContain('presign');

    const [path] = url.split('?');
    expect((await raw(path!, { headers: { host: own().host } })).status).toBe(403);
    expect((await raw(url.replace(/sig=[^&]+/, 'sig=AAAA'), { headers: { host: own().host } })).status).toBe(403);
    expect((await raw(url, { headers: { host: `evil.example:${host.port}` } })).status).toBe(403);
    const expired = signPath(KEY, 'media', path!.split('/').pop()!, Date.now() - 1);
    expect((await raw(expired, { headers: { host: own().host } })).status).toBe(403);
    // A media signature does not open a download, nor the other way round.
    expect((await raw(url.replace('/media/', '/download/'), { headers: { host: own().host } })).status).toBe(403);
  });

  it('renews an expired pre-signed URL once through refresh', async () => {
    const refresh = vi.fn(async () => `${upstreamUrl}/fresh.webm`);
    const url = media.register(`${upstreamUrl}/expired.webm`, { refresh, serviceOrigin: upstreamUrl });
    const res = await raw(url, { headers: { host: own().host, range: 'bytes=0-9' } });
    expect(res.status).toBe(206);
    expect(refresh).toHaveBeenCalledOnce();
  });

  it('hands a saved file out once through its signed link', async () => {
    const { downloadUrl } = (await files.save({
      suggestedName: 'evidencia año.json',
      data: new TextEncoder().encode('{"a":1}'),
      mimeType: 'application/json',
    }))!;
    // A HEAD (a link checker, a preview) leaves the one use to the GET.
    const head = await raw(downloadUrl!, { method: 'HEAD', headers: { host: own().host } });
    expect(head.status).toBe(405);
    expect(head.headers.allow).toBe('GET');
    const first = await raw(downloadUrl!, { headers: { host: own().host } });
    expect(first.status).toBe(200);
    expect(first.body).toBe('{"a":1}');
    expect(first.headers['content-disposition']).toContain("filename*=UTF-8''evidencia%20a%C3%B1o.json");
    expect((await raw(downloadUrl!, { headers: { host: own().host } })).status).toBe(410);
  });
});

describe('renderer file paths (shared by app:// and the web shell)', () => {
  it('keeps every request inside the renderer folder and types files the same way in both shells', async () => {
    const { resolveRendererPath, contentTypeOf } = await import('../../../main/renderer-files');
    const root = join(tmpdir(), 'renderer');
    expect(resolveRendererPath(root, '/')).toEqual({ file: join(root, '/'), relative: '' });
    expect(resolveRendererPath(root, '/assets/app.js')).toEqual({
      file: join(root, 'assets', 'app.js'),
      relative: join('assets', 'app.js'),
    });
    // Dot segments cannot climb above the root: they collapse onto it.
    expect(resolveRendererPath(root, '/%2e%2e%2f%2e%2e%2fetc%2fpasswd')).toEqual({
      file: join(root, 'etc', 'passwd'),
      relative: join('etc', 'passwd'),
    });
    expect(resolveRendererPath(root, '/%E0%A4%A')).toBe('bad-path');
    expect(contentTypeOf('x/app.mjs')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeOf('x/evil.exe')).toBe('application/octet-stream');
  });
});
