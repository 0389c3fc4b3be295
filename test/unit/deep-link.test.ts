import { describe, expect, it } from 'vitest';
import { createDeepLinkInbox, deepLinkFromArgv, parseDeepLink } from '../../main/deep-link';

describe('deep links', () => {
  it('reads omni-reviewer://interview/<id> and nothing else', () => {
    expect(parseDeepLink('omni-reviewer://interview/demo-clean-pass')).toEqual({ interviewId: 'demo-clean-pass' });
    expect(parseDeepLink('omni-reviewer://interview/abc123/')).toEqual({ interviewId: 'abc123' });
    for (const bad of ['omni-reviewer://interview/', 'omni-reviewer://settings/x', 'https://interview/abc', 'omni-reviewer://interview/..%2f..%2fetc', 'omni-reviewer://interview/a b', 'nonsense']) {
      expect(parseDeepLink(bad)).toBeNull();
    }
  });

  it('finds the link among command-line arguments (Windows and Linux second instance)', () => {
    expect(deepLinkFromArgv(['/opt/app', '--flag', 'omni-reviewer://interview/i-1'])).toEqual({ interviewId: 'i-1' });
    expect(deepLinkFromArgv(['/opt/app', '--flag'])).toBeNull();
  });

  it('hands the latest link out once', () => {
    const inbox = createDeepLinkInbox();
    inbox.offer({ interviewId: 'a' });
    inbox.offer(null);
    inbox.offer({ interviewId: 'b' });
    expect(inbox.take()).toEqual({ interviewId: 'b' });
    expect(inbox.take()).toBeNull();
  });
});
