import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMediaStore } from '../../../main/media/registry';
import { streamMedia } from '../../../main/media/stream';

/**
 * Red team 12, finding 7, over real sockets: the environment's service on 127.0.0.1 (as the embedded demo runs) has
 * its media streamed, and its redirect to another address on this computer is not followed.
 */
async function text(body: ReadableStream<Uint8Array> | null) {
  return new Response(body).text();
}

describe('media redirects over the network (the demo’s own origin on 127.0.0.1)', () => {
  let service: http.Server;
  let internal: http.Server;
  let serviceOrigin: string;
  let internalOrigin: string;
  const internalHits: string[] = [];

  const listen = async (server: http.Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  beforeAll(async () => {
    internal = http.createServer((req, res) => {
      internalHits.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('internal-admin-page: secret=hunter2');
    });
    internalOrigin = await listen(internal);
    service = http.createServer((req, res) => {
      if (req.url === '/files/v.webm') return void res.writeHead(200, { 'content-type': 'video/webm' }).end('webm');
      if (req.url === '/files/moved.webm') return void res.writeHead(302, { location: '/files/v.webm' }).end();
      if (req.url === '/files/elsewhere.webm')
        return void res.writeHead(302, { location: `${internalOrigin}/admin/reboot?confirm=1` }).end();
      res.writeHead(404).end();
    });
    serviceOrigin = await listen(service);
  });
  afterAll(async () => {
    await new Promise((resolve) => service.close(resolve));
    await new Promise((resolve) => internal.close(resolve));
  });

  it('streams the service’s own media, through a redirect on its origin', async () => {
    const store = createMediaStore({ urlFor: (id) => id });
    const id = store.register(`${serviceOrigin}/files/moved.webm`, { serviceOrigin });
    const res = await streamMedia(store, id, {});
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('video/webm');
    expect(await text(res.body)).toBe('webm');
  });

  it('does not follow the service’s redirect to another address on this computer: that host sees nothing', async () => {
    const store = createMediaStore({ urlFor: (id) => id });
    const id = store.register(`${serviceOrigin}/files/elsewhere.webm`, { serviceOrigin });
    const res = await streamMedia(store, id, {});
    expect(res.status).toBe(502);
    expect(await text(res.body)).not.toContain('hunter2');
    expect(internalHits).toEqual([]);
  });
});
