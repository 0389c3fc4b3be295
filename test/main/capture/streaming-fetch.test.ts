import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ChunkPool } from '../../../main/capture/chunk-pool';
import { streamingFetch } from '../../../main/capture/streaming-fetch';

describe('streamingFetch', () => {
  async function server(handler: (req: IncomingMessage, res: ServerResponse) => void) {
    const s = createServer(handler);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return {
      url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
      close: () => new Promise((r) => s.close(r)),
    };
  }
  const streamOf = (parts: string[]) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of parts) c.enqueue(new TextEncoder().encode(p));
        c.close();
      },
    });

  it('sends a streamed body over node:http and returns a normal Response', async () => {
    const s = await server((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () =>
        res
          .writeHead(201, { 'content-type': 'application/json', 'x-seen': req.headers['x-token'] as string })
          .end(JSON.stringify({ body, length: req.headers['content-length'] })),
      );
    });
    const res = await streamingFetch()(`${s.url}/up`, {
      method: 'POST',
      headers: { 'x-token': 't1', 'content-length': '11' },
      body: streamOf(['hello ', 'world']),
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(201);
    expect(res.headers.get('x-seen')).toBe('t1');
    expect(await res.json()).toEqual({ body: 'hello world', length: '11' });
    await s.close();
  });

  it('decodes a gzip, deflate or br answer, as fetch does, so an import that succeeded reads as JSON', async () => {
    const encoders = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync } as const;
    const s = await server((req, res) => {
      req.resume();
      req.on('end', () => {
        const encoding = req.url!.slice(1) as keyof typeof encoders;
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': encoding,
          'x-asked': String(req.headers['accept-encoding']),
        });
        res.end(encoders[encoding](Buffer.from(JSON.stringify({ success: true, via: encoding }))));
      });
    });
    for (const encoding of Object.keys(encoders)) {
      const res = await streamingFetch()(`${s.url}/${encoding}`, {
        method: 'POST',
        body: streamOf(['x']),
        duplex: 'half',
      } as RequestInit);
      expect(res.headers.get('x-asked')).toContain(encoding);
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(await res.json()).toEqual({ success: true, via: encoding });
    }
    await s.close();
  });

  it('leaves other requests to the regular fetch and reports an early refusal', async () => {
    const calls: string[] = [];
    const base = (async (input: RequestInfo | URL) => {
      calls.push(String(input));
      return new Response('{}');
    }) as typeof fetch;
    await streamingFetch(base)('http://127.0.0.1:9/x', { method: 'POST', body: '{}' });
    expect(calls).toEqual(['http://127.0.0.1:9/x']);

    const s = await server((_req, res) =>
      res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end('{"status":413}'),
    );
    let pulls = 0;
    const big = new ReadableStream<Uint8Array>({
      pull(c) {
        if (++pulls > 32) c.close();
        else c.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const res = await streamingFetch()(`${s.url}/up`, { method: 'POST', body: big, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    await s.close();
  });

  it('hands each pooled chunk back once it is written, so the next chunks reuse the same memory', async () => {
    const received: Buffer[] = [];
    const s = await server((req, res) => {
      req.on('data', (c: Buffer) => received.push(Buffer.from(c)));
      req.on('end', () => res.writeHead(200).end('{}'));
    });
    // Chunks far above the request's 16 KiB high-water mark, as an import's are: each write waits for a drain.
    const size = 64 * 1024;
    const pool = new ChunkPool(size, { keep: 4 });
    const sent: Uint8Array[] = [];
    let n = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (n === 40) return c.close();
        const chunk = pool.take(size).fill(n++);
        sent.push(chunk);
        c.enqueue(chunk);
      },
    });
    const res = await streamingFetch()(`${s.url}/up`, {
      method: 'POST',
      headers: { 'content-length': String(40 * size) },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(200);
    // Every byte arrived as sent, although the buffers were refilled: none was reused before its write finished.
    expect(
      Buffer.concat(received).equals(Buffer.concat(Array.from({ length: 40 }, (_, i) => Buffer.alloc(size, i)))),
    ).toBe(true);
    expect(new Set(sent.map((c) => c.buffer)).size).toBeLessThan(10);
    await s.close();
  });

  it('aborts with the signal', async () => {
    const s = await server(() => undefined);
    const controller = new AbortController();
    const pending = streamingFetch()(`${s.url}/up`, {
      method: 'POST',
      body: streamOf(['x']),
      signal: controller.signal,
      duplex: 'half',
    } as RequestInit);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await s.close();
  });
});
