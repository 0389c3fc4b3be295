import type { Frozen, JsonStore } from '../json-store';
import { VaultDecryptError } from '../errors';
import { registerSecretSource } from '../log';
import {
  type CredentialName,
  CREDENTIAL_NAMES,
  type CredentialState,
  type Forgotten,
  type SecretStore,
  type StorageSecurity,
  type SecretCipher,
  boundKey,
  checkValue,
  credKey,
  keyBinding,
  sessionKey,
} from './vault';
import { type Destination, scopeOf } from './destination';

/**
 * Versioned ciphertext: `v2:` + base64 of the cipher's output over `[key, value]`, so a value decrypts only under the
 * key it was stored under: the key names where it may be sent, and copying a ciphertext to another key in the settings
 * file (an address of the writer's own) no longer moves the secret there (red team 11). `v1:` (the value alone) was
 * written by earlier versions: read until the file's first upgrade binds each to the key it stands under, refused
 * after.
 *
 * The `bound` marker lives in the file its writer may edit, so `v1:` values can be read again by deleting it. A `v2:`
 * ciphertext relabelled `v1:` then read as its whole plaintext, `[<key>, <secret>]`, and that went wherever the key the
 * editor chose pointed (red team 14); so a `v1:` plaintext is taken only when it is a value the app could have stored
 * (earlierValue): never a JSON array. What remains: a genuine `v1:` ciphertext of an earlier version (from a backup
 * made before the upgrade, say), planted under an address of the editor's own with the marker deleted, decrypts there.
 * Only dropping `v1:` altogether closes that; until then a restored old backup has to be readable.
 */
const CIPHERTEXT_PREFIX = 'v2:';
const UNBOUND_CIPHERTEXT_PREFIX = 'v1:';
const STORE_KEY = 'credentialVault';

interface StoredVault {
  /** The user accepted persisting with a weak (basic_text) backend. */
  weakStorageAccepted?: boolean;
  /** Every `v1:` value was bound to its key (written `v2:`); `v1:` values are refused from then on. */
  bound?: boolean;
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
export class EncryptedVault implements SecretStore {
  /** Decrypted values held now: the cache of reads and, before consent, the only copy. */
  private readonly plain = new Map<string, string>();
  /** Keys whose stored value failed to decrypt, so status reports it without decrypting again. */
  private readonly broken = new Set<string>();
  /** Keys set while nothing could be persisted; written as soon as storage allows. */
  private readonly pending = new Set<string>();
  /** Earlier versions' values were bound (or tried: once a start, see bindEarlierValues). */
  private earlierValuesTried = false;

  constructor(
    private readonly cipher: SecretCipher,
    private readonly store: JsonStore,
  ) {
    registerSecretSource(this);
  }

  private get backend(): StorageSecurity['backend'] {
    if (!safeCall(() => this.cipher.isEncryptionAvailable(), false)) return 'memory';
    return safeCall(() => this.cipher.getSelectedStorageBackend?.(), undefined) === 'basic_text'
      ? 'basic_text'
      : 'keychain';
  }

  security(): StorageSecurity {
    if (this.backend === 'keychain') return { backend: 'keychain', persistent: true, awaitingConsent: false };
    if (this.backend === 'memory')
      return { backend: 'memory', persistent: false, awaitingConsent: false, reason: UNAVAILABLE_REASON };
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

  async getCredential(to: Destination, name: CredentialName) {
    return this.get(credKey(to, name), to, name);
  }
  async setCredential(to: Destination, name: CredentialName, value: string) {
    this.put(credKey(to, name), checkValue(name, value));
  }
  async clearCredential(to: Destination, name: CredentialName) {
    this.remove(credKey(to, name));
  }
  async credentialStatus(to: Destination) {
    const status = {} as Record<CredentialName, CredentialState>;
    for (const name of CREDENTIAL_NAMES) {
      try {
        status[name] = (await this.getCredential(to, name)) === undefined ? 'unset' : 'set';
      } catch (e) {
        if (!(e instanceof VaultDecryptError)) throw e;
        status[name] = 'undecryptable';
      }
    }
    return status;
  }
  async getSessionToken(to: Destination, interviewId: string) {
    return this.get(sessionKey(to, interviewId), to, `session token of interview ${interviewId}`);
  }
  async setSessionToken(to: Destination, interviewId: string, token: string) {
    this.put(sessionKey(to, interviewId), checkValue('sessionToken', token));
  }
  async setSessionTokens(to: Destination, tokens: readonly { interviewId: string; token: string }[]) {
    for (const { token } of tokens) checkValue('sessionToken', token);
    for (const { interviewId, token } of tokens) this.hold(sessionKey(to, interviewId), token);
    this.flushPending();
  }
  async clearSessionToken(to: Destination, interviewId: string) {
    this.remove(sessionKey(to, interviewId));
  }
  async hasSessionToken(to: Destination, interviewId: string) {
    const key = sessionKey(to, interviewId);
    // Asked once per queue entry when the queue is listed: a lookup, not a copy of every stored value.
    return this.plain.has(key) || typeof this.storedItems()[key] === 'string';
  }

  async forgetAllBut(to: Destination): Promise<Forgotten> {
    const forgotten = { credentials: 0, sessionTokens: 0 };
    const stored = this.read();
    let changed = false;
    for (const key of new Set([...Object.keys(stored.items), ...this.plain.keys(), ...this.pending])) {
      const binding = keyBinding(key, to);
      if (!binding || binding.bound === 'here') continue;
      this.plain.delete(key);
      this.broken.delete(key);
      this.pending.delete(key);
      if (stored.items[key] !== undefined) {
        delete stored.items[key];
        changed = true;
      }
      if (binding.kind === 'cred') forgotten.credentials++;
      else forgotten.sessionTokens++;
    }
    if (changed) this.write(stored);
    return forgotten;
  }

  async adoptUnbound(to: Destination): Promise<void> {
    // A value is encrypted again under its new key: a ciphertext copied under an unbound key names the key it came
    // from, and does not decrypt there or under the new key.
    if (this.backend === 'memory') return;
    this.bindEarlierValues();
    const stored = this.read();
    let changed = false;
    for (const [key, ciphertext] of Object.entries(stored.items)) {
      if (keyBinding(key, to)?.bound !== 'unbound') continue;
      const bound = boundKey(key, to);
      const value = this.decrypt(ciphertext, key, stored);
      // One already bound here wins over the earlier version's. One that does not decrypt moves as it is: still
      // undecryptable under its new key, and reported so until entered again.
      if (stored.items[bound] === undefined)
        stored.items[bound] = value === undefined ? ciphertext : this.encrypt(bound, value);
      delete stored.items[key];
      changed = true;
    }
    if (changed) this.write(stored);
  }

  knownSecrets() {
    return [...this.plain.values()];
  }

  private get persists() {
    return (
      this.backend === 'keychain' ||
      (this.backend === 'basic_text' && this.store.peek<Partial<StoredVault>>(STORE_KEY)?.weakStorageAccepted === true)
    );
  }

  private get(key: string, to: Destination, item: string): string | undefined {
    if (this.pending.size) this.flushPending();
    const cached = this.plain.get(key);
    if (cached !== undefined) return cached;
    if (this.broken.has(key)) throw new VaultDecryptError(scopeOf(to), item);
    if (typeof this.storedItems()[key] !== 'string') return undefined;
    this.bindEarlierValues();
    // What is stored now: binding may have written it again, and marked the file so that what was read before (a
    // `v1:` value) no longer decrypts.
    const stored = this.read();
    const ciphertext = stored.items[key];
    if (ciphertext === undefined) return undefined;
    const value = this.decrypt(ciphertext, key, stored);
    if (value === undefined) {
      // Without encryption (yet) nothing decrypts; only a real failure is remembered.
      if (this.backend !== 'memory') this.broken.add(key);
      throw new VaultDecryptError(scopeOf(to), item);
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
      if (value !== undefined) stored.items[key] = this.encrypt(key, value);
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

  private encrypt(key: string, value: string): string {
    return CIPHERTEXT_PREFIX + this.cipher.encryptString(JSON.stringify([key, value])).toString('base64');
  }

  /**
   * The value stored under `key`; undefined when it cannot be decrypted (unknown version, bad base64, a cipher
   * failure), was stored under another key, or is an earlier version's once the file's values were bound (or is not
   * a value the app could have stored: see earlierValue).
   */
  private decrypt(ciphertext: string, key: string, stored: StoredVault): string | undefined {
    return this.open(ciphertext, key, stored).value;
  }

  /**
   * decrypt, saying why not: `later` when another start may decrypt it (the cipher failed: another keyring backend
   * this time, say), not when it never will (malformed, refused, stored under another key).
   */
  private open(ciphertext: string, key: string, stored: StoredVault): Opened {
    const unbound = ciphertext.startsWith(UNBOUND_CIPHERTEXT_PREFIX);
    if (!unbound && !ciphertext.startsWith(CIPHERTEXT_PREFIX)) return NEVER;
    if (unbound && stored.bound) return NEVER;
    const body = ciphertext.slice(CIPHERTEXT_PREFIX.length);
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return NEVER;
    let plain: unknown;
    try {
      plain = this.cipher.decryptString(Buffer.from(body, 'base64'));
    } catch {
      return LATER;
    }
    if (typeof plain !== 'string') return LATER;
    if (unbound) return earlierValue(plain);
    const value = boundValue(plain, key);
    return value !== undefined && value !== '' ? { value } : NEVER;
  }

  /**
   * Where values can be written, once a start: each earlier version's `v1:` value is written again bound to the key
   * it stands under, and once none is left the file is marked so that a `v1:` value is refused from then on (one
   * copied from elsewhere included). One the cipher fails on stays `v1:` and unmarked, to be tried at the next start:
   * marked anyway, a start with another keyring backend lost such values for good (red team 14).
   */
  private bindEarlierValues() {
    if (this.earlierValuesTried || !this.persists) return;
    this.earlierValuesTried = true;
    const stored = this.read();
    if (stored.bound) return;
    let changed = false;
    let left = false;
    for (const [key, ciphertext] of Object.entries(stored.items)) {
      if (!ciphertext.startsWith(UNBOUND_CIPHERTEXT_PREFIX)) continue;
      const opened = this.open(ciphertext, key, stored);
      if (opened.value !== undefined) {
        stored.items[key] = this.encrypt(key, opened.value);
        changed = true;
      } else if (opened.later) left = true;
      // One that never decrypts stays, reported as undecryptable until entered again.
    }
    if (!left) stored.bound = true;
    if (changed || !left) this.write(stored);
  }

  /** A file holding no earlier version's value is marked bound as it is written (see bindEarlierValues). */
  private markIfBound(stored: StoredVault) {
    if (!stored.bound && Object.values(stored.items).every((c) => !c.startsWith(UNBOUND_CIPHERTEXT_PREFIX)))
      stored.bound = true;
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
    return { weakStorageAccepted: r.weakStorageAccepted === true, ...(r.bound === true ? { bound: true } : {}), items };
  }

  private write(stored: StoredVault) {
    this.markIfBound(stored);
    this.store.set(STORE_KEY, stored);
  }
}

type Opened = { value: string; later?: undefined } | { value?: undefined; later: boolean };
const NEVER: Opened = { later: false };
const LATER: Opened = { later: true };

/** The value of a `[key, value]` plaintext, or undefined when it was stored under another key. */
function boundValue(plain: string, key: string): string | undefined {
  const parsed = parseJson(plain);
  return Array.isArray(parsed) && parsed.length === 2 && parsed[0] === key && typeof parsed[1] === 'string'
    ? parsed[1]
    : undefined;
}

/**
 * An earlier version's plaintext (`v1:`, the value alone), taken only when it is a value the app could have stored:
 * every version checked each value with checkValue (not empty, no spaces around it), and none was a JSON array. A
 * JSON array, or what begins or ends like one of two strings, is a `v2:` plaintext, `["<key>","<value>"]`, relabelled
 * (red team 14), whole or cut short: refused for good. Control characters or U+FFFD (bytes that are no UTF-8) no
 * input let through: a cipher that "succeeded" with the wrong key, so another start may read it.
 */
function earlierValue(plain: string): Opened {
  if (plain.startsWith('["') || plain.endsWith('"]') || Array.isArray(parseJson(plain))) return NEVER;
  try {
    checkValue('value', plain);
  } catch {
    return LATER;
  }
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f\ufffd]/.test(plain) ? LATER : { value: plain };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function safeCall<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}
