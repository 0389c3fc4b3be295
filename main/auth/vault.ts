import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { IpcErrorData } from '../../common/ipc/define';
import type { Frozen, JsonStore } from '../json-store';
import { registerSecretSource } from '../log';

export type CredentialName = 'apiKey' | 'integrationId' | 'secret';
export const CREDENTIAL_NAMES: readonly CredentialName[] = ['apiKey', 'integrationId', 'secret'];
export type CredentialState = 'set' | 'unset' | 'undecryptable';

export interface StorageSecurity {
  backend: 'keychain' | 'basic_text' | 'memory';
  /** Whether secrets survive a restart. */
  persistent: boolean;
  /** Secrets are held in memory only until the user accepts the weaker storage. */
  awaitingConsent: boolean;
  reason?: { en: string; es: string };
}

export interface Vault {
  getCredential(envId: string, name: CredentialName): Promise<string | undefined>;
  setCredential(envId: string, name: CredentialName, value: string): Promise<void>;
  clearCredential(envId: string, name: CredentialName): Promise<void>;
  credentialStatus(envId: string): Promise<Record<CredentialName, CredentialState>>;
  getSessionToken(envId: string, interviewId: string): Promise<string | undefined>;
  setSessionToken(envId: string, interviewId: string, token: string): Promise<void>;
  /** Several at once (an imported list): stored in one write, and none of them if any is not a token. */
  setSessionTokens(envId: string, tokens: readonly { interviewId: string; token: string }[]): Promise<void>;
  clearSessionToken(envId: string, interviewId: string): Promise<void>;
  hasSessionToken(envId: string, interviewId: string): Promise<boolean>;
  security(): StorageSecurity;
  acceptWeakStorage(): Promise<void>;
  /** every secret value currently held, for the redaction step */
  knownSecrets(): string[];
}

/** The shape of Electron's `safeStorage`; injected so this file never imports Electron. */
export interface SecretCipher {
  isEncryptionAvailable(): boolean;
  encryptString(s: string): Buffer;
  decryptString(b: Buffer): string;
  getSelectedStorageBackend?(): string;
}

/** A stored value exists but cannot be decrypted (key store changed, file tampered, unknown format). */
export class VaultDecryptError extends Error {
  readonly code = 'CREDENTIAL_UNDECRYPTABLE';
  constructor(
    readonly envId: string,
    readonly item: string,
  ) {
    super(`Stored ${item} of environment "${envId}" cannot be decrypted; enter it again.`);
    this.name = 'VaultDecryptError';
  }

  toIpcError(): IpcErrorData {
    return {
      code: this.code,
      message: {
        en: "A stored credential can no longer be decrypted (the system's key store changed).",
        es: 'Una credencial guardada ya no se puede descifrar (cambió el almacén de claves del sistema).',
      },
      advice: { en: 'Enter the credential again in Settings.', es: 'Vuelve a capturar la credencial en Configuración.' },
      retryable: false,
      details: { environment: this.envId },
    };
  }
}

/** Empty values or stray spaces are refused where they enter: clearing is explicit. Never quotes the value. */
export class VaultInputError extends Error {
  constructor(
    readonly field: string,
    readonly problem: 'empty' | 'spaces',
  ) {
    super(problem === 'empty' ? `${field} must be a non-empty string; use clear to remove it.` : `${field} has leading or trailing spaces; remove them.`);
    this.name = 'VaultInputError';
  }

  toIpcError(): IpcErrorData {
    const empty = this.problem === 'empty';
    return {
      code: 'INVALID_INPUT',
      message: empty
        ? { en: 'The value is empty.', es: 'El valor está vacío.' }
        : { en: 'The value has spaces at the start or end.', es: 'El valor tiene espacios al inicio o al final.' },
      advice: empty
        ? { en: 'Paste the full value, or use Clear to remove it.', es: 'Pega el valor completo o usa Borrar para quitarlo.' }
        : { en: 'Remove the spaces and save again.', es: 'Quita los espacios y vuelve a guardar.' },
      retryable: false,
      issues: [{ path: this.field, message: empty ? 'empty' : 'leading or trailing spaces' }],
    };
  }
}

function checkValue(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new VaultInputError(field, 'empty');
  if (value !== value.trim()) throw new VaultInputError(field, 'spaces');
  return value;
}

const credKey = (envId: string, name: CredentialName) => `${envId}\u0000cred\u0000${name}`;
const sessionKey = (envId: string, interviewId: string) => `${envId}\u0000session\u0000${interviewId}`;

/** Secrets held in process memory only (tests, and the fallback before consent). */
export class MemoryVault implements Vault {
  private readonly values = new Map<string, string>();

  constructor() {
    registerSecretSource(this);
  }

  async getCredential(envId: string, name: CredentialName) {
    return this.values.get(credKey(envId, name));
  }
  async setCredential(envId: string, name: CredentialName, value: string) {
    this.values.set(credKey(envId, name), checkValue(name, value));
  }
  async clearCredential(envId: string, name: CredentialName) {
    this.values.delete(credKey(envId, name));
  }
  async credentialStatus(envId: string) {
    const status = {} as Record<CredentialName, CredentialState>;
    for (const name of CREDENTIAL_NAMES) status[name] = this.values.has(credKey(envId, name)) ? 'set' : 'unset';
    return status;
  }
  async getSessionToken(envId: string, interviewId: string) {
    return this.values.get(sessionKey(envId, interviewId));
  }
  async setSessionToken(envId: string, interviewId: string, token: string) {
    this.values.set(sessionKey(envId, interviewId), checkValue('sessionToken', token));
  }
  async setSessionTokens(envId: string, tokens: readonly { interviewId: string; token: string }[]) {
    for (const { token } of tokens) checkValue('sessionToken', token);
    for (const { interviewId, token } of tokens) this.values.set(sessionKey(envId, interviewId), token);
  }
  async clearSessionToken(envId: string, interviewId: string) {
    this.values.delete(sessionKey(envId, interviewId));
  }
  async hasSessionToken(envId: string, interviewId: string) {
    return this.values.has(sessionKey(envId, interviewId));
  }
  security(): StorageSecurity {
    return {
      backend: 'memory',
      persistent: false,
      awaitingConsent: false,
      reason: { en: 'Credentials are kept in memory only and are lost when the app closes.', es: 'Las credenciales se guardan solo en memoria y se pierden al cerrar la aplicación.' },
    };
  }
  async acceptWeakStorage() {}
  knownSecrets() {
    return [...this.values.values()];
  }
}

/** Versioned ciphertext: `v1:` + base64 of the cipher's output. A future format gets a new prefix. */
const CIPHERTEXT_PREFIX = 'v1:';
const STORE_KEY = 'credentialVault';

interface StoredVault {
  /** The user accepted persisting with a weak (basic_text) backend. */
  weakStorageAccepted?: boolean;
  /** composite key → versioned ciphertext */
  items: Record<string, string>;
}

const WEAK_REASON = {
  en: 'This system has no secret store (keyring), so credentials could only be saved with weak, plain-text-equivalent encryption. They are kept in memory until you accept that; otherwise they are lost when the app closes.',
  es: 'Este sistema no tiene un almacén de secretos (llavero), así que las credenciales solo se podrían guardar con un cifrado débil, casi equivalente a texto plano. Se mantienen en memoria hasta que lo aceptes; si no, se pierden al cerrar la aplicación.',
};
const UNAVAILABLE_REASON = {
  en: 'Encryption is not available on this system, so credentials are kept in memory only and are lost when the app closes.',
  es: 'El cifrado no está disponible en este sistema, así que las credenciales se guardan solo en memoria y se pierden al cerrar la aplicación.',
};

/**
 * Each value encrypted with the cipher (Electron's `safeStorage` in the app) and stored in a JsonStore
 * (electron-store). With a weak backend it never persists silently: values stay in memory until the user
 * accepts the weaker storage. Without encryption at all it never persists. The backend is asked on every use,
 * because Electron only knows it after `ready`; values set before that are written once it becomes persistent.
 */
export class EncryptedVault implements Vault {
  /** Decrypted values held now: the cache of reads and, before consent, the only copy. */
  private readonly plain = new Map<string, string>();
  /** Keys whose stored value failed to decrypt, so status reports it without decrypting again. */
  private readonly broken = new Set<string>();
  /** Keys set while nothing could be persisted; written as soon as storage allows. */
  private readonly pending = new Set<string>();

  constructor(
    private readonly cipher: SecretCipher,
    private readonly store: JsonStore,
  ) {
    registerSecretSource(this);
  }

  private get backend(): StorageSecurity['backend'] {
    if (!safeCall(() => this.cipher.isEncryptionAvailable(), false)) return 'memory';
    return safeCall(() => this.cipher.getSelectedStorageBackend?.(), undefined) === 'basic_text' ? 'basic_text' : 'keychain';
  }

  security(): StorageSecurity {
    if (this.backend === 'keychain') return { backend: 'keychain', persistent: true, awaitingConsent: false };
    if (this.backend === 'memory') return { backend: 'memory', persistent: false, awaitingConsent: false, reason: UNAVAILABLE_REASON };
    const accepted = this.read().weakStorageAccepted === true;
    return { backend: 'basic_text', persistent: accepted, awaitingConsent: !accepted, reason: WEAK_REASON };
  }

  async acceptWeakStorage(): Promise<void> {
    if (this.backend !== 'basic_text') return;
    const stored = this.read();
    stored.weakStorageAccepted = true;
    this.write(stored);
    // Whatever was held in memory while waiting for consent is persisted now.
    this.flushPending();
  }

  async getCredential(envId: string, name: CredentialName) {
    return this.get(credKey(envId, name), envId, name);
  }
  async setCredential(envId: string, name: CredentialName, value: string) {
    this.put(credKey(envId, name), checkValue(name, value));
  }
  async clearCredential(envId: string, name: CredentialName) {
    this.remove(credKey(envId, name));
  }
  async credentialStatus(envId: string) {
    const status = {} as Record<CredentialName, CredentialState>;
    for (const name of CREDENTIAL_NAMES) {
      try {
        status[name] = (await this.getCredential(envId, name)) === undefined ? 'unset' : 'set';
      } catch (e) {
        if (!(e instanceof VaultDecryptError)) throw e;
        status[name] = 'undecryptable';
      }
    }
    return status;
  }
  async getSessionToken(envId: string, interviewId: string) {
    return this.get(sessionKey(envId, interviewId), envId, `session token of interview ${interviewId}`);
  }
  async setSessionToken(envId: string, interviewId: string, token: string) {
    this.put(sessionKey(envId, interviewId), checkValue('sessionToken', token));
  }
  async setSessionTokens(envId: string, tokens: readonly { interviewId: string; token: string }[]) {
    for (const { token } of tokens) checkValue('sessionToken', token);
    for (const { interviewId, token } of tokens) this.hold(sessionKey(envId, interviewId), token);
    this.flushPending();
  }
  async clearSessionToken(envId: string, interviewId: string) {
    this.remove(sessionKey(envId, interviewId));
  }
  async hasSessionToken(envId: string, interviewId: string) {
    const key = sessionKey(envId, interviewId);
    // Asked once per queue entry when the queue is listed: a lookup, not a copy of every stored value.
    return this.plain.has(key) || typeof this.storedItems()[key] === 'string';
  }

  knownSecrets() {
    return [...this.plain.values()];
  }

  private get persists() {
    return this.backend === 'keychain' || (this.backend === 'basic_text' && this.store.peek<Partial<StoredVault>>(STORE_KEY)?.weakStorageAccepted === true);
  }

  private get(key: string, envId: string, item: string): string | undefined {
    if (this.pending.size) this.flushPending();
    const cached = this.plain.get(key);
    if (cached !== undefined) return cached;
    if (this.broken.has(key)) throw new VaultDecryptError(envId, item);
    const stored = this.storedItems()[key];
    if (typeof stored !== 'string') return undefined;
    const value = this.decrypt(stored);
    if (value === undefined) {
      // Without encryption (yet) nothing decrypts; only a real failure is remembered.
      if (this.backend !== 'memory') this.broken.add(key);
      throw new VaultDecryptError(envId, item);
    }
    this.plain.set(key, value);
    return value;
  }

  private put(key: string, value: string) {
    this.hold(key, value);
    this.flushPending();
  }

  /** Held in memory, to be written by the next flushPending. */
  private hold(key: string, value: string) {
    this.plain.set(key, value);
    this.broken.delete(key);
    this.pending.add(key);
  }

  private flushPending() {
    if (this.pending.size === 0 || !this.persists) return;
    const stored = this.read();
    for (const key of this.pending) {
      const value = this.plain.get(key);
      if (value !== undefined) stored.items[key] = this.encrypt(value);
    }
    this.write(stored);
    this.pending.clear();
  }

  private remove(key: string) {
    this.plain.delete(key);
    this.broken.delete(key);
    this.pending.delete(key);
    const stored = this.read();
    if (stored.items[key] === undefined) return;
    delete stored.items[key];
    this.write(stored);
  }

  private encrypt(value: string): string {
    return CIPHERTEXT_PREFIX + this.cipher.encryptString(value).toString('base64');
  }

  /** undefined when the value cannot be decrypted: unknown version, bad base64, or a cipher failure. */
  private decrypt(stored: string): string | undefined {
    if (!stored.startsWith(CIPHERTEXT_PREFIX)) return undefined;
    const body = stored.slice(CIPHERTEXT_PREFIX.length);
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return undefined;
    try {
      const value = this.cipher.decryptString(Buffer.from(body, 'base64'));
      return typeof value === 'string' && value !== '' ? value : undefined;
    } catch {
      return undefined;
    }
  }

  /** The stored (encrypted) values as they are, without a copy: for lookups. */
  private storedItems(): Frozen<Record<string, unknown>> {
    const items = this.store.peek<Partial<StoredVault>>(STORE_KEY)?.items;
    return typeof items === 'object' && items !== null ? items : {};
  }

  private read(): StoredVault {
    const raw = this.store.get<unknown>(STORE_KEY);
    if (typeof raw !== 'object' || raw === null) return { items: {} };
    const r = raw as Partial<StoredVault>;
    const items: Record<string, string> = {};
    if (typeof r.items === 'object' && r.items !== null) {
      for (const [k, v] of Object.entries(r.items)) if (typeof v === 'string') items[k] = v;
    }
    return { weakStorageAccepted: r.weakStorageAccepted === true, items };
  }

  private write(stored: StoredVault) {
    this.store.set(STORE_KEY, stored);
  }
}

function safeCall<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

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

function loadOrCreateKey(path: string): Buffer {
  try {
    const existing = readFileSync(path);
    if (existing.length === 32) return existing;
    throw new Error(`Key file ${path} is not a 32-byte key; move it aside to create a new one (stored secrets will need re-entry).`);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  try {
    writeFileSync(path, key, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    // Another process created it first: use theirs, so both agree on one key.
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateKey(path);
    throw e;
  }
  chmodSync(path, 0o600);
  return key;
}
