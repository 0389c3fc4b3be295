import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { base64Length } from '../../../main/capture/base64-json-body';
import { Base64Encoder } from '../../../main/capture/base64-simd';
// @ts-expect-error -- a plain .mjs script without type declarations
import { assemble, render } from '../../../scripts/build-wasm.mjs';

const encode = (encoder: Base64Encoder, bytes: Uint8Array) => {
  const out = Buffer.alloc((bytes.length / 3) * 4);
  expect(encoder.encodeTriples(bytes, 0, bytes.length, out, 0)).toBe(out.length);
  return out.toString('latin1');
};

describe('Base64Encoder (SIMD module)', () => {
  it('is the module base64-simd.wat assembles to', async () => {
    const committed = readFileSync(new URL('../../../main/capture/base64-simd-wasm.ts', import.meta.url), 'utf8');
    expect(committed).toBe(render(await assemble()));
  });

  it('encodes every length up to 300 bytes (SIMD steps and the scalar tail) like Buffer', () => {
    const encoder = new Base64Encoder();
    const bytes = randomBytes(300);
    for (let n = 0; n <= 300; n += 3)
      expect(encode(encoder, bytes.subarray(0, n))).toBe(bytes.subarray(0, n).toString('base64'));
  });

  it('encodes every 6-bit value in every position, including the ranges that map to +, / and digits', () => {
    const bytes = Buffer.alloc(3 * 64 * 4);
    // Triple i of block p has index i in position p (and 0 elsewhere): "AAAA" ... "///A" ... "AAA/".
    for (let p = 0; p < 4; p++) for (let i = 0; i < 64; i++) bytes.writeUIntBE(i << (18 - 6 * p), (p * 64 + i) * 3, 3);
    expect(encode(new Base64Encoder(), bytes)).toBe(bytes.toString('base64'));
  });

  it('splits inputs longer than its capacity, and writes at an offset into the output', () => {
    const encoder = new Base64Encoder(48);
    const bytes = randomBytes(999);
    const out = Buffer.alloc(8 + (999 / 3) * 4);
    expect(encoder.encodeTriples(bytes, 0, 999, out, 8)).toBe(out.length);
    expect(out.subarray(8).toString('latin1')).toBe(bytes.toString('base64'));
  });

  it('reads from its input buffers and writes into its output slots in place', () => {
    const encoder = new Base64Encoder(12, 2);
    const [input] = encoder.inputBuffers();
    const [slot, other] = encoder.outputSlots();
    expect(slot!.length).toBe(20); // 12 bytes and one carried triple
    expect(slot!.buffer).toBe(input.buffer);
    input.set(Buffer.from('hello world!'));
    other!.fill(0x2a);
    expect(encoder.encodeTriples(input, 0, 12, slot!, 4)).toBe(20);
    expect(Buffer.from(slot!.subarray(4)).toString('latin1')).toBe('aGVsbG8gd29ybGQh');
    expect(other!.every((b) => b === 0x2a)).toBe(true);
    expect(() => encoder.encodeTriples(input, 0, 12, slot!, 8)).toThrow(RangeError);
  });

  it('refuses partial triples and capacities that are not whole triples', () => {
    expect(() => new Base64Encoder().encodeTriples(Buffer.alloc(4), 0, 4, Buffer.alloc(8), 0)).toThrow(RangeError);
    expect(() => new Base64Encoder(100)).toThrow(RangeError);
  });

  it('encodes every byte value in every triple position like Buffer.toString("base64")', () => {
    const bytes = Buffer.from(
      Array.from({ length: 256 * 3 }, (_, i) =>
        i % 3 === 0 ? i / 3 : i % 3 === 1 ? 255 - (i - 1) / 3 : (i * 7) & 0xff,
      ),
    );
    const out = Buffer.alloc(base64Length(bytes.length) + 4);
    // Starts after one already encoded triple, as the carry path does.
    expect(new Base64Encoder().encodeTriples(bytes, 0, bytes.length, out, 4)).toBe(out.length);
    expect(out.subarray(4).toString('latin1')).toBe(bytes.toString('base64'));
  });
});
