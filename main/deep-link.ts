/**
 * `omni-reviewer://interview/<id>` links from the OS (browser, mail, chat). Main keeps the latest one until the
 * renderer takes it (`app.takeDeepLink`), so no push channel is needed and a link that arrives before the window
 * exists is not lost.
 */
export const DEEP_LINK_SCHEME = 'omni-reviewer';
const INTERVIEW_ID = /^[A-Za-z0-9_-]{1,128}$/;

export interface DeepLink {
  interviewId: string;
}

export function parseDeepLink(raw: string): DeepLink | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== `${DEEP_LINK_SCHEME}:` || url.hostname !== 'interview') return null;
  const id = decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, ''));
  return INTERVIEW_ID.test(id) ? { interviewId: id } : null;
}

/** The first argument of a command line that is a valid deep link (how Windows and Linux hand them over). */
export function deepLinkFromArgv(argv: readonly string[]): DeepLink | null {
  for (const arg of argv) {
    if (!arg.startsWith(`${DEEP_LINK_SCHEME}:`)) continue;
    const link = parseDeepLink(arg);
    if (link) return link;
  }
  return null;
}

export function createDeepLinkInbox() {
  let pending: DeepLink | null = null;
  return {
    offer(link: DeepLink | null) {
      if (link) pending = link;
    },
    take(): DeepLink | null {
      const link = pending;
      pending = null;
      return link;
    },
  };
}
