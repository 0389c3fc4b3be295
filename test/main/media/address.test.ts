import { describe, expect, it, vi } from 'vitest';
import { MediaRegistryError } from '../../../main/errors';
import { checkMediaUrl, isInternalAddress } from '../../../main/media/address';
import { createMediaStore } from '../../../main/media/registry';

/**
 * Red team 12, finding 7: a media link (or a refreshed one) naming this computer or its network is refused where it
 * enters, unless it is on the environment's own service origin (the embedded demo runs on 127.0.0.1).
 */
const INTERNAL_LINKS = [
  'http://127.0.0.1:8080/admin',
  'http://127.1/admin',
  'http://0x7f000001/admin',
  'http://2130706433/admin',
  'http://0.0.0.0:80/',
  'http://[::1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
  'http://169.254.169.254/latest/meta-data/',
  'http://10.1.2.3/',
  'http://172.20.0.1/',
  'http://192.168.1.1/',
  'http://100.100.100.100/',
  'http://[fd12:3456::1]/',
  'http://[fe80::1]/',
  'http://localhost:3000/',
  'http://LOCALHOST./',
  'http://admin.localhost/',
];

describe('media link check', () => {
  it.each(INTERNAL_LINKS)('refuses %s at registration', (link) => {
    const store = createMediaStore({ urlFor: (id) => id });
    expect(() => store.register(link, {})).toThrow(MediaRegistryError);
    // Not the service's origin: another port of the same address is another service.
    expect(() => store.register(link, { serviceOrigin: 'http://127.0.0.1:1' })).toThrow(MediaRegistryError);
  });

  it('accepts a link on the environment’s own service origin, wherever that is (the demo on 127.0.0.1)', () => {
    const store = createMediaStore({ urlFor: (id) => id });
    const id = store.register('http://127.0.0.1:4010/files/video-selfies/x.webm?sig=1', {
      serviceOrigin: 'http://127.0.0.1:4010/',
    });
    expect(store.lookup(id)).toMatchObject({ serviceOrigin: 'http://127.0.0.1:4010' });
    expect(() =>
      store.register('http://127.0.0.1:4011/files/x.webm', { serviceOrigin: 'http://127.0.0.1:4010' }),
    ).toThrow(MediaRegistryError);
    expect(() => store.register('https://127.0.0.1:4010/x', { serviceOrigin: 'http://127.0.0.1:4010' })).toThrow(
      MediaRegistryError,
    );
  });

  it('refuses a refreshed link it would refuse at registration (a data: URL, an internal address)', () => {
    const store = createMediaStore({ urlFor: (id) => id });
    const id = store.register('https://bucket.example/v.webm', {});
    expect(() => store.update(id, 'data:text/html,<script>alert(1)</script>')).toThrow(MediaRegistryError);
    expect(() => store.update(id, 'http://169.254.169.254/')).toThrow(MediaRegistryError);
    expect(store.lookup(id)!.remoteUrl).toBe('https://bucket.example/v.webm');
    store.update(id, 'https://bucket.example/fresh.webm');
    expect(store.lookup(id)!.remoteUrl).toBe('https://bucket.example/fresh.webm');
  });

  it('resolves a host name and refuses it when any address it has is internal', async () => {
    const resolve = vi.fn(async (host: string) =>
      host === 'cdn.example'
        ? ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']
        : ['93.184.215.14', '10.0.0.7'],
    );
    expect((await checkMediaUrl('https://cdn.example/v.webm', undefined, resolve)).url.hostname).toBe('cdn.example');
    await expect(checkMediaUrl('https://rebind.example/v.webm', undefined, resolve)).rejects.toThrow(
      MediaRegistryError,
    );
    await expect(
      checkMediaUrl('https://gone.example/v.webm', undefined, async () => {
        throw new Error('ENOTFOUND');
      }),
    ).rejects.toThrow(MediaRegistryError);
    await expect(checkMediaUrl('https://empty.example/v.webm', undefined, async () => [])).rejects.toThrow(
      MediaRegistryError,
    );
    // The service's origin is trusted as it is, not resolved.
    resolve.mockClear();
    await checkMediaUrl('https://intranet.example/v', 'https://intranet.example', resolve);
    expect(resolve).not.toHaveBeenCalled();
  });

  it('resolves names with node:dns by default: localhost is this computer', async () => {
    await expect(checkMediaUrl('http://localhost/', undefined)).rejects.toThrow(MediaRegistryError);
  });

  it('tells internet addresses from internal ones', () => {
    for (const a of ['93.184.215.14', '8.8.8.8', '2606:4700::1111', '172.32.0.1', '100.128.0.1'])
      expect(isInternalAddress(a), a).toBe(false);
    for (const a of ['127.0.0.53', '::', '::1', '::ffff:192.168.0.1', 'fe80::1%eth0', 'ff02::1', '255.255.255.255'])
      expect(isInternalAddress(a), a).toBe(true);
  });

  it('judges an IPv6 address carrying an IPv4 one by that one: NAT64, SIIT, 6to4 (red team 14)', () => {
    for (const a of [
      '64:ff9b::a9fe:a9fe', // NAT64: 169.254.169.254
      '64:ff9b::127.0.0.1',
      '64:ff9b::a00:1', // 10.0.0.1
      '64:ff9b:1::1', // local-use NAT64
      '::ffff:0:7f00:1', // SIIT: 127.0.0.1
      '2002:c0a8:101::1', // 6to4 of 192.168.1.1
      '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
    ])
      expect(isInternalAddress(a), a).toBe(true);
    // A public IPv4 host as DNS64 gives it on an IPv6-only network: media keeps coming.
    for (const a of ['64:ff9b::5db8:d70e', '64:ff9b::8.8.8.8', '2002:808:808::1'])
      expect(isInternalAddress(a), a).toBe(false);
  });
});
