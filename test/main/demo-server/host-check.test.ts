import { startTestApp } from '../../helpers/app-context';
import { request as httpRequest } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppContextHandle } from '../../../main/app-context';
import { startDemoServer, type DemoServer } from '../../../main/demo-server/index';

/** GET with any Host header, as a DNS-rebinding page's request would arrive. */
function getWithHost(url: string, path: string, host: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('demo server: only loopback names in Host', () => {
  let server: DemoServer;
  beforeAll(async () => {
    server = await startDemoServer({ port: 0 });
  });
  afterAll(() => server.close());

  it.each(['evil.example', 'evil.example:80', '10.0.0.5'])('refuses Host %j, credentials unread', async (host) => {
    const port = new URL(server.url).port;
    const res = await getWithHost(
      server.url,
      '/__demo/credentials',
      host === 'evil.example:80' ? host : `${host}:${port}`,
    );
    expect(res.status).toBe(403);
    expect(res.body).not.toMatch(/secret"\s*:\s*"[^"]/);
  });

  it.each(['127.0.0.1', 'localhost', '127.0.0.2'])('answers Host %s', async (name) => {
    const port = new URL(server.url).port;
    const res = await getWithHost(server.url, '/__demo/credentials', `${name}:${port}`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toHaveProperty('secret');
  });
});

describe('the embedded demo server runs only while the demo environment is active', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'omni-hardening-demo-'));
  let app: AppContextHandle;
  beforeAll(async () => {
    app = await startTestApp(dataDir);
  });
  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stops when another environment becomes active, starts again when demo does', async () => {
    const first = app.demoUrl()!;
    expect((await fetch(`${first}/__demo/credentials`)).status).toBe(200);
    await app.context.environments.setActive('custom');
    expect(app.demoUrl()).toBeUndefined();
    await expect(fetch(`${first}/__demo/credentials`)).rejects.toThrow();
    await expect(app.context.credentials.testConnection('demo')).rejects.toMatchObject({ code: 'DEMO_NOT_ACTIVE' });
    expect(app.demoUrl()).toBeUndefined();

    await app.context.environments.setActive('demo');
    expect(app.demoUrl()).toBeDefined();
    await expect(app.context.credentials.testConnection('demo')).resolves.toHaveProperty('expiresAt');
  });
});
