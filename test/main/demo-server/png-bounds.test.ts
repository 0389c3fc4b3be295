import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { analyzeImage, decodeCommonPng } from '../../../main/demo-server/image';

/** A PNG whose header says `width`×`height` but whose image data is `inflated` bytes of zeros (deflated tiny). */
function bomb(width: number, height: number, inflated: number, { colorType = 2, bitDepth = 8, interlace = 0 } = {}) {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = colorType;
  ihdr[12] = interlace;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(inflated), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const refusal = (bytes: Buffer) => {
  try {
    analyzeImage(bytes, 'base64Image');
  } catch (err) {
    return err as Error & { httpStatus?: number };
  }
  throw new Error('not refused');
};

describe('demo server: PNG image data past its declared size', () => {
  // 100×100 RGB needs 30,100 bytes; 32 MB of zeros deflates to ~32 KB (the red team's 3 MB file asked for 3 GB).
  const inflated = 32 * 1024 * 1024;

  it('is refused with the usual 400 answer, on the fast path and the pngjs (interlaced, 16-bit) path', () => {
    for (const options of [{}, { interlace: 1 }, { bitDepth: 16, colorType: 6 }, { colorType: 3 }]) {
      const err = refusal(bomb(100, 100, inflated, options));
      expect(err.name, JSON.stringify(options)).toBe('DemoHttpError');
      expect(err.httpStatus).toBe(400);
      expect(err.message).toMatch(
        /^base64Image could not be decoded as PNG \(the image data inflates to more than its 100×100 pixels need\)\./,
      );
    }
    expect(() => decodeCommonPng(bomb(100, 100, inflated))).toThrow(/inflates to more than/);
    // One byte past an interlaced image's passes is refused too (33 bytes decode: see below).
    expect(refusal(bomb(3, 3, 34, { interlace: 1 })).message).toMatch(/inflates to more than its 3×3 pixels need/);
  });

  it('still decodes images whose data is exactly the declared size, interlaced ones included', () => {
    expect(decodeCommonPng(bomb(100, 100, 100 * 301))?.width).toBe(100);
    // Adam7 on 3×3 RGB (all zeros: filter 0): passes of 1, 1, 2×1, 1×2 and 3×1 pixels, 27 bytes plus 6 filter bytes.
    expect(analyzeImage(bomb(3, 3, 33, { interlace: 1 })).width).toBe(3);
    const png = new PNG({ width: 37, height: 23 });
    for (let i = 0; i < png.data.length; i++) png.data[i] = (i * 31) & 255;
    for (const options of [{ colorType: 6 }, { colorType: 2, bitDepth: 16 }, { colorType: 0 }] as const)
      expect(analyzeImage(PNG.sync.write(png, options)).width).toBe(37);
  });
});
