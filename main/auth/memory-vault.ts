import { registerSecretSource } from '../log';
import {
  type CredentialName,
  CREDENTIAL_NAMES,
  type CredentialState,
  type StorageSecurity,
  type Vault,
  checkValue,
  credKey,
  sessionKey,
} from './vault';

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
