import { randomBytes } from 'node:crypto';
import { MediaRegistryError } from '../errors';
import type { MediaRegistry } from '../ports';

/**
 * Maps opaque ids to remote (pre-signed) URLs. The renderer only ever sees `urlFor(id)`: a custom-scheme URL in
 * Electron, a token-protected loopback URL in the web shell. Bounded: the oldest entries go first.
 */
export interface MediaEntry {
  id: string;
  remoteUrl: string;
  contentType?: string;
  refresh?: () => Promise<string>;
}

export interface MediaStore extends MediaRegistry {
  lookup(id: string): MediaEntry | undefined;
  /** Replace the remote URL after a refresh, so later range requests use the fresh one. */
  update(id: string, remoteUrl: string): void;
}

export function createMediaStore(opts: { urlFor: (id: string) => string; maxEntries?: number }): MediaStore {
  const entries = new Map<string, MediaEntry>();
  const max = opts.maxEntries ?? 500;
  return {
    register(remoteUrl, { contentType, refresh } = {}) {
      let parsed: URL;
      try {
        parsed = new URL(remoteUrl);
      } catch {
        throw new MediaRegistryError('Media URL is not a valid URL');
      }
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
        throw new MediaRegistryError('Media URL must be http(s)');
      const id = randomBytes(18).toString('base64url');
      entries.set(id, { id, remoteUrl, ...(contentType ? { contentType } : {}), ...(refresh ? { refresh } : {}) });
      while (entries.size > max) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
      return opts.urlFor(id);
    },
    lookup: (id) => entries.get(id),
    update(id, remoteUrl) {
      const entry = entries.get(id);
      if (entry) entry.remoteUrl = remoteUrl;
    },
  };
}
