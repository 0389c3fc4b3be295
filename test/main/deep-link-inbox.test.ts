import { describe, expect, it } from 'vitest';
import { acceptDeepLink, createDeepLinkInbox, deepLinkFromArgv } from '../../main/deep-link-inbox';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';

describe('deep links from the OS', () => {
  it('accepts what a pasted link accepts, keeping the link as written (token included)', () => {
    expect(acceptDeepLink('omni-reviewer://interview/demo-clean-pass')).toBe(
      'omni-reviewer://interview/demo-clean-pass',
    );
    expect(acceptDeepLink('omni-reviewer://interview/abc123/')).toBe('omni-reviewer://interview/abc123/');
    // The OS parser used to refuse ids with a dot and to drop the token.
    expect(acceptDeepLink(`omni-reviewer://interview/abc.123?token=${JWT}`)).toBe(
      `omni-reviewer://interview/abc.123?token=${JWT}`,
    );
    for (const bad of [
      'omni-reviewer://interview/',
      'omni-reviewer://settings/x',
      'https://interview/abc',
      'omni-reviewer://interview/..%2f..%2fetc',
      'omni-reviewer://interview/a b',
      'nonsense',
    ]) {
      expect(acceptDeepLink(bad), bad).toBeNull();
    }
  });

  it('finds the link among command-line arguments (Windows and Linux second instance)', () => {
    expect(deepLinkFromArgv(['/opt/app', '--flag', 'omni-reviewer://interview/i-1'])).toBe(
      'omni-reviewer://interview/i-1',
    );
    expect(deepLinkFromArgv(['/opt/app', '--flag'])).toBeNull();
  });

  it('hands the latest link out once', () => {
    const inbox = createDeepLinkInbox();
    inbox.offer('omni-reviewer://interview/a');
    inbox.offer(null);
    inbox.offer('omni-reviewer://interview/b');
    expect(inbox.take()).toBe('omni-reviewer://interview/b');
    expect(inbox.take()).toBeNull();
  });
});
