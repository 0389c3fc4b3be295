import type { SecretCipher } from '../../main/auth/vault';
import type { FileJsonStore, Frozen } from '../../main/json-store';
import { deepFreeze } from '../../main/json-store';

/**
 * Stands in for Electron's `safeStorage`: a reversible transform (not real encryption) that fails like the real
 * one when the key changes (`rotateKey`), and reports whichever backend the test asks for.
 */
export class FakeSafeStorage implements SecretCipher {
  key = 7;
  encryptCalls = 0;

  constructor(
    public backend: string = 'gnome_libsecret',
    public available = true,
  ) {}

  isEncryptionAvailable() {
    return this.available;
  }
  getSelectedStorageBackend() {
    return this.backend;
  }
  encryptString(s: string): Buffer {
    this.encryptCalls++;
    const plain = Buffer.from(`fake:${this.key}:${s}`, 'utf8');
    return Buffer.from(plain.map((b) => b ^ 0x5a));
  }
  decryptString(b: Buffer): string {
    const text = Buffer.from(b.map((x) => x ^ 0x5a)).toString('utf8');
    const prefix = `fake:${this.key}:`;
    if (!text.startsWith(prefix))
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return text.slice(prefix.length);
  }
  /** Simulates a changed OS key store: everything stored before no longer decrypts. */
  rotateKey() {
    this.key++;
  }
}

/** An in-memory JsonStore that keeps what the app wrote, as JSON, like electron-store would on disk. */
export class MemoryJsonStore implements FileJsonStore {
  readonly data = new Map<string, string>();
  get<T>(key: string): T | undefined {
    const raw = this.data.get(key);
    return raw === undefined ? undefined : (JSON.parse(raw) as T);
  }
  peek<T>(key: string): Frozen<T> | undefined {
    const raw = this.data.get(key);
    return raw === undefined ? undefined : (deepFreeze(JSON.parse(raw)) as Frozen<T>);
  }
  set<T>(key: string, value: T): void {
    this.data.set(key, JSON.stringify(value));
  }
  delete(key: string): void {
    this.data.delete(key);
  }
  keys(): string[] {
    return [...this.data.keys()];
  }
  /** Everything on "disk", for asserting that no plaintext secret was written. */
  dump(): string {
    return [...this.data.values()].join('\n');
  }
}
