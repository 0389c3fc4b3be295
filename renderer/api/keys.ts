/**
 * The one query-key factory. Every React Query key of the app comes from here so invalidation stays exact:
 * one block per area, keys as arrays from general to specific (invalidating `keys.interview.all(id)` refreshes
 * every panel of that interview). Switching environment resets every query (see useSwitchEnvironment), so keys
 * need not carry the environment. Feature helpers: add your block below, nothing else.
 */
export const keys = {
  app: {
    info: () => ['app', 'info'] as const,
  },
  settings: {
    all: () => ['settings'] as const,
    environments: () => ['settings', 'environments'] as const,
    storageSecurity: () => ['settings', 'storageSecurity'] as const,
    preferences: () => ['settings', 'preferences'] as const,
  },
  interview: {
    all: (id: string) => ['interview', id] as const,
  },
  nom151: {
    trustedRoots: () => ['nom151', 'trustedRoots'] as const,
  },
};
