import type { MediaStore } from './registry';

/**
 * Streams a registered media entry from its remote URL, passing the `Range` header through so seeking never
 * downloads the whole file. When the pre-signed URL has expired (401/403/410), the entry's `refresh` gives a new
 * one and the request is repeated once. Shared by Electron's custom scheme and the web shell's media route.
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
/** What a player shows. Anything else (a web page, an SVG with scripts) is served as bytes to download, never run. */
const PLAYABLE = /^(video|audio)\/[\w.+-]+|^image\/(jpeg|png|webp|gif|avif|bmp)\b/i;

export async function streamMedia(
  store: MediaStore,
  id: string,
  req: { range?: string | null; method?: string; signal?: AbortSignal },
  fetchImpl: typeof fetch = fetch,
): Promise<MediaResponse> {
  const entry = store.lookup(id);
  if (!entry) return plain(404, 'Unknown or expired media id');
  const method = req.method === 'HEAD' ? 'HEAD' : 'GET';
  const range = req.range && RANGE.test(req.range) ? req.range : undefined;
  const get = (url: string) =>
    fetchImpl(url, {
      method,
      headers: range ? { range } : {},
      redirect: 'follow',
      ...(req.signal ? { signal: req.signal } : {}),
    });

  let upstream: Response;
  try {
    upstream = await get(entry.remoteUrl);
    if (EXPIRED.has(upstream.status) && entry.refresh) {
      await upstream.body?.cancel();
      const fresh = await entry.refresh();
      store.update(id, fresh);
      upstream = await get(fresh);
    }
  } catch {
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
  if (headers['content-type'] !== undefined && !PLAYABLE.test(headers['content-type']))
    headers['content-type'] = 'application/octet-stream';
  headers['content-security-policy'] = "default-src 'none'; sandbox";
  return { status: upstream.status, headers, body: method === 'HEAD' ? null : upstream.body };
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
