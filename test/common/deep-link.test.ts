import { describe, expect, it } from 'vitest';
import { parseDeepLink } from '../../common/deep-link';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJpbnRlcnZpZXdJZCI6ImEifQ.c2lnbmF0dXJl';

describe('parseDeepLink', () => {
  it('reads the id and an optional token', () => {
    expect(parseDeepLink('omni-reviewer://interview/demo-clean-pass')).toEqual({ interviewId: 'demo-clean-pass' });
    expect(parseDeepLink(`omni-reviewer://interview/abc123?token=${JWT}`)).toEqual({
      interviewId: 'abc123',
      sessionToken: JWT,
    });
    expect(parseDeepLink('OMNI-REVIEWER:///interview/abc123/')).toEqual({ interviewId: 'abc123' });
  });

  it('refuses other schemes, paths and ids with a bilingual error', () => {
    for (const bad of [
      'https://interview/abc',
      'omni-reviewer://settings/x',
      'omni-reviewer://interview/',
      'omni-reviewer://interview/..%2Fetc',
      'omni-reviewer://interview/a/b',
    ]) {
      expect(() => parseDeepLink(bad), bad).toThrowError(/does not name an interview/);
    }
    try {
      parseDeepLink('omni-reviewer://interview/ok?token=has%20space');
      expect.unreachable();
    } catch (e) {
      expect((e as { data: { code: string; message: { es: string } } }).data.code).toBe('INVALID_DEEP_LINK');
    }
  });
});
