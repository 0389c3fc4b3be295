import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type { SecretCipher } from './vault';

/**
 * AES-256-GCM with a random key in a file beside the data (web shell and development). The key sits next to the
 * ciphertext, so it is as weak as Electron's `basic_text`, and reports that backend so the consent rule applies.
 */
export class NodeKeyFileCipher implements SecretCipher {
  private readonly key: Buffer;

  constructor(keyFilePath: string) {
    this.key = loadOrCreateKey(keyFilePath);
  }

  isEncryptionAvailable() {
    return true;
  }
  getSelectedStorageBackend() {
    return 'basic_text';
  }
  encryptString(s: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(s, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), data]);
  }
  decryptString(b: Buffer): string {
    if (b.length < 28) throw new Error('ciphertext too short');
    const decipher = createDecipheriv('aes-256-gcm', this.key, b.subarray(0, 12));
    decipher.setAuthTag(b.subarray(12, 28));
    return Buffer.concat([decipher.update(b.subarray(28)), decipher.final()]).toString('utf8');
  }
}

function loadOrCreateKey(path: string, again = false): Buffer {
  const existing = readKey(path);
  if (existing) return existing;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  // Written whole beside it, on disk, then linked in: a crash or a full disk mid-write left an empty key that stopped
  // every later start (red team 11). The link fails if another process made one first: theirs is used, so both agree.
  const aside = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  try {
    const fd = openSync(aside, 'wx', 0o600);
    try {
      writeSync(fd, key);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(aside, 0o600);
    linkSync(aside, path);
  } catch (e) {
    // Read once more: another process's key. A second EEXIST means something there that is no key file, and
    // trying again would only repeat this (a dangling symlink recursed until the stack overflowed, red team 14).
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return again ? notAKey(path) : loadOrCreateKey(path, true);
    throw e;
  } finally {
    rmSync(aside, { force: true });
  }
  return key;
}

/**
 * The key in the file, or undefined when there is no file at all. Anything else at the path (a symlink, dangling or
 * not, a directory, a file of another size) is refused with a message saying to move it aside: read through, a
 * dangling symlink looked absent while linking over it failed (red team 14).
 */
function readKey(path: string): Buffer | undefined {
  let regular: boolean;
  try {
    regular = lstatSync(path).isFile();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  if (!regular) return notAKey(path);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (e) {
    // Removed, or replaced by a symlink, since the lstat above.
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP' || code === 'EMLINK') return notAKey(path);
    throw e;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size !== 32) return notAKey(path);
    const key = Buffer.alloc(32);
    return readSync(fd, key, 0, 32, 0) === 32 ? key : notAKey(path);
  } finally {
    closeSync(fd);
  }
}

function notAKey(path: string): never {
  throw new Error(
    `Key file ${path} is not a 32-byte key; move it aside to create a new one (stored secrets will need re-entry).`,
  );
}
