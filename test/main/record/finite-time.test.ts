import { describe, expect, it } from 'vitest';
import { finiteIso } from '../../../main/record/finite-time';

describe('finiteIso', () => {
  it('reads a time as ISO text, and ±infinity (pg reads them as numbers) or nothing as absent', () => {
    expect(finiteIso(new Date('2026-11-27T10:00:00Z'))).toBe('2026-11-27T10:00:00.000Z');
    expect(finiteIso('2026-11-27 10:00:00+00')).toBe('2026-11-27T10:00:00.000Z');
    for (const none of [Infinity, -Infinity, null, undefined, 'infinity', new Date(Number.NaN)])
      expect(finiteIso(none)).toBeUndefined();
  });
});
