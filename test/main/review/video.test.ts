import { describe, expect, it } from 'vitest';
import { videoUrlExpiry } from '../../../main/review/video';

describe('videoUrlExpiry', () => {
  const issued = new Date('2026-01-01T00:00:00Z');
  it('reads common pre-signed spellings, else issue + 1 hour', () => {
    expect(videoUrlExpiry('https://h/v.mp4?X-Amz-Date=20260101T000000Z&X-Amz-Expires=600', issued).toISOString()).toBe(
      '2026-01-01T00:10:00.000Z',
    );
    expect(videoUrlExpiry('https://h/v.mp4?expires=1767229200', issued).toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect(videoUrlExpiry('https://h/v.mp4?exp=1767225900000', issued).toISOString()).toBe('2026-01-01T00:05:00.000Z');
    expect(videoUrlExpiry('https://h/v.mp4', issued).toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect(videoUrlExpiry('not a url', issued).toISOString()).toBe('2026-01-01T01:00:00.000Z');
  });
});
