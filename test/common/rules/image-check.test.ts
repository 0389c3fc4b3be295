import { describe, expect, it } from 'vitest';
import { checkImage, describeImageProblem, MAX_IMAGE_BYTES } from '../../../common/rules/image-check';

describe('checkImage', () => {
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0]);
  it('accepts PNG and JPEG by content', () => {
    expect(checkImage(png, 100, 'image/png')).toEqual({ ok: true, kind: 'png' });
    expect(checkImage(jpeg, 100, 'image/jpeg')).toEqual({ ok: true, kind: 'jpeg' });
    expect(checkImage(jpeg, 100, '')).toEqual({ ok: true, kind: 'jpeg' });
  });
  it('refuses empty, too large, non-images and renamed files with an explanation in both languages', () => {
    const cases = [
      checkImage(png, 0, 'image/png'),
      checkImage(png, MAX_IMAGE_BYTES + 1, 'image/png'),
      checkImage(Uint8Array.from([0x25, 0x50, 0x44, 0x46, 0, 0, 0, 0]), 10, 'application/pdf'),
      checkImage(png, 10, 'image/jpeg'),
    ];
    expect(cases.map((c) => (c.ok ? 'ok' : c.problem.code))).toEqual([
      'EMPTY',
      'TOO_LARGE',
      'NOT_AN_IMAGE',
      'TYPE_MISMATCH',
    ]);
    for (const c of cases) {
      if (c.ok) continue;
      const text = describeImageProblem(c.problem);
      expect(text.en.length).toBeGreaterThan(10);
      expect(text.es).not.toBe(text.en);
    }
  });
});
