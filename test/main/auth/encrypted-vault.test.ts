import { describe, expect, it, vi } from 'vitest';
import { EncryptedVault } from '../../../main/auth/encrypted-vault';
import { VaultDecryptError, VaultInputError } from '../../../main/errors';
import { FakeSafeStorage, MemoryJsonStore } from '../../helpers/fake-safe-storage';
import { to } from '../../helpers/destinations';
import { serviceDestination } from '../../../main/auth/destination';
import { credKey } from '../../../main/auth/vault';

const SECRET = 'sk_live_0123456789abcdef';

describe('EncryptedVault with a keychain backend', () => {
  it('encrypts each value with a versioned prefix and never writes plaintext', async () => {
    const store = new MemoryJsonStore();
    const vault = new EncryptedVault(new FakeSafeStorage('gnome_libsecret'), store);
    await vault.setCredential(to('demo'), 'apiKey', SECRET);
    await vault.setSessionToken(to('demo'), 'iv-1', 'session-token-abc');
    expect(store.dump()).not.toContain(SECRET);
    expect(store.dump()).not.toContain('session-token-abc');
    const items = store.get<{ items: Record<string, string> }>('credentialVault')!.items;
    for (const v of Object.values(items)) expect(v).toMatch(/^v2:[A-Za-z0-9+/]+=*$/);
    expect(vault.security()).toEqual({ backend: 'keychain', persistent: true, awaitingConsent: false });
  });

  it('reads values back after a restart (a new vault over the same store)', async () => {
    const store = new MemoryJsonStore();
    const cipher = new FakeSafeStorage('keychain');
    const first = new EncryptedVault(cipher, store);
    await first.setCredential(to('prod'), 'secret', SECRET);
    await first.setSessionToken(to('prod'), 'iv-9', 'tok-9');
    const second = new EncryptedVault(cipher, store);
    expect(await second.getCredential(to('prod'), 'secret')).toBe(SECRET);
    expect(await second.getSessionToken(to('prod'), 'iv-9')).toBe('tok-9');
    expect(await second.hasSessionToken(to('prod'), 'iv-9')).toBe(true);
    expect(await second.credentialStatus(to('prod'))).toEqual({
      apiKey: 'unset',
      integrationId: 'unset',
      secret: 'set',
    });
  });

  it('stores an imported list of session tokens in one write, and none of them when one is not a token', async () => {
    const store = new MemoryJsonStore();
    const vault = new EncryptedVault(new FakeSafeStorage('gnome_libsecret'), store);
    const writes = vi.spyOn(store, 'set');
    const tokens = Array.from({ length: 200 }, (_, i) => ({ interviewId: `iv-${i}`, token: `tok-${i}` }));
    await vault.setSessionTokens(to('demo'), tokens);
    expect(writes).toHaveBeenCalledTimes(1);
    expect(
      await new EncryptedVault(new FakeSafeStorage('gnome_libsecret'), store).getSessionToken(to('demo'), 'iv-199'),
    ).toBe('tok-199');

    await expect(
      vault.setSessionTokens(to('demo'), [
        { interviewId: 'x', token: 'tok-x' },
        { interviewId: 'y', token: ' padded ' },
      ]),
    ).rejects.toThrow(VaultInputError);
    expect(await vault.hasSessionToken(to('demo'), 'x')).toBe(false);
    expect(writes).toHaveBeenCalledTimes(1);
  });

  it('answers whether a token is held without copying the stored values (asked once per queue entry)', async () => {
    const store = new MemoryJsonStore();
    const cipher = new FakeSafeStorage('gnome_libsecret');
    await new EncryptedVault(cipher, store).setSessionTokens(to('demo'), [{ interviewId: 'iv-1', token: 'tok-1' }]);
    const restarted = new EncryptedVault(cipher, store);
    const copies = vi.spyOn(store, 'get');
    expect(await restarted.hasSessionToken(to('demo'), 'iv-1')).toBe(true);
    expect(await restarted.hasSessionToken(to('demo'), 'iv-2')).toBe(false);
    expect(copies).not.toHaveBeenCalled();
  });

  it('keeps environments apart and clears values', async () => {
    const vault = new EncryptedVault(new FakeSafeStorage(), new MemoryJsonStore());
    await vault.setCredential(to('a'), 'apiKey', 'key-of-a');
    await vault.setCredential(to('b'), 'apiKey', 'key-of-b');
    expect(await vault.getCredential(to('a'), 'apiKey')).toBe('key-of-a');
    await vault.clearCredential(to('a'), 'apiKey');
    expect(await vault.getCredential(to('a'), 'apiKey')).toBeUndefined();
    expect(await vault.getCredential(to('b'), 'apiKey')).toBe('key-of-b');
    await vault.setSessionToken(to('a'), 'iv', 'tok');
    await vault.clearSessionToken(to('a'), 'iv');
    expect(await vault.hasSessionToken(to('a'), 'iv')).toBe(false);
  });

  it('reports an undecryptable value as such and throws instead of returning an empty string', async () => {
    const store = new MemoryJsonStore();
    const cipher = new FakeSafeStorage('kwallet5');
    await new EncryptedVault(cipher, store).setCredential(to('prod'), 'apiKey', SECRET);
    cipher.rotateKey();
    const vault = new EncryptedVault(cipher, store);
    expect((await vault.credentialStatus(to('prod'))).apiKey).toBe('undecryptable');
    await expect(vault.getCredential(to('prod'), 'apiKey')).rejects.toBeInstanceOf(VaultDecryptError);
    // Entering it again repairs it.
    await vault.setCredential(to('prod'), 'apiKey', 'new-key-1234');
    expect(await vault.getCredential(to('prod'), 'apiKey')).toBe('new-key-1234');
  });

  it('treats an unknown ciphertext version or garbage as undecryptable', async () => {
    const store = new MemoryJsonStore();
    store.set('credentialVault', {
      items: { 'env\u0000cred\u0000secret': 'v9:AAAA', 'env\u0000cred\u0000apiKey': 'v1:***' },
    });
    const vault = new EncryptedVault(new FakeSafeStorage(), store);
    // Written by an earlier version, unbound: bound to the environment's address at start.
    await vault.adoptUnbound(to('env'));
    expect(await vault.credentialStatus(to('env'))).toEqual({
      apiKey: 'undecryptable',
      integrationId: 'unset',
      secret: 'undecryptable',
    });
  });

  it('refuses empty values and values with stray spaces where they enter', async () => {
    const vault = new EncryptedVault(new FakeSafeStorage(), new MemoryJsonStore());
    await expect(vault.setCredential(to('e'), 'apiKey', '')).rejects.toBeInstanceOf(VaultInputError);
    await expect(vault.setCredential(to('e'), 'apiKey', ' key ')).rejects.toBeInstanceOf(VaultInputError);
    await expect(vault.setSessionToken(to('e'), 'iv', '   ')).rejects.toBeInstanceOf(VaultInputError);
  });

  it('lists every value it holds for redaction', async () => {
    const vault = new EncryptedVault(new FakeSafeStorage(), new MemoryJsonStore());
    await vault.setCredential(to('e'), 'apiKey', 'key-1111');
    await vault.setSessionToken(to('e'), 'iv', 'tok-2222');
    expect(vault.knownSecrets().sort()).toEqual(['key-1111', 'tok-2222']);
  });
});

describe('EncryptedVault where Linux has no secret store (basic_text)', () => {
  it('keeps secrets in memory only until the user accepts, and says why in both languages', async () => {
    const store = new MemoryJsonStore();
    const cipher = new FakeSafeStorage('basic_text');
    const vault = new EncryptedVault(cipher, store);
    const security = vault.security();
    expect(security).toMatchObject({ backend: 'basic_text', persistent: false, awaitingConsent: true });
    expect(security.reason?.en).toMatch(/secret store/);
    expect(security.reason?.es).toMatch(/almacén de secretos/);

    await vault.setCredential(to('demo'), 'apiKey', SECRET);
    expect(await vault.getCredential(to('demo'), 'apiKey')).toBe(SECRET);
    expect(store.data.size).toBe(0);
    expect(cipher.encryptCalls).toBe(0);

    await vault.acceptWeakStorage();
    expect(vault.security()).toMatchObject({ backend: 'basic_text', persistent: true, awaitingConsent: false });
    expect(store.dump()).not.toContain(SECRET);
    // What was held in memory was persisted on consent; the consent itself persists.
    const restarted = new EncryptedVault(cipher, store);
    expect(restarted.security().awaitingConsent).toBe(false);
    expect(await restarted.getCredential(to('demo'), 'apiKey')).toBe(SECRET);
  });

  it('loses unconsented secrets on restart', async () => {
    const store = new MemoryJsonStore();
    const cipher = new FakeSafeStorage('basic_text');
    await new EncryptedVault(cipher, store).setSessionToken(to('demo'), 'iv', 'tok-1234');
    expect(await new EncryptedVault(cipher, store).getSessionToken(to('demo'), 'iv')).toBeUndefined();
  });

  it('never persists when encryption is unavailable at all', async () => {
    const store = new MemoryJsonStore();
    const vault = new EncryptedVault(new FakeSafeStorage('unknown', false), store);
    await vault.setCredential(to('demo'), 'apiKey', SECRET);
    await vault.acceptWeakStorage();
    expect(store.data.size).toBe(0);
    expect(vault.security()).toMatchObject({ backend: 'memory', persistent: false });
    expect(await vault.getCredential(to('demo'), 'apiKey')).toBe(SECRET);
  });
});

describe('EncryptedVault created before Electron is ready', () => {
  it('holds values in memory until encryption becomes available, then writes them', async () => {
    const store = new MemoryJsonStore();
    const cipher = new FakeSafeStorage('unknown', false);
    const vault = new EncryptedVault(cipher, store);
    await vault.setCredential(to('demo'), 'apiKey', SECRET);
    expect(store.data.size).toBe(0);
    cipher.available = true;
    cipher.backend = 'gnome_libsecret';
    expect(vault.security().backend).toBe('keychain');
    await vault.getCredential(to('demo'), 'apiKey'); // any use writes what was waiting
    expect(store.dump()).toContain('v2:');
    await vault.setCredential(to('demo'), 'secret', 'another-secret');
    const restarted = new EncryptedVault(cipher, store);
    expect(await restarted.getCredential(to('demo'), 'apiKey')).toBe(SECRET);
    expect(await restarted.getCredential(to('demo'), 'secret')).toBe('another-secret');
  });

  it('a stored value read while encryption is unavailable is not remembered as broken', async () => {
    const store = new MemoryJsonStore();
    const cipher = new FakeSafeStorage('kwallet6');
    await new EncryptedVault(cipher, store).setCredential(to('demo'), 'apiKey', SECRET);
    // Like Electron before `ready`: decrypting throws while encryption is unavailable.
    class NotReadyYet extends FakeSafeStorage {
      override decryptString(b: Buffer): string {
        if (!this.available) throw new Error('Encryption is not available.');
        return super.decryptString(b);
      }
    }
    const notReady = new NotReadyYet('kwallet6', false);
    const early = new EncryptedVault(notReady, store);
    await expect(early.getCredential(to('demo'), 'apiKey')).rejects.toBeInstanceOf(VaultDecryptError);
    notReady.available = true;
    expect(await early.getCredential(to('demo'), 'apiKey')).toBe(SECRET);
  });
});

/**
 * Red team 11: the settings file may be written by someone who cannot use the OS secret store (another process on
 * macOS, a restored backup, a synced profile). Each ciphertext decrypts only under the key it was stored under, and
 * the key names where the value may be sent: moving one moves nothing.
 */
describe('EncryptedVault against a settings file edited by hand', () => {
  const prod = serviceDestination({
    id: 'production',
    baseUrl: 'https://omni.test',
    authUrl: 'https://auth.omni.test',
  });
  const evil = serviceDestination({ id: 'production', baseUrl: 'https://evil.test', authUrl: 'https://evil.test' });
  const items = (store: MemoryJsonStore) => store.get<{ items: Record<string, string> }>('credentialVault')!.items;
  const edit = (store: MemoryJsonStore, change: (items: Record<string, string>) => void) => {
    const vault = store.get<{ items: Record<string, string> }>('credentialVault')!;
    change(vault.items);
    store.set('credentialVault', vault);
  };

  it("a ciphertext copied under an address of the editor's own does not decrypt there", async () => {
    const store = new MemoryJsonStore();
    const cipher = new FakeSafeStorage('keychain');
    await new EncryptedVault(cipher, store).setCredential(prod, 'apiKey', SECRET);
    edit(store, (all) => (all[credKey(evil, 'apiKey')] = all[credKey(prod, 'apiKey')]!));
    const vault = new EncryptedVault(cipher, store);
    await expect(vault.getCredential(evil, 'apiKey')).rejects.toBeInstanceOf(VaultDecryptError);
    expect((await vault.credentialStatus(evil)).apiKey).toBe('undecryptable');
    expect(await vault.getCredential(prod, 'apiKey')).toBe(SECRET);
  });

  it("a ciphertext copied under an earlier version's unbound key is not adopted for where the environment points now", async () => {
    const store = new MemoryJsonStore();
    const cipher = new FakeSafeStorage('keychain');
    await new EncryptedVault(cipher, store).setCredential(prod, 'secret', SECRET);
    edit(store, (all) => (all['production\u0000cred\u0000secret'] = all[credKey(prod, 'secret')]!));
    const vault = new EncryptedVault(cipher, store);
    await vault.adoptUnbound(evil);
    expect(items(store)['production\u0000cred\u0000secret']).toBeUndefined();
    await expect(vault.getCredential(evil, 'secret')).rejects.toBeInstanceOf(VaultDecryptError);
    expect(vault.knownSecrets()).not.toContain(SECRET);
  });

  it("an earlier version's values are bound to the keys they stand under at the first start, and one planted after is refused", async () => {
    const store = new MemoryJsonStore();
    const cipher = new FakeSafeStorage('keychain');
    const earlier = (value: string) => 'v1:' + cipher.encryptString(value).toString('base64');
    store.set('credentialVault', {
      items: {
        [credKey(prod, 'apiKey')]: earlier(SECRET),
        'production\u0000cred\u0000secret': earlier('secret-9876543210'),
      },
    });
    const vault = new EncryptedVault(cipher, store);
    await vault.adoptUnbound(prod);
    expect(await vault.getCredential(prod, 'apiKey')).toBe(SECRET);
    expect(await vault.getCredential(prod, 'secret')).toBe('secret-9876543210');
    expect(Object.values(items(store)).every((c) => c.startsWith('v2:'))).toBe(true);
    // An earlier version's ciphertext, kept from before the upgrade, planted under the editor's address.
    edit(store, (all) => (all[credKey(evil, 'apiKey')] = earlier(SECRET)));
    const restarted = new EncryptedVault(cipher, store);
    await expect(restarted.getCredential(evil, 'apiKey')).rejects.toBeInstanceOf(VaultDecryptError);
  });
  /** The file as an editor leaves it: the `bound` marker deleted, then `change` made to its values. */
  const unmark = (store: MemoryJsonStore, change: (items: Record<string, string>) => void) => {
    const vault = store.get<{ bound?: boolean; items: Record<string, string> }>('credentialVault')!;
    delete vault.bound;
    change(vault.items);
    store.set('credentialVault', vault);
  };
  const asEarlier = (ciphertext: string) => 'v1:' + ciphertext.slice('v2:'.length);

  it("a current value relabelled as an earlier version's, with the marker deleted, is not read as a value (red team 14)", async () => {
    const store = new MemoryJsonStore();
    const cipher = new FakeSafeStorage('keychain');
    await new EncryptedVault(cipher, store).setCredential(prod, 'secret', SECRET);
    // Its plaintext is ["<key>","<secret>"]: read as a value it was sent, secret and all, where the key chosen points.
    unmark(store, (all) => (all[credKey(evil, 'secret')] = asEarlier(all[credKey(prod, 'secret')]!)));
    const vault = new EncryptedVault(cipher, store);
    await vault.adoptUnbound(evil);
    await expect(vault.getCredential(evil, 'secret')).rejects.toBeInstanceOf(VaultDecryptError);
    expect(vault.knownSecrets().join()).not.toContain(SECRET);
    // It never will be: the file is marked again.
    expect(store.get<{ bound?: boolean }>('credentialVault')!.bound).toBe(true);
    expect(await vault.getCredential(prod, 'secret')).toBe(SECRET);

    // The same under an earlier version's unbound key, which the start adopts for where the environment points.
    const second = new MemoryJsonStore();
    await new EncryptedVault(cipher, second).setCredential(prod, 'apiKey', SECRET);
    unmark(second, (all) => {
      all['production\u0000cred\u0000apiKey'] = asEarlier(all[credKey(prod, 'apiKey')]!);
      delete all[credKey(prod, 'apiKey')];
    });
    const adopted = new EncryptedVault(cipher, second);
    await adopted.adoptUnbound(evil);
    await expect(adopted.getCredential(evil, 'apiKey')).rejects.toBeInstanceOf(VaultDecryptError);
    expect(adopted.knownSecrets().join()).not.toContain(SECRET);
  });

  it("an earlier version's plaintext that is no value the app could have stored is not taken as one", async () => {
    const cipher = new FakeSafeStorage('keychain');
    const earlier = (value: string) => 'v1:' + cipher.encryptString(value).toString('base64');
    const store = new MemoryJsonStore();
    const planted = {
      // A current plaintext cut short at either end, and other JSON arrays.
      apiKey: `["production\\u0000@https://omni.test https://auth.omni.test\\u0000cred\\u0000apiKey","${SECRET}`,
      integrationId: `${SECRET}"]`,
      secret: '["a"]',
    };
    store.set('credentialVault', {
      items: Object.fromEntries(
        Object.entries(planted).map(([name, plain]) => [`production\u0000cred\u0000${name}`, earlier(plain)]),
      ),
    });
    const vault = new EncryptedVault(cipher, store);
    await vault.adoptUnbound(evil);
    expect(await vault.credentialStatus(evil)).toEqual({
      apiKey: 'undecryptable',
      integrationId: 'undecryptable',
      secret: 'undecryptable',
    });
    // What the checks on entry refuse, or the wrong key's bytes: no value either.
    for (const plain of [' padded ', 'tab\there', 'bad\ufffdbytes']) {
      const other = new MemoryJsonStore();
      other.set('credentialVault', { items: { [credKey(prod, 'apiKey')]: earlier(plain) } });
      await expect(new EncryptedVault(cipher, other).getCredential(prod, 'apiKey')).rejects.toBeInstanceOf(
        VaultDecryptError,
      );
    }
  });

  it("an earlier version's value read first through get is bound and returned, not reported undecryptable", async () => {
    const cipher = new FakeSafeStorage('keychain');
    const store = new MemoryJsonStore();
    store.set('credentialVault', {
      items: { [credKey(prod, 'apiKey')]: 'v1:' + cipher.encryptString(SECRET).toString('base64') },
    });
    const vault = new EncryptedVault(cipher, store);
    expect(await vault.getCredential(prod, 'apiKey')).toBe(SECRET);
    expect(items(store)[credKey(prod, 'apiKey')]).toMatch(/^v2:/);
  });

  it("a start where an earlier version's values do not decrypt (another keyring) leaves them to the next start (red team 14)", async () => {
    const cipher = new FakeSafeStorage('gnome_libsecret');
    const store = new MemoryJsonStore();
    store.set('credentialVault', {
      items: {
        [credKey(prod, 'apiKey')]: 'v1:' + cipher.encryptString(SECRET).toString('base64'),
        [credKey(prod, 'secret')]: 'v1:' + cipher.encryptString('secret-9876543210').toString('base64'),
      },
    });
    // One start with another key (Linux started from another session, say): nothing decrypts.
    cipher.rotateKey();
    const once = new EncryptedVault(cipher, store);
    await once.adoptUnbound(prod);
    expect((await once.credentialStatus(prod)).apiKey).toBe('undecryptable');
    expect(store.get<{ bound?: boolean }>('credentialVault')!.bound).toBeUndefined();
    // The usual keyring again: the values are there, and bound now.
    cipher.key--;
    const back = new EncryptedVault(cipher, store);
    await back.adoptUnbound(prod);
    expect(await back.getCredential(prod, 'apiKey')).toBe(SECRET);
    expect(await back.getCredential(prod, 'secret')).toBe('secret-9876543210');
    expect(store.get<{ bound?: boolean }>('credentialVault')!.bound).toBe(true);
    expect(Object.values(items(store)).every((c) => c.startsWith('v2:'))).toBe(true);
  });
});
