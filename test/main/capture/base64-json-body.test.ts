import { describe, expect, it } from 'vitest';
import { base64JsonBody, base64Length } from '../../../main/capture/base64-json-body';

async function collect(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part));
  return Buffer.concat(parts);
}

async function* chunked(bytes: Buffer, sizes: number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  let i = 0;
  while (at < bytes.length) {
    const size = sizes[i++ % sizes.length]!;
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

describe('base64JsonBody', () => {
  it.each([0, 1, 2, 3, 4, 5, 100, 1001])(
    'encodes %i bytes in odd chunk sizes exactly like Buffer.toString("base64")',
    async (n) => {
      const bytes = Buffer.from(Array.from({ length: n }, (_, i) => (i * 37 + 11) & 0xff));
      const body = base64JsonBody(chunked(bytes, [1, 2, 4, 7]), {
        field: 'video',
        sourceBytes: n,
        extra: { type: 'selfie' },
      });
      const text = (await collect(body.stream)).toString('utf8');
      expect(JSON.parse(text)).toEqual({ video: bytes.toString('base64'), type: 'selfie' });
      expect(Buffer.byteLength(text)).toBe(body.contentLength);
    },
  );

  it('omits extra fields when none are given and escapes their values when given', async () => {
    const plain = base64JsonBody(chunked(Buffer.from('abc'), [3]), { field: 'video', sourceBytes: 3 });
    expect((await collect(plain.stream)).toString()).toBe('{"video":"YWJj"}');
    const odd = base64JsonBody(chunked(Buffer.from('abc'), [3]), {
      field: 'video',
      sourceBytes: 3,
      extra: { type: 'a"b' },
    });
    expect(JSON.parse((await collect(odd.stream)).toString())).toEqual({ video: 'YWJj', type: 'a"b' });
  });

  it('fails instead of sending a body whose length differs from the announced one', async () => {
    const body = base64JsonBody(chunked(Buffer.from('abcd'), [4]), { field: 'video', sourceBytes: 5 });
    await expect(collect(body.stream)).rejects.toThrow(/changed while it was being read/);
  });

  it('computes base64 lengths with padding', () => {
    expect([0, 1, 2, 3, 4].map(base64Length)).toEqual([0, 4, 4, 4, 8]);
  });
});
