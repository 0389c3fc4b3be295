import type { Destination } from '../auth/destination';
import type { SecretStore } from '../auth/vault';
import { ReviewError, unknownEnvironment } from '../errors';
import type { OmniClient } from '../omni/client';
import type { CredentialService, EnvironmentConfig, StorageSecurityState } from '../ports';

/** Settings' write-only view of the vault: each credential's state, never its value, and a test of the connection. */
export function credentialService(opts: {
  vault: SecretStore;
  /** Where an environment's secrets go now: every read and write is bound to it. */
  destinationOf: (envId: string) => Destination;
  environments: { list(): EnvironmentConfig[]; activeId(): string };
  clientFor: (env: EnvironmentConfig) => OmniClient;
  /** New credentials must not keep using a token authorized with the old ones. */
  forgetClient: (envId: string) => void;
}): CredentialService {
  const { vault, forgetClient, destinationOf } = opts;
  return {
    async states(envId) {
      const status = await vault.credentialStatus(destinationOf(envId));
      const map = (s: string) =>
        (s === 'set' ? 'set' : s === 'undecryptable' ? 'unreadable' : 'unset') as 'set' | 'unset' | 'unreadable';
      return { apiKey: map(status.apiKey), integrationId: map(status.integrationId), secret: map(status.secret) };
    },
    async set(envId, field, value) {
      await vault.setCredential(destinationOf(envId), field, value);
      forgetClient(envId);
    },
    async clear(envId, field) {
      await vault.clearCredential(destinationOf(envId), field);
      forgetClient(envId);
    },
    async forgetElsewhere(envId) {
      const forgotten = await vault.forgetAllBut(destinationOf(envId));
      forgetClient(envId);
      return forgotten;
    },
    async testConnection(envId) {
      const env = opts.environments.list().find((e) => e.id === envId);
      if (!env) throw unknownEnvironment();
      if (env.kind === 'demo' && opts.environments.activeId() !== 'demo') throw demoNotActive();
      const { expiresAt } = await opts.clientFor(env).authorize();
      return { expiresAt: new Date(expiresAt) };
    },
    storageSecurity() {
      const s = vault.security();
      const state: StorageSecurityState =
        s.backend === 'keychain'
          ? 'keychain'
          : s.backend === 'memory'
            ? 'memory-only'
            : s.awaitingConsent
              ? 'weak-pending'
              : 'weak-accepted';
      return { state, ...(s.reason ? { reason: s.reason } : {}) };
    },
    acceptWeakStorage: () => vault.acceptWeakStorage(),
  };
}

function demoNotActive(): ReviewError {
  return new ReviewError(
    'DEMO_NOT_ACTIVE',
    {
      en: 'The demo service runs only while the demo environment is the active one.',
      es: 'El servicio de demostración solo se ejecuta mientras el ambiente de demostración es el activo.',
    },
    {
      en: 'Choose the demo environment in Settings, then test again.',
      es: 'Elige el ambiente de demostración en Configuración y vuelve a probar.',
    },
  );
}
