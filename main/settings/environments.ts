import type { JsonStore } from '../json-store';
import type { EnvironmentConfig, EnvironmentService } from '../ports';
import { unknownEnvironment } from '../errors';
import type { EmbeddedDemo } from '../demo-server/embedded';

export const DEFAULT_API_VERSION = '1.0';
export const DEFAULT_TOKEN_HEADER = 'X-Incode-Hardware-Id';
const ENV_STORE_KEY = 'environments';
const ROOTS_STORE_KEY = 'trustedNom151Roots';

type EnvPatch = Partial<Omit<EnvironmentConfig, 'id' | 'kind'>>;
interface StoredEnvironments {
  activeId?: string;
  overrides?: Record<string, EnvPatch>;
}

export const BUILT_IN_ENVIRONMENTS: readonly EnvironmentConfig[] = [
  {
    id: 'demo',
    kind: 'demo',
    name: 'Demo',
    baseUrl: '',
    authUrl: '',
    apiVersion: DEFAULT_API_VERSION,
    tokenHeader: DEFAULT_TOKEN_HEADER,
  },
  {
    id: 'production',
    kind: 'production',
    name: 'Production',
    baseUrl: '',
    authUrl: '',
    apiVersion: DEFAULT_API_VERSION,
    tokenHeader: DEFAULT_TOKEN_HEADER,
  },
  {
    id: 'custom',
    kind: 'custom',
    name: 'Custom',
    baseUrl: '',
    authUrl: '',
    apiVersion: DEFAULT_API_VERSION,
    tokenHeader: DEFAULT_TOKEN_HEADER,
  },
];

/**
 * The built-in environments with the user's changes (kept in the store), which one is active, and each one's trusted
 * NOM-151 roots. The demo environment's address is wherever the embedded demo listens this run.
 */
export function environmentService(
  store: JsonStore,
  demo: EmbeddedDemo,
  forgetClient: (envId: string) => void,
): EnvironmentService & { activeId(): string } {
  const readStored = (): StoredEnvironments => store.get<StoredEnvironments>(ENV_STORE_KEY) ?? {};
  const list = (): EnvironmentConfig[] => {
    const overrides = readStored().overrides ?? {};
    return BUILT_IN_ENVIRONMENTS.map((env) => {
      const merged = { ...env, ...overrides[env.id], id: env.id, kind: env.kind };
      return env.kind === 'demo' ? { ...merged, baseUrl: demo.url() ?? '', authUrl: demo.url() ?? '' } : merged;
    });
  };
  const find = (id: string) => list().find((e) => e.id === id);
  const activeId = (): string => {
    const id = readStored().activeId;
    return id && find(id) ? id : 'demo';
  };

  return {
    list,
    activeId,
    active: () => find(activeId()) ?? list()[0]!,
    async setActive(id) {
      const env = find(id);
      if (!env) throw unknownEnvironment();
      if (env.kind === 'demo') await demo.ensure();
      store.set(ENV_STORE_KEY, { ...readStored(), activeId: id });
      // The demo service serves its credentials to whoever reaches it: it runs only while it is in use.
      if (env.kind !== 'demo') await demo.stop();
    },
    async update(id, patch) {
      const env = find(id);
      if (!env) throw unknownEnvironment();
      const stored = readStored();
      const clean: EnvPatch = {};
      for (const [k, v] of Object.entries(patch) as [keyof EnvPatch, string | undefined][])
        if (v !== undefined) clean[k] = v;
      if (env.kind === 'demo') {
        delete clean.baseUrl;
        delete clean.authUrl;
      }
      store.set(ENV_STORE_KEY, {
        ...stored,
        overrides: { ...stored.overrides, [id]: { ...stored.overrides?.[id], ...clean } },
      });
      forgetClient(id);
      return find(id)!;
    },
    async trustedNom151Roots(id) {
      return store.get<Record<string, string[]>>(ROOTS_STORE_KEY)?.[id] ?? [];
    },
    async addTrustedNom151Root(id, pem) {
      const all = store.get<Record<string, string[]>>(ROOTS_STORE_KEY) ?? {};
      const current = all[id] ?? [];
      if (!current.includes(pem)) store.set(ROOTS_STORE_KEY, { ...all, [id]: [...current, pem] });
    },
  };
}
