import { DEEP_LINK_SCHEME, parseDeepLink } from '../common/deep-link';

/**
 * `omni-reviewer://interview/<id>[?token=…]` links from the OS (browser, mail, chat). Main keeps the latest one, as
 * written, until the renderer asks (`app.takeDeepLink`); it is then read by the same parser as a pasted link, so an
 * OS link keeps its session token, and the token stays in main. No push channel is needed, and a link that arrives
 * before the window exists is not lost.
 */
export { DEEP_LINK_SCHEME };

/** The link as written when the one deep-link parser accepts it; null otherwise. */
export function acceptDeepLink(raw: string): string | null {
  try {
    parseDeepLink(raw);
    return raw.trim();
  } catch {
    return null;
  }
}

/** The first argument of a command line that is a valid deep link (how Windows and Linux hand them over). */
export function deepLinkFromArgv(argv: readonly string[]): string | null {
  for (const arg of argv) {
    if (!arg.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}:`)) continue;
    const link = acceptDeepLink(arg);
    if (link) return link;
  }
  return null;
}

export function createDeepLinkInbox() {
  let pending: string | null = null;
  return {
    offer(link: string | null) {
      if (link) pending = link;
    },
    take(): string | null {
      const link = pending;
      pending = null;
      return link;
    },
  };
}
