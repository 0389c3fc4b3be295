import type { Destination } from './destination';
import type { SecretStore, Vault } from './vault';

/**
 * The vault by environment id, as the app's services hold it: each call is bound to where that environment points
 * now, so a token attached after an address changed is bound to the new one, and one attached before is not found.
 */
export function environmentVault(store: SecretStore, destinationOf: (envId: string) => Destination): Vault {
  return {
    getCredential: (envId, name) => store.getCredential(destinationOf(envId), name),
    setCredential: (envId, name, value) => store.setCredential(destinationOf(envId), name, value),
    clearCredential: (envId, name) => store.clearCredential(destinationOf(envId), name),
    credentialStatus: (envId) => store.credentialStatus(destinationOf(envId)),
    getSessionToken: (envId, id) => store.getSessionToken(destinationOf(envId), id),
    setSessionToken: (envId, id, token) => store.setSessionToken(destinationOf(envId), id, token),
    setSessionTokens: (envId, tokens) => store.setSessionTokens(destinationOf(envId), tokens),
    clearSessionToken: (envId, id) => store.clearSessionToken(destinationOf(envId), id),
    hasSessionToken: (envId, id) => store.hasSessionToken(destinationOf(envId), id),
    security: () => store.security(),
    acceptWeakStorage: () => store.acceptWeakStorage(),
    knownSecrets: () => store.knownSecrets(),
  };
}
