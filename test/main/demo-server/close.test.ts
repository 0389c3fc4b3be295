import { connect } from 'node:net';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDemoServer } from '../../../main/demo-server';

// The server keeps recordings in a folder of the system's temp dir; this file's own temp dir keeps other tests' out.
// Put back afterwards: the next file in this worker shares the process (vitest.config.ts, isolate: false).
const privateTmp = await mkdtemp(join(tmpdir(), 'omni-demo-close-'));
const systemTmp = process.env.TMPDIR;
process.env.TMPDIR = privateTmp;
afterAll(async () => {
  if (systemTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = systemTmp;
  await rm(privateTmp, { recursive: true, force: true });
});

describe('closing the demo server', () => {
  it('ends at once with a connection still open, and removes its recordings folder', async () => {
    const server = await startDemoServer({ port: 0 });
    expect(await readdir(privateTmp)).toEqual([expect.stringMatching(/^omni-demo-recordings-/)]);
    // A pooled HTTP client can open a socket and never send on it (undici does when a request is aborted early).
    const silent = connect(Number(new URL(server.url).port), '127.0.0.1');
    await once(silent, 'connect');
    const ended = once(silent, 'close');
    const started = Date.now();
    await server.close();
    // Without closing idle sockets it would wait on this one until the test times out; 4 s leaves room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(4000);
    await ended;
    expect(await readdir(privateTmp)).toEqual([]);
  }, 10_000);
});
