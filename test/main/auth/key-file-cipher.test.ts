import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EncryptedVault } from '../../../main/auth/encrypted-vault';
import { NodeKeyFileCipher } from '../../../main/auth/key-file-cipher';
import { MemoryJsonStore } from '../../helpers/fake-safe-storage';

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
});
