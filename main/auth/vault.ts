import { VaultInputError } from '../errors';

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

export function checkValue(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new VaultInputError(field, 'empty');
  if (value !== value.trim()) throw new VaultInputError(field, 'spaces');
  return value;
}

export const credKey = (envId: string, name: CredentialName) => `${envId}\u0000cred\u0000${name}`;
export const sessionKey = (envId: string, interviewId: string) => `${envId}\u0000session\u0000${interviewId}`;
