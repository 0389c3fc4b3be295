import { describe, expect, it, vi } from 'vitest';
import { createMediaStore } from '../../../main/media/registry';
import { streamMedia } from '../../../main/media/stream';

vi.mock('electron', () => ({ protocol: { handle: vi.fn(), registerSchemesAsPrivileged: vi.fn() } }));
const { serveMediaRequest } = await import('../../../main/electron/protocols');
const { mediaUrlFor } = await import('../../../main/electron/schemes');

/** Every host name resolves to a public address (the tests have no DNS); address checks are address.test.ts's. */
const PUBLIC = { resolveHost: async () => ['93.184.215.14'] };

function upstream(status: number, headers: Record<string, string> = {}, body = 'x') {
  return vi.fn(
    async (_url: string | URL | Request, _init?: RequestInit) =>
      new Response(status === 204 ? null : body, { status, headers }),
  );
}

describe('media streaming', () => {
  it('passes Range through the omni-media:// scheme and returns 206 with Content-Range', async () => {
    const store = createMediaStore({ urlFor: mediaUrlFor, ...PUBLIC });
    const url = store.register('https://bucket.example/v.webm', { contentType: 'video/webm' });
    const fetchImpl = upstream(
      206,
      { 'content-range': 'bytes 10-19/100', 'content-length': '10', 'accept-ranges': 'bytes', 'set-cookie': 'a=b' },
      '0123456789',
    );
    const res = await serveMediaRequest(
      new Request(url, { headers: { range: 'bytes=10-19' } }),
      store,
      fetchImpl as unknown as typeof fetch,
    );
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 10-19/100');
    expect(res.headers.get('content-type')).toBe('video/webm');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(await res.text()).toBe('0123456789');
    expect(fetchImpl.mock.calls[0]![1]!.headers).toEqual({ range: 'bytes=10-19' });
  });

  it('never serves what the source calls a page as one: only playable types, sandboxed, on the app’s origin', async () => {
    const store = createMediaStore({ urlFor: (id) => id, ...PUBLIC });
    const id = store.register('https://bucket.example/v', {});
    const served = async (type: string) =>
      (
        await streamMedia(
          store,
          id,
          {},
          upstream(200, { 'content-type': type }, '<script>alert(1)</script>') as unknown as typeof fetch,
        )
      ).headers;
    for (const page of ['text/html', 'image/svg+xml', 'application/xhtml+xml', 'text/html; charset=utf-8'])
      expect(await served(page), page).toMatchObject({
        'content-type': 'application/octet-stream',
        'content-security-policy': "default-src 'none'; sandbox",
      });
    for (const playable of ['video/mp4', 'video/webm; codecs=vp9', 'audio/ogg', 'image/jpeg'])
      expect((await served(playable))['content-type'], playable).toBe(playable);
  });

  it('drops a malformed Range instead of forwarding it', async () => {
    const store = createMediaStore({ urlFor: (id) => id, ...PUBLIC });
    const id = store.register('https://bucket.example/v.webm', {});
    const fetchImpl = upstream(200);
    await streamMedia(store, id, { range: 'bytes=abc\r\nx: y' }, fetchImpl as unknown as typeof fetch);
    expect(fetchImpl.mock.calls[0]![1]!.headers).toEqual({});
  });

  it('answers 404 for an unknown id and 502 (without the URL) when the source is unreachable', async () => {
    const store = createMediaStore({ urlFor: (id) => id, ...PUBLIC });
    expect((await streamMedia(store, 'nope', {})).status).toBe(404);
    const id = store.register('https://bucket.example/secret-path', {});
    const res = await streamMedia(
      store,
      id,
      {},
      vi.fn(async () => {
        throw new TypeError('fetch failed: bucket.example/secret-path');
      }) as unknown as typeof fetch,
    );
    expect(res.status).toBe(502);
    expect(await new Response(res.body).text()).not.toContain('secret-path');
  });

  it('refreshes an expired URL once and keeps the fresh one for later ranges', async () => {
    const store = createMediaStore({ urlFor: (id) => id, ...PUBLIC });
    const refresh = vi.fn(async () => 'https://bucket.example/fresh');
    const id = store.register('https://bucket.example/old', { refresh });
    const fetchImpl = vi.fn(
      async (url: string | URL | Request) => new Response('ok', { status: String(url).endsWith('old') ? 403 : 200 }),
    );
    expect((await streamMedia(store, id, {}, fetchImpl as unknown as typeof fetch)).status).toBe(200);
    expect(store.lookup(id)!.remoteUrl).toBe('https://bucket.example/fresh');
    expect(refresh).toHaveBeenCalledOnce();
  });
});
