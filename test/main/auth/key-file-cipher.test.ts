import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { EncryptedVault } from '../../../main/auth/encrypted-vault';
import { NodeKeyFileCipher } from '../../../main/auth/key-file-cipher';
import { MemoryJsonStore } from '../../helpers/fake-safe-storage';

/** When set, the cipher's link of its new key file fails as this says (the fs functions are the real ones otherwise). */
const hooks = vi.hoisted(() => ({ link: undefined as ((from: string, to: string) => void) | undefined }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    linkSync: (from: string, to: string) => (hooks.link ?? fs.linkSync)(from, to),
  };
});

describe('NodeKeyFileCipher', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'vault-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('round-trips with AES-256-GCM, reports basic_text, keeps its key private and rejects tampering', () => {
    const dir = tempDir();
    const keyFile = join(dir, 'sub', 'vault.key');
    const cipher = new NodeKeyFileCipher(keyFile);
    expect(cipher.getSelectedStorageBackend()).toBe('basic_text');
    const box = cipher.encryptString('hola secreto');
    expect(box.toString('utf8')).not.toContain('hola');
    expect(cipher.decryptString(box)).toBe('hola secreto');
    expect(new NodeKeyFileCipher(keyFile).decryptString(box)).toBe('hola secreto');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(keyFile).length).toBe(32);
    box[box.length - 1]! ^= 1;
    expect(() => cipher.decryptString(box)).toThrow();
  });

  it('works as the vault cipher, behind the consent rule', async () => {
    const dir = tempDir();
    const vault = new EncryptedVault(new NodeKeyFileCipher(join(dir, 'k')), new MemoryJsonStore());
    expect(vault.security().awaitingConsent).toBe(true);
  });
  it('refuses whatever is at the key path that is no 32-byte file, saying to move it aside, and leaves nothing behind (red team 14)', () => {
    const dir = tempDir();
    const dangling = join(dir, 'dangling.key');
    symlinkSync(join(dir, 'nowhere'), dangling);
    const toKey = join(dir, 'linked.key');
    writeFileSync(join(dir, 'real.key'), Buffer.alloc(32, 1));
    symlinkSync(join(dir, 'real.key'), toKey);
    const folder = join(dir, 'folder.key');
    mkdirSync(folder);
    const short = join(dir, 'short.key');
    writeFileSync(short, Buffer.alloc(31, 1));
    // A dangling symlink looked absent to a read while linking over it failed: the start recursed until the stack
    // overflowed and left hundreds of spare key files.
    for (const path of [dangling, toKey, folder, short])
      expect(() => new NodeKeyFileCipher(path)).toThrow(`Key file ${path} is not a 32-byte key; move it aside`);
    expect(readdirSync(dir).sort()).toEqual(['dangling.key', 'folder.key', 'linked.key', 'real.key', 'short.key']);
  });

  it('a key file that appears and is no key after a failed link is refused after one more read, not tried again and again', () => {
    const dir = tempDir();
    const keyFile = join(dir, 'vault.key');
    let links = 0;
    hooks.link = () => {
      links++;
      throw Object.assign(new Error('EEXIST: file already exists'), { code: 'EEXIST' });
    };
    try {
      expect(() => new NodeKeyFileCipher(keyFile)).toThrow('move it aside');
    } finally {
      hooks.link = undefined;
    }
    expect(links).toBe(2);
    expect(readdirSync(dir)).toEqual([]);
  });
});
