import { VaultInputError } from '../errors';
import { type Destination, scopeOf } from './destination';

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

/**
 * What the vault implementations keep: every secret under the destination it was entered for (destination.ts). A
 * lookup takes the destination it will be sent to, so a secret is never found for another one.
 */
export interface SecretStore {
  getCredential(to: Destination, name: CredentialName): Promise<string | undefined>;
  setCredential(to: Destination, name: CredentialName, value: string): Promise<void>;
  clearCredential(to: Destination, name: CredentialName): Promise<void>;
  credentialStatus(to: Destination): Promise<Record<CredentialName, CredentialState>>;
  getSessionToken(to: Destination, interviewId: string): Promise<string | undefined>;
  setSessionToken(to: Destination, interviewId: string, token: string): Promise<void>;
  /** Several at once (an imported list): stored in one write, and none of them if any is not a token. */
  setSessionTokens(to: Destination, tokens: readonly { interviewId: string; token: string }[]): Promise<void>;
  clearSessionToken(to: Destination, interviewId: string): Promise<void>;
  hasSessionToken(to: Destination, interviewId: string): Promise<boolean>;
  /**
   * Drops every secret of `to`'s scope that is bound elsewhere (an environment's old address): a changed destination
   * keeps nothing of the old one. How many of each kind were dropped.
   */
  forgetAllBut(to: Destination): Promise<Forgotten>;
  /** Binds the secrets an earlier version stored without a destination to `to` (the address they were used with). */
  adoptUnbound(to: Destination): Promise<void>;
  security(): StorageSecurity;
  acceptWeakStorage(): Promise<void>;
  /** every secret value currently held, for the redaction step */
  knownSecrets(): string[];
}

export interface Forgotten {
  credentials: number;
  sessionTokens: number;
}

/**
 * The vault as the app's services hold it (MainContext.vault): by environment id, each call bound to that
 * environment's destination at the time of the call (main/auth/environment-vault.ts). A test may pass a SecretStore,
 * whose destinations are strings too.
 */
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

export function checkValue(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new VaultInputError(field, 'empty');
  if (value !== value.trim()) throw new VaultInputError(field, 'spaces');
  return value;
}

export const credKey = (to: Destination, name: CredentialName) => `${to}\u0000cred\u0000${name}`;
export const sessionKey = (to: Destination, interviewId: string) => `${to}\u0000session\u0000${interviewId}`;

/**
 * What a stored key is, read back: its scope, and whether it is bound to `to`, bound elsewhere, or unbound (written
 * by an earlier version as `<scope>\0cred\0<name>`).
 */
export function keyBinding(
  key: string,
  to: Destination,
): { kind: 'cred' | 'session'; bound: 'here' | 'elsewhere' | 'unbound' } | undefined {
  const scope = scopeOf(to);
  if (!key.startsWith(`${scope}\u0000`)) return undefined;
  const rest = key.slice(scope.length + 1);
  if (rest.startsWith('cred\u0000')) return { kind: 'cred', bound: 'unbound' };
  if (rest.startsWith('session\u0000')) return { kind: 'session', bound: 'unbound' };
  if (!rest.startsWith('@')) return undefined;
  // `@<address>\0cred\0<name>` or `@<address>\0session\0<interview>`: the kind is the second part from the end.
  const parts = rest.split('\u0000');
  const kind = parts[parts.length - 2] === 'session' ? 'session' : 'cred';
  return { kind, bound: key.startsWith(`${to}\u0000`) ? 'here' : 'elsewhere' };
}

/** The key an unbound (earlier version's) key gets once bound to `to`. */
export const boundKey = (key: string, to: Destination) => `${to}${key.slice(key.indexOf('\u0000'))}`;
