import { beforeAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../../main/ipc/router';
import { handlers } from '../../../main/ipc/handlers/index';
import type { MainContext } from '../../../main/ports';
import type { IpcErrorData } from '../../../common/ipc/define';
import { jpegBase64, pngBase64 } from '../../helpers/demo-support';
import { APP_URL, callThrough, failure } from '../../helpers/router-calls';

/**
 * Main checks a photo's whole structure, not only its first bytes: invalid base64, a cut PNG, a PNG/PDF polyglot or a
 * JPEG signature on zeros is refused as INVALID_IMAGE before anything is sent (red team 7, L3).
 */

const sent: string[] = [];
let router: ReturnType<typeof createRouter>;

beforeAll(() => {
  const omni = {
    call: async (name: string) => {
      sent.push(name);
      return name === 'authenticateFace' ? { overallStatus: 'PASS' } : {};
    },
  };
  const ctx = {
    omni: () => omni,
    audit: { append: async (e: Record<string, unknown>) => ({ ...e, seq: 1 }) },
  } as unknown as MainContext;
  router = createRouter({ handlers, context: ctx, appUrl: APP_URL });
});

const png = Buffer.from(pngBase64(), 'base64');
const jpeg = Buffer.from(jpegBase64(), 'base64');
const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const b64 = (b: Buffer) => b.toString('base64');
const unpadded = b64(png).replace(/=+$/, '');
const file = (base64: string, mimeType = 'image/png') => ({ kind: 'file', base64, mimeType, name: 'photo' });
const selfie = (image: unknown) => callThrough(router, 'capture.addFace', { interviewId: 'intv-1', image });

const bad: [string, string, string][] = [
  ['base64 of 4n+1 characters', `${unpadded.slice(0, unpadded.length - (unpadded.length % 4))}A`, 'image/png'],
  [
    'padding on a length not a multiple of 4',
    `${unpadded.slice(0, unpadded.length - (unpadded.length % 4))}AA=`,
    'image/png',
  ],
  ['a PNG cut after 100 bytes', b64(png.subarray(0, 100)), 'image/png'],
  ['a PNG without its IEND', b64(png.subarray(0, png.length - 12)), 'image/png'],
  ['a PNG signature followed by a PDF', b64(Buffer.concat([png.subarray(0, 8), pdf])), 'image/png'],
  [
    'a JPEG signature followed by zeros',
    b64(Buffer.concat([jpeg.subarray(0, 3), Buffer.alloc(64 * 1024)])),
    'image/jpeg',
  ],
  ['a JPEG cut in its scan', b64(jpeg.subarray(0, Math.floor(jpeg.length * 0.8))), 'image/jpeg'],
];

describe('the photo check in main', () => {
  it.each(bad)('refuses %s with a clear bilingual INVALID_IMAGE, sending nothing', async (_what, base64, mimeType) => {
    sent.length = 0;
    const error: IpcErrorData = await failure(selfie(file(base64, mimeType)));
    expect(error.code).toBe('INVALID_IMAGE');
    expect(error.message.en).toMatch(/not valid base64|not a complete (PNG|JPEG) photo/);
    expect(error.message.es).toMatch(/no son base64 válido|no es una foto (PNG|JPEG) completa/);
    expect(sent).toEqual([]);
  });

  it('still sends whole PNG and JPEG photos, unpadded base64 and bytes after IEND included', async () => {
    sent.length = 0;
    await selfie(file(b64(png)));
    await selfie(file(b64(jpeg), 'image/jpeg'));
    await selfie(file(b64(Buffer.concat([png, Buffer.from('trailer')])).replace(/=+$/, '')));
    await selfie(file(b64(Buffer.concat([jpeg, Buffer.alloc(4096, 7)])), 'image/jpeg'));
    expect(sent).toEqual(['addFace', 'addFace', 'addFace', 'addFace']);
  });
});
