import { randomBytes } from 'node:crypto';
import { Agent, type Dispatcher } from 'undici';
import type { MediaRegistry } from '../ports';
import {
  checkMediaUrl,
  checkMediaUrlSyntax,
  internetOnlyLookup,
  originOf,
  resolveHost,
  type ResolveHost,
} from './address';

/**
 * Maps opaque ids to remote (pre-signed) URLs. The renderer only ever sees `urlFor(id)`: a custom-scheme URL in
 * Electron, a signed loopback URL in the web shell, made anew at each registration so a link the screens read again
 * is never one whose signature has run out. Bounded: the oldest entries go first.
 */
export interface MediaEntry {
  id: string;
  remoteUrl: string;
  contentType?: string;
  refresh?: () => Promise<string>;
  /** The origin of the environment's service when registered: links there may be on this computer (the demo). */
  serviceOrigin?: string;
}

/** What `register` takes: ports.ts's options, and the service origin the link came from (address.ts). */
export interface MediaRegisterOptions {
  contentType?: string;
  refresh?: () => Promise<string>;
  serviceOrigin?: string;
}

export interface MediaStore extends MediaRegistry {
  /**
   * Refuses (MediaRegistryError) a link that is not http(s) or names an address on this computer or its network,
   * unless it is on `serviceOrigin`. The same link registered again (with the same type and service) while its entry
   * lives keeps its id and gets a freshly made URL; an entry the bound dropped is registered anew.
   */
  register(remoteUrl: string, opts?: MediaRegisterOptions): string;
  lookup(id: string): MediaEntry | undefined;
  /** Replace the remote URL after a refresh, so later range requests use the fresh one; checked like a registration. */
  update(id: string, remoteUrl: string): void;
  /**
   * The check before each request for an entry, each redirect hop included: its host name resolved (address.ts). A
   * link off the service is then requested through `internet`.
   */
  check(entry: MediaEntry, url: string): Promise<{ url: URL; onService: boolean }>;
  /** Connections that resolve their host themselves and refuse internal addresses (address.ts: DNS rebinding). */
  internet: Dispatcher;
}

export function createMediaStore(opts: {
  urlFor: (id: string) => string;
  maxEntries?: number;
  resolveHost?: ResolveHost;
}): MediaStore {
  const entries = new Map<string, MediaEntry>();
  /** The link as registered (with its type and service) → its entry's id, for as long as that entry lives. */
  const byLink = new Map<string, string>();
  const linkKeys = new Map<string, string>();
  const max = opts.maxEntries ?? 500;
  const resolve = opts.resolveHost ?? resolveHost;
  return {
    register(remoteUrl, { contentType, refresh, serviceOrigin } = {}) {
      const service = originOf(serviceOrigin);
      checkMediaUrlSyntax(remoteUrl, service);
      const key = JSON.stringify([remoteUrl, contentType ?? '', service ?? '']);
      const known = byLink.get(key);
      const existing = known === undefined ? undefined : entries.get(known);
      if (existing) {
        // Newest again, so a link in use is not the next one dropped; the newest refresh asks the service.
        entries.delete(existing.id);
        entries.set(existing.id, existing);
        if (refresh) existing.refresh = refresh;
        return opts.urlFor(existing.id);
      }
      const id = randomBytes(18).toString('base64url');
      entries.set(id, {
        id,
        remoteUrl,
        ...(contentType ? { contentType } : {}),
        ...(refresh ? { refresh } : {}),
        ...(service ? { serviceOrigin: service } : {}),
      });
      byLink.set(key, id);
      linkKeys.set(id, key);
      while (entries.size > max) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
        const oldKey = linkKeys.get(oldest);
        linkKeys.delete(oldest);
        if (oldKey !== undefined && byLink.get(oldKey) === oldest) byLink.delete(oldKey);
      }
      return opts.urlFor(id);
    },
    lookup: (id) => entries.get(id),
    update(id, remoteUrl) {
      const entry = entries.get(id);
      if (!entry) return;
      checkMediaUrlSyntax(remoteUrl, entry.serviceOrigin);
      entry.remoteUrl = remoteUrl;
    },
    check: (entry, url) => checkMediaUrl(url, entry.serviceOrigin, resolve),
    internet: new Agent({ connect: { lookup: internetOnlyLookup(resolve) } }),
  };
}
