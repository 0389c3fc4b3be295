import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMediaStore } from '../../../main/media/registry';
import { streamMedia } from '../../../main/media/stream';

/** A file host that compresses what it serves unless asked for identity (fetch does so for ranges), as gateways do. */
const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(20_000, 'contract text '), Buffer.from('%%EOF\n')]);
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const encoding = /\/(gzip|deflate|br)\.pdf$/.exec(req.url ?? '')?.[1];
    if (!encoding || req.headers['accept-encoding'] === 'identity') {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.byteLength });
      return res.end(pdf);
    }
    const body =
      encoding === 'gzip'
        ? zlib.gzipSync(pdf)
        : encoding === 'deflate'
          ? zlib.deflateSync(pdf)
          : zlib.brotliCompressSync(pdf);
    res.writeHead(200, {
      'content-type': 'application/pdf',
      'content-encoding': encoding,
      'content-length': body.byteLength,
      etag: '"gz-1"',
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function bytesOf(body: ReadableStream<Uint8Array> | null): Promise<Buffer> {
  return Buffer.from(await new Response(body).arrayBuffer());
}

describe('media from a source that compresses', () => {
  it.each(['gzip', 'deflate', 'br'])(
    'hands on a %s-encoded PDF as the file itself, with no encoded length',
    async (enc) => {
      const store = createMediaStore({ urlFor: (id) => id });
      // The source plays the environment's service here, the one origin on this computer media may come from.
      const id = store.register(`${base}/files/${enc}.pdf`, { contentType: 'application/pdf', serviceOrigin: base });
      const res = await streamMedia(store, id, {});
      expect(res.status).toBe(200);
      // The encoded length would cut the decoded file short (or hang the reader waiting for bytes that never come).
      expect(res.headers['content-length']).toBeUndefined();
      expect(res.headers['content-encoding']).toBeUndefined();
      expect((await bytesOf(res.body)).equals(pdf)).toBe(true);
    },
  );
});
