import { describe, expect, it } from 'vitest';
import { databaseDestination, serviceDestination } from '../../../main/auth/destination';
import { EncryptedVault } from '../../../main/auth/encrypted-vault';
import { MemoryVault } from '../../../main/auth/memory-vault';
import { FakeSafeStorage, MemoryJsonStore } from '../../helpers/fake-safe-storage';

const env = { id: 'custom', baseUrl: 'https://omni.example/api', authUrl: 'https://auth.example' };

describe('a secret is found only under the destination it was stored for', () => {
  it('a service destination is its two origins: a path changes nothing, a host, port or scheme does', () => {
    const here = serviceDestination(env);
    expect(serviceDestination({ ...env, baseUrl: 'https://omni.example/other/' })).toBe(here);
    for (const baseUrl of ['https://omni.example:8443/api', 'http://omni.example/api', 'https://127.0.0.1/api'])
      expect(serviceDestination({ ...env, baseUrl })).not.toBe(here);
    expect(serviceDestination({ ...env, authUrl: 'https://evil.example' })).not.toBe(here);
    // The embedded demo is one destination whatever port it listens on this run.
    expect(serviceDestination({ ...env, id: 'demo', kind: 'demo', baseUrl: 'http://127.0.0.1:1' })).toBe(
      serviceDestination({ ...env, id: 'demo', kind: 'demo', baseUrl: 'http://127.0.0.1:2' }),
    );
  });

  it('a database destination changes with each of host, port, database, user, TLS mode and CA', () => {
    const c = { host: 'db.example', port: 5432, database: 'team', user: 'ana', tls: 'verify-full' };
    const here = databaseDestination('team-database', c);
    expect(databaseDestination('team-database', { ...c, host: 'DB.example' })).toBe(here);
    for (const change of [
      { host: 'db2.example' },
      { port: 5433 },
      { database: 'other' },
      { user: 'beto' },
      { tls: 'disable' },
      { ca: '-----BEGIN CERTIFICATE-----' },
    ])
      expect(databaseDestination('team-database', { ...c, ...change })).not.toBe(here);
  });

  it.each([
    ['memory', () => new MemoryVault()],
    ['encrypted', () => new EncryptedVault(new FakeSafeStorage(), new MemoryJsonStore())],
  ])('%s vault: another destination finds nothing, and forgetAllBut drops the old one', async (_kind, make) => {
    const vault = make();
    const old = serviceDestination(env);
    const moved = serviceDestination({ ...env, baseUrl: 'http://127.0.0.1:9' });
    await vault.setCredential(old, 'apiKey', 'key-1');
    await vault.setSessionToken(old, 'iv-1', 'token-1');
    await vault.setCredential(serviceDestination({ ...env, id: 'production' }), 'apiKey', 'key-prod');
    expect(await vault.getCredential(moved, 'apiKey')).toBeUndefined();
    expect(await vault.getSessionToken(moved, 'iv-1')).toBeUndefined();
    expect(await vault.hasSessionToken(moved, 'iv-1')).toBe(false);
    expect(await vault.forgetAllBut(moved)).toEqual({ credentials: 1, sessionTokens: 1 });
    expect(await vault.getCredential(old, 'apiKey')).toBeUndefined();
    expect(vault.knownSecrets()).not.toContain('token-1');
    // Another environment's secrets are not touched.
    expect(await vault.getCredential(serviceDestination({ ...env, id: 'production' }), 'apiKey')).toBe('key-prod');
  });

  it('secrets an earlier version stored by environment id are bound to the address at start, once', async () => {
    const cipher = new FakeSafeStorage();
    const store = new MemoryJsonStore();
    const earlier = new EncryptedVault(cipher, store);
    // What an earlier version wrote: `<env>\0cred\0<name>`, `<env>\0session\0<id>`.
    const raw = earlier as unknown as { put(key: string, value: string): void };
    raw.put('custom\u0000cred\u0000apiKey', 'key-old');
    raw.put('custom\u0000session\u0000iv-9', 'token-old');
    const vault = new EncryptedVault(cipher, store);
    const here = serviceDestination(env);
    await vault.adoptUnbound(here);
    expect(await vault.getCredential(here, 'apiKey')).toBe('key-old');
    expect(await vault.getSessionToken(here, 'iv-9')).toBe('token-old');
  });
});
