import { describe, expect, it, vi } from 'vitest';
import { createMediaStore } from '../../../main/media/registry';
import { isPlayable, streamMedia } from '../../../main/media/stream';

/**
 * Red team 12, findings 7 and 8: a media link whose redirects lead to this computer or its network is not followed
 * there, a refreshed link is checked like a registered one, and a list of content types is not "playable".
 */
const names: Record<string, string[]> = {
  'cdn.example': ['93.184.215.14'],
  'other-cdn.example': ['93.184.215.15'],
  'intranet.example': ['10.0.0.5'],
};
const resolveHost = async (host: string) => {
  const found = names[host];
  if (!found) throw new Error(`ENOTFOUND ${host}`);
  return found;
};

type Reply = { status: number; headers?: Record<string, string>; body?: string };
/** A fetch that answers from a table by URL, and records what it was asked. It follows redirects unless told not to. */
function sources(table: Record<string, Reply>) {
  const fetchImpl = vi.fn(async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const reply = table[String(url)] ?? { status: 404 };
    const location = reply.headers?.location;
    if (location !== undefined && init?.redirect !== 'manual')
      return fetchImpl(new URL(location, String(url)).href, init);
    return new Response(reply.status === 204 || reply.status >= 300 ? null : (reply.body ?? 'x'), {
      status: reply.status,
      headers: reply.headers ?? {},
    });
  });
  return fetchImpl;
}
const asFetch = (f: ReturnType<typeof sources>) => f as unknown as typeof fetch;

async function text(body: ReadableStream<Uint8Array> | null) {
  return new Response(body).text();
}

describe('media redirects', () => {
  it('follows a redirect to another internet host itself, with the Range, never letting fetch follow', async () => {
    const store = createMediaStore({ urlFor: (id) => id, resolveHost });
    const id = store.register('https://cdn.example/v.webm?sig=1', {});
    const fetchImpl = sources({
      'https://cdn.example/v.webm?sig=1': { status: 302, headers: { location: '/moved.webm' } },
      'https://cdn.example/moved.webm': { status: 307, headers: { location: 'https://other-cdn.example/v.webm' } },
      'https://other-cdn.example/v.webm': { status: 206, headers: { 'content-type': 'video/webm' }, body: 'bytes' },
    });
    const res = await streamMedia(store, id, { range: 'bytes=0-4' }, asFetch(fetchImpl));
    expect(res.status).toBe(206);
    expect(await text(res.body)).toBe('bytes');
    expect(fetchImpl.mock.calls.map(([url, init]) => [String(url), init!.redirect, init!.headers])).toEqual([
      ['https://cdn.example/v.webm?sig=1', 'manual', { range: 'bytes=0-4' }],
      ['https://cdn.example/moved.webm', 'manual', { range: 'bytes=0-4' }],
      ['https://other-cdn.example/v.webm', 'manual', { range: 'bytes=0-4' }],
    ]);
  });

  it.each([
    'http://127.0.0.1:9000/admin/reboot?confirm=1',
    'http://169.254.169.254/latest/meta-data/iam/',
    'http://intranet.example/printer/reset',
    'http://[::1]/',
    'file:///etc/passwd',
    'data:text/html,<script>alert(1)</script>',
  ])('does not follow a redirect to %s', async (target) => {
    const store = createMediaStore({ urlFor: (id) => id, resolveHost });
    const id = store.register('https://cdn.example/v.webm', {});
    const fetchImpl = sources({
      'https://cdn.example/v.webm': { status: 302, headers: { location: target } },
      [new URL(target).href]: { status: 200, body: 'internal-admin-page: secret=hunter2' },
    });
    const res = await streamMedia(store, id, {}, asFetch(fetchImpl));
    expect(res.status).toBe(502);
    expect(fetchImpl).toHaveBeenCalledOnce();
    // The page learns neither the link nor where it pointed.
    const said = await text(res.body);
    expect(said).not.toContain('hunter2');
    expect(said).not.toContain('cdn.example');
    expect(said).not.toContain(target.startsWith('http') ? new URL(target).host : target.slice(0, 10));
  });

  it('does not follow a redirect loop for ever', async () => {
    const store = createMediaStore({ urlFor: (id) => id, resolveHost });
    const id = store.register('https://cdn.example/a', {});
    const fetchImpl = sources({
      'https://cdn.example/a': { status: 302, headers: { location: '/b' } },
      'https://cdn.example/b': { status: 302, headers: { location: '/a' } },
    });
    expect((await streamMedia(store, id, {}, asFetch(fetchImpl))).status).toBe(502);
    expect(fetchImpl.mock.calls.length).toBeLessThanOrEqual(6);
  });

  it('checks the registered link itself before the first request (a name that resolves inside)', async () => {
    const store = createMediaStore({ urlFor: (id) => id, resolveHost });
    const id = store.register('http://intranet.example/v.webm', {});
    const fetchImpl = sources({});
    expect((await streamMedia(store, id, {}, asFetch(fetchImpl))).status).toBe(502);
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it.each(['data:text/html,<script>alert(1)</script>', 'http://127.0.0.1:9000/', 'http://intranet.example/x'])(
    'does not fetch a refreshed link to %s, nor keep it',
    async (fresh) => {
      const store = createMediaStore({ urlFor: (id) => id, resolveHost });
      const id = store.register('https://cdn.example/expired.webm', { refresh: async () => fresh });
      const fetchImpl = sources({ 'https://cdn.example/expired.webm': { status: 403 } });
      expect((await streamMedia(store, id, {}, asFetch(fetchImpl))).status).toBe(502);
      expect(fetchImpl.mock.calls.map(([url]) => String(url))).toEqual(['https://cdn.example/expired.webm']);
      expect(store.lookup(id)!.remoteUrl).toBe('https://cdn.example/expired.webm');
    },
  );
});

describe('playable content types', () => {
  const served = async (type: string, registered?: string) => {
    const store = createMediaStore({ urlFor: (id) => id, resolveHost });
    const id = store.register('https://cdn.example/v', registered ? { contentType: registered } : {});
    const fetchImpl = sources({ 'https://cdn.example/v': { status: 200, headers: { 'content-type': type } } });
    return (await streamMedia(store, id, {}, asFetch(fetchImpl))).headers['content-type'];
  };

  it('serves a list of types, or a type with more after it, as bytes (Chromium renders the last it knows)', async () => {
    for (const type of [
      'video/mp4, text/html',
      'image/png,text/html',
      'audio/ogg; codecs=opus, text/html',
      'video/mp4 text/html',
      'image/gif/html',
      'image/pngx',
    ])
      expect(await served(type), type).toBe('application/octet-stream');
    expect(await served('video/webm', 'video/mp4, text/html')).toBe('application/octet-stream');
  });

  it('serves one playable type as it came, parameters included', async () => {
    for (const type of ['video/mp4', 'VIDEO/MP4', 'video/webm; codecs=vp9', 'image/avif'])
      expect(await served(type), type).toBe(type);
    expect(isPlayable(' audio/mpeg ; rate=44100')).toBe(true);
    expect(isPlayable('video/webm; codecs="vp9,opus"')).toBe(false);
  });
});
