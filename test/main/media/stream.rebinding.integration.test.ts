import http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { internetOnlyLookup } from '../../../main/media/address';
import { createMediaStore } from '../../../main/media/registry';
import { streamMedia } from '../../../main/media/stream';

/**
 * DNS rebinding (left for later in stop 47): a media host that answers a public address when the link is checked and
 * this computer's address when main connects a moment later. The connection resolves the name itself and refuses.
 */
describe('a media host that resolves to the internet for the check and to this computer for the connection', () => {
  let internal: http.Server;
  let port: number;
  const hits: string[] = [];
  beforeAll(async () => {
    internal = http.createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'video/webm' }).end('internal-admin-page: secret=hunter2');
    });
    // Every local address: this machine's own name (below) may resolve to 127.0.0.1 or 127.0.1.1.
    await new Promise<void>((resolve) => internal.listen(0, '0.0.0.0', resolve));
    port = (internal.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => internal.close(() => resolve())));

  it('is refused at the connection, the name resolved again there, and nothing reaches this computer', async () => {
    const answers: string[] = [];
    const resolveHost = async () => {
      const address = answers.length === 0 ? '93.184.215.14' : '127.0.0.1';
      answers.push(address);
      return [address];
    };
    const store = createMediaStore({ urlFor: (id) => id, resolveHost });
    // The machine's own name, which the system resolves to this computer too: a fetch that resolved it again by
    // itself, not through the checked lookup, would land on the server above.
    const id = store.register(`http://${hostname()}:${port}/admin/reboot?confirm=1`, {});
    const res = await streamMedia(store, id, {});
    expect(res.status).toBe(502);
    expect(await new Response(res.body).text()).not.toContain('secret');
    expect(answers).toEqual(['93.184.215.14', '127.0.0.1']);
    expect(hits).toEqual([]);
  });
});

describe('internetOnlyLookup', () => {
  const ask = (lookup: LookupFunction, options: Parameters<LookupFunction>[1]) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) =>
      lookup('cdn.example', options, (error, address, family) => resolve({ error, address, family })),
    );
  const publicOnly = internetOnlyLookup(async () => ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']);

  it('hands the socket the addresses it resolved, as net.connect asks for them', async () => {
    expect(await ask(publicOnly, {})).toEqual({ error: null, address: '93.184.215.14', family: 4 });
    expect(await ask(publicOnly, { family: 6 })).toEqual({
      error: null,
      address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c',
      family: 6,
    });
    expect((await ask(publicOnly, { all: true })).address).toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]);
  });

  it('refuses a name with any internal address among its answers, and passes a failed resolution on', async () => {
    const mixed = await ask(
      internetOnlyLookup(async () => ['93.184.215.14', '169.254.169.254']),
      { all: true },
    );
    expect(mixed.error?.message).toMatch(/this computer or its network/);
    const mapped = await ask(
      internetOnlyLookup(async () => ['::ffff:127.0.0.1']),
      {},
    );
    expect(mapped.error?.code).toBe('EACCES');
    const failed = await ask(
      internetOnlyLookup(async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND cdn.example'), { code: 'ENOTFOUND' });
      }),
      {},
    );
    expect(failed.error?.code).toBe('ENOTFOUND');
    expect(
      (
        await ask(
          internetOnlyLookup(async () => ['93.184.215.14']),
          { family: 6 },
        )
      ).error?.code,
    ).toBe('ENOTFOUND');
  });
});
