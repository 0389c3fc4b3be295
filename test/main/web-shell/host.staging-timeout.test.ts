import { request } from 'node:http';
import { connect } from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHELL_KEY_HEADER } from '../../../common/web-shell';
import { StagedFiles } from '../../../main/capture/staging';
import { handleStagingUpload } from '../../../main/capture/web-staging';
import { createMediaStore } from '../../../main/media/registry';
import { createWebFiles } from '../../../main/web-shell/downloads';
import { startHost, type Host } from '../../../main/web-shell/host';
import type { Router } from '../../../main/ipc/router';

const KEY = 'k'.repeat(43);
const REQUEST_TIMEOUT_MS = 300;
let host: Host;
let root: string;
let staged: StagedFiles;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'host-staging-'));
  staged = new StagedFiles(root, { maxFiles: 1 });
  const router: Router = { channels: () => ['app.info'], handle: async () => ({ ok: true as const, data: {} }) };
  host = await startHost({
    router,
    staticDir: root,
    media: createMediaStore({ urlFor: (id) => id }),
    downloads: createWebFiles(KEY),
    key: KEY,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    headersTimeoutMs: 400,
    staging: (req, res) => handleStagingUpload(req, res, staged, { idleMs: 400 }),
  });
});
afterAll(async () => {
  await host.close();
  await staged.releaseAll();
  await rm(root, { recursive: true, force: true });
});

/** Sends `chunks` pieces of 4 KB, one every `everyMs`, then (unless `stall`) ends the request. */
function slowRequest(
  path: string,
  opts: { chunks: number; everyMs: number; stall?: boolean; headers?: Record<string, string> },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: host.port,
        path,
        method: path === '/staging' ? 'PUT' : 'POST',
        headers: { host: `127.0.0.1:${host.port}`, origin: host.origin, [SHELL_KEY_HEADER]: KEY, ...opts.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    let sent = 0;
    const tick = () => {
      if (req.destroyed) return;
      if (sent === opts.chunks) return void (opts.stall ? undefined : req.end());
      req.write(Buffer.alloc(4096, sent++));
      setTimeout(tick, opts.everyMs);
    };
    tick();
  });
}

describe('web shell staging upload timing (M4)', () => {
  it('accepts an upload that takes longer than the request timeout while it keeps sending', async () => {
    const started = Date.now();
    const res = await slowRequest('/staging', { chunks: 10, everyMs: 100 });
    expect(Date.now() - started).toBeGreaterThan(REQUEST_TIMEOUT_MS * 2);
    expect(res.status).toBe(200);
    const view = JSON.parse(res.body).data as { stagedFileId: string; size: number };
    expect(view.size).toBe(10 * 4096);
    await staged.release(view.stagedFileId);
  });

  it('drops an upload that stalls, with a typed error, and frees its slot and partial file', async () => {
    const res = await slowRequest('/staging', { chunks: 2, everyMs: 50, stall: true });
    expect(res.status).toBe(408);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'STAGING_STALLED', retryable: true } });
    const dirs = await readdir(root);
    for (const d of dirs.filter((n) => n.startsWith('omni-staging-')))
      expect((await readdir(join(root, d))).filter((f) => f !== '.owner-pid')).toEqual([]);
    const next = await slowRequest('/staging', { chunks: 1, everyMs: 1 });
    expect(next.status).toBe(200);
    await staged.release((JSON.parse(next.body).data as { stagedFileId: string }).stagedFileId);
  });

  it('still cuts an IPC request whose body takes longer than the request timeout', async () => {
    const res = await slowRequest('/ipc/app.info', {
      chunks: 10,
      everyMs: 100,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(408);
  });
});

describe('connections that send too little (red team 10)', () => {
  /** A raw connection that writes `text` and nothing more; resolves with what it read once the host closes it. */
  const openWith = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(host.port, '127.0.0.1', () => socket.write(text));
      let read = '';
      socket.setEncoding('latin1');
      socket.on('data', (c: string) => (read += c));
      socket.once('close', () => resolve(read));
      socket.once('error', reject);
    });

  it('one that never finishes its headers is closed', async () => {
    // Waits for the host to close it: without a headers timeout it stayed open for good.
    const answer = await openWith(`GET /ipc/app.info HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('a staging upload without the key is refused, and its connection ends', async () => {
    const answer = await openWith(
      `PUT /staging HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nOrigin: ${host.origin}\r\n` +
        `Transfer-Encoding: chunked\r\n\r\n10\r\nstart of a body.\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 403/);
  });
});
