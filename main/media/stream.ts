import { fetch as undiciFetch, type Dispatcher } from 'undici';
import { MediaRegistryError } from '../errors';
import type { MediaEntry, MediaStore } from './registry';

/**
 * Streams a registered media entry from its remote URL, passing the `Range` header through so seeking never
 * downloads the whole file. When the pre-signed URL has expired (401/403/410), the entry's `refresh` gives a new
 * one and the request is repeated once. Shared by Electron's custom scheme and the web shell's media route.
 *
 * Redirects are followed here, at most MAX_HOPS, each hop checked like the link itself (address.ts): fetch would
 * follow one to this computer or its network (a blind SSRF from the analyst's machine). A hop off the service's origin
 * goes through the store's `internet` dispatcher, whose connection resolves the name again and refuses internal
 * addresses: undici's fetch, since a dispatcher is undici's (Node's own fetch bundles another undici).
 */
export interface MediaResponse {
  status: number;
  headers: Record<string, string>;
  body: ReadableStream<Uint8Array> | null;
}

const PASS_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'last-modified', 'etag'];
const ENCODED_BYTE_HEADERS = new Set(['content-length', 'content-range', 'accept-ranges', 'etag']);
const EXPIRED = new Set([401, 403, 410]);
const RANGE = /^bytes=\d*-\d*(,\s*\d*-\d*)*$/;
const MAX_HOPS = 5;
/**
 * What a player shows, the whole type (its parameters aside). Anything else (a web page, an SVG with scripts) is served
 * as bytes to download, never run. A list (`video/mp4, text/html`: fetch joins repeated headers so) is refused:
 * Chromium takes the last type it knows in one.
 */
const PLAYABLE = /^(?:(?:video|audio)\/[\w.+-]+|image\/(?:jpeg|png|webp|gif|avif|bmp))$/i;

export function isPlayable(contentType: string): boolean {
  if (contentType.includes(',')) return false;
  return PLAYABLE.test(contentType.split(';')[0]!.trim());
}

export async function streamMedia(
  store: MediaStore,
  id: string,
  req: { range?: string | null; method?: string; signal?: AbortSignal },
  fetchImpl: typeof fetch = undiciFetch as unknown as typeof fetch,
): Promise<MediaResponse> {
  const entry = store.lookup(id);
  if (!entry) return plain(404, 'Unknown or expired media id');
  const method = req.method === 'HEAD' ? 'HEAD' : 'GET';
  const range = req.range && RANGE.test(req.range) ? req.range : undefined;
  const get = (url: string) =>
    follow(store, entry, url, (hop, dispatcher) =>
      fetchImpl(hop, {
        method,
        headers: range ? { range } : {},
        redirect: 'manual',
        ...(req.signal ? { signal: req.signal } : {}),
        ...(dispatcher ? { dispatcher } : {}),
      } as RequestInit),
    );

  let upstream: Response;
  try {
    upstream = await get(entry.remoteUrl);
    if (EXPIRED.has(upstream.status) && entry.refresh) {
      await upstream.body?.cancel();
      const fresh = await entry.refresh();
      // Checked in full before it is kept: the service's new link is no more trusted than its first.
      await store.check(entry, fresh);
      store.update(id, fresh);
      upstream = await get(fresh);
    }
  } catch (error) {
    // Its own words name no address: the link may be a pre-signed URL, or point where the page should not learn of.
    if (error instanceof MediaRegistryError) return plain(502, `The media source was not fetched: ${error.message}`);
    return plain(502, 'The media source could not be reached');
  }

  if (!upstream.ok && upstream.status !== 416) {
    await upstream.body?.cancel();
    return plain(upstream.status === 404 ? 404 : 502, `The media source answered ${upstream.status}`);
  }
  const headers: Record<string, string> = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
  // fetch hands the body back decoded (gzip, deflate, br): the source's lengths and ranges count encoded bytes.
  const encoded = (upstream.headers.get('content-encoding') ?? 'identity').toLowerCase() !== 'identity';
  for (const name of PASS_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null && !(encoded && ENCODED_BYTE_HEADERS.has(name))) headers[name] = value;
  }
  if (entry.contentType) headers['content-type'] = entry.contentType;
  // Served on the app's own origin: what the source says it is must not make it a page that runs there.
  if (headers['content-type'] !== undefined && !isPlayable(headers['content-type']))
    headers['content-type'] = 'application/octet-stream';
  headers['content-security-policy'] = "default-src 'none'; sandbox";
  return { status: upstream.status, headers, body: method === 'HEAD' ? null : upstream.body };
}

/**
 * The answer at the end of the link's redirects, each hop checked before it is requested (store.check). Throws
 * MediaRegistryError for a refused hop or too many of them.
 */
async function follow(
  store: MediaStore,
  entry: MediaEntry,
  url: string,
  request: (url: string, dispatcher: Dispatcher | undefined) => Promise<Response>,
): Promise<Response> {
  let hop = url;
  for (let hops = 0; ; hops++) {
    const { onService } = await store.check(entry, hop);
    const res = await request(hop, onService ? undefined : store.internet);
    const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
    if (location === null) return res;
    await res.body?.cancel();
    if (hops >= MAX_HOPS) throw new MediaRegistryError(`Media link redirected more than ${MAX_HOPS} times`);
    hop = new URL(location, hop).href;
  }
}

function plain(status: number, text: string): MediaResponse {
  const bytes = new TextEncoder().encode(text);
  return {
    status,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': String(bytes.byteLength),
      'cache-control': 'no-store',
    },
    body: new ReadableStream({
      start: (c) => {
        c.enqueue(bytes);
        c.close();
      },
    }),
  };
}
