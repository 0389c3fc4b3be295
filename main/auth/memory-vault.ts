import { registerSecretSource } from '../log';
import {
  type CredentialName,
  CREDENTIAL_NAMES,
  type CredentialState,
  type Forgotten,
  type SecretStore,
  type StorageSecurity,
  checkValue,
  credKey,
  keyBinding,
  sessionKey,
} from './vault';
import type { Destination } from './destination';

/** Secrets held in process memory only (tests, and the fallback before consent). */
export class MemoryVault implements SecretStore {
  private readonly values = new Map<string, string>();

  constructor() {
    registerSecretSource(this);
  }

  async getCredential(to: Destination, name: CredentialName) {
    return this.values.get(credKey(to, name));
  }
  async setCredential(to: Destination, name: CredentialName, value: string) {
    this.values.set(credKey(to, name), checkValue(name, value));
  }
  async clearCredential(to: Destination, name: CredentialName) {
    this.values.delete(credKey(to, name));
  }
  async credentialStatus(to: Destination) {
    const status = {} as Record<CredentialName, CredentialState>;
    for (const name of CREDENTIAL_NAMES) status[name] = this.values.has(credKey(to, name)) ? 'set' : 'unset';
    return status;
  }
  async getSessionToken(to: Destination, interviewId: string) {
    return this.values.get(sessionKey(to, interviewId));
  }
  async setSessionToken(to: Destination, interviewId: string, token: string) {
    this.values.set(sessionKey(to, interviewId), checkValue('sessionToken', token));
  }
  async setSessionTokens(to: Destination, tokens: readonly { interviewId: string; token: string }[]) {
    for (const { token } of tokens) checkValue('sessionToken', token);
    for (const { interviewId, token } of tokens) this.values.set(sessionKey(to, interviewId), token);
  }
  async clearSessionToken(to: Destination, interviewId: string) {
    this.values.delete(sessionKey(to, interviewId));
  }
  async hasSessionToken(to: Destination, interviewId: string) {
    return this.values.has(sessionKey(to, interviewId));
  }
  async forgetAllBut(to: Destination): Promise<Forgotten> {
    const forgotten = { credentials: 0, sessionTokens: 0 };
    for (const key of [...this.values.keys()]) {
      const binding = keyBinding(key, to);
      if (!binding || binding.bound === 'here') continue;
      this.values.delete(key);
      if (binding.kind === 'cred') forgotten.credentials++;
      else forgotten.sessionTokens++;
    }
    return forgotten;
  }
  /** Nothing in memory was written by an earlier version. */
  async adoptUnbound() {}
  security(): StorageSecurity {
    return {
      backend: 'memory',
      persistent: false,
      awaitingConsent: false,
      reason: {
        en: 'Credentials are kept in memory only and are lost when the app closes.',
        es: 'Las credenciales se guardan solo en memoria y se pierden al cerrar la aplicación.',
      },
    };
  }
  async acceptWeakStorage() {}
  knownSecrets() {
    return [...this.values.values()];
  }
}
