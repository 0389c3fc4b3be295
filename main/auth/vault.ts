import type { IpcErrorData } from '../../common/ipc/define';

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
      advice: {
        en: 'Enter the credential again in Settings.',
        es: 'Vuelve a capturar la credencial en Configuración.',
      },
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
    super(
      problem === 'empty'
        ? `${field} must be a non-empty string; use clear to remove it.`
        : `${field} has leading or trailing spaces; remove them.`,
    );
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
        ? {
            en: 'Paste the full value, or use Clear to remove it.',
            es: 'Pega el valor completo o usa Borrar para quitarlo.',
          }
        : { en: 'Remove the spaces and save again.', es: 'Quita los espacios y vuelve a guardar.' },
      retryable: false,
      issues: [{ path: this.field, message: empty ? 'empty' : 'leading or trailing spaces' }],
    };
  }
}

export function checkValue(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new VaultInputError(field, 'empty');
  if (value !== value.trim()) throw new VaultInputError(field, 'spaces');
  return value;
}

export const credKey = (envId: string, name: CredentialName) => `${envId}\u0000cred\u0000${name}`;
export const sessionKey = (envId: string, interviewId: string) => `${envId}\u0000session\u0000${interviewId}`;
