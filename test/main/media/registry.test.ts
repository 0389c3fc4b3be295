import { describe, expect, it, vi } from 'vitest';
import { MediaRegistryError } from '../../../main/errors';
import { createMediaStore } from '../../../main/media/registry';

vi.mock('electron', () => ({ protocol: { handle: vi.fn(), registerSchemesAsPrivileged: vi.fn() } }));
const { mediaUrlFor } = await import('../../../main/electron/schemes');

describe('media registry', () => {
  it('hands out opaque ids, never the remote URL, and refuses non-http URLs', () => {
    const store = createMediaStore({ urlFor: mediaUrlFor });
    const url = store.register('https://bucket.example/v.webm?X-Amz-Signature=abc', {});
    expect(url).toMatch(/^omni-media:\/\/media\/[A-Za-z0-9_-]{24}$/);
    expect(url).not.toContain('bucket');
    expect(() => store.register('file:///etc/passwd', {})).toThrow(MediaRegistryError);
    expect(() => store.register('not a url', {})).toThrow(MediaRegistryError);
  });

  it('forgets the oldest entries beyond its bound', () => {
    const store = createMediaStore({ urlFor: (id) => id, maxEntries: 2 });
    const first = store.register('https://a.example/1', {});
    store.register('https://a.example/2', {});
    store.register('https://a.example/3', {});
    expect(store.lookup(first)).toBeUndefined();
  });
});
