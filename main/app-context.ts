import { captureState } from './capture/state';
import { streamingFetch } from './capture/streaming-fetch';
import { demoRoutes } from './demo-server/client';
import { startDemoServer } from './demo-server/index';
import type { Vault } from './auth/vault';
import { openAuditTrail } from './audit-trail';
import type { JsonStore } from './json-store';
import type { CredentialField, CredentialService, EnvironmentConfig, EnvironmentService, FileService, MainContext, ShellService, StorageSecurityState } from './ports';
import { OmniShellError } from './errors';
import { log as defaultLog, type Logger } from './log';
import type { MediaStore } from './media/registry';
import { OmniClient } from './omni/client';
import { isPlainHttpToRemote } from '../common/ipc/settings';

/**
 * Builds the MainContext both shells share from the parts that differ per shell (store, vault, media URLs, files,
 * OS actions). Holds the environments, starts the embedded demo server when the demo environment is in use and
 * loads its credentials into the vault, so a first run works with no typing.
 */

export interface DemoHandle {
  url: string;
  close(): Promise<void>;
}

export interface AppContextOptions {
  shell: ShellService;
  store: JsonStore;
  /** The audit trail's file, beside the settings file (a trail still in the settings file is moved there). */
  auditPath: string;
  vault: Vault;
  media: MediaStore;
  files: FileService;
  /** Starts the embedded demo service; default: the demo server on 127.0.0.1, random port. */
  startDemo?: () => Promise<DemoHandle>;
  fetch?: typeof fetch;
  now?: () => number;
  log?: Logger;
}

export interface AppContextHandle {
  context: MainContext;
  /** URL of the embedded demo service once started. */
  demoUrl(): string | undefined;
  /** Removes what this run left in the temp dir (staged uploads, the demo server's recordings) and stops the demo server. */
  close(): Promise<void>;
}

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
  { id: 'demo', kind: 'demo', name: 'Demo', baseUrl: '', authUrl: '', apiVersion: DEFAULT_API_VERSION, tokenHeader: DEFAULT_TOKEN_HEADER },
  { id: 'production', kind: 'production', name: 'Production', baseUrl: '', authUrl: '', apiVersion: DEFAULT_API_VERSION, tokenHeader: DEFAULT_TOKEN_HEADER },
  { id: 'custom', kind: 'custom', name: 'Custom', baseUrl: '', authUrl: '', apiVersion: DEFAULT_API_VERSION, tokenHeader: DEFAULT_TOKEN_HEADER },
];

export async function createAppContext(opts: AppContextOptions): Promise<AppContextHandle> {
  const log = opts.log ?? defaultLog;
  const now = opts.now ?? Date.now;
  // streamingFetch: Node's fetch buffers streamed request bodies whole; video import needs backpressure.
  const fetchImpl = opts.fetch ?? streamingFetch();
  const startDemo = opts.startDemo ?? (() => startDemoServer({ port: 0 }));
  const { store, vault } = opts;

  let demo: DemoHandle | undefined;
  let demoStarting: Promise<DemoHandle> | undefined;
  const clients = new Map<string, { signature: string; client: OmniClient }>();

  const readStored = (): StoredEnvironments => store.get<StoredEnvironments>(ENV_STORE_KEY) ?? {};
  const list = (): EnvironmentConfig[] => {
    const overrides = readStored().overrides ?? {};
    return BUILT_IN_ENVIRONMENTS.map((env) => {
      const merged = { ...env, ...overrides[env.id], id: env.id, kind: env.kind };
      // The demo service lives inside the app: its address is wherever it listens this run.
      return env.kind === 'demo' ? { ...merged, baseUrl: demo?.url ?? '', authUrl: demo?.url ?? '' } : merged;
    });
  };
  const find = (id: string) => list().find((e) => e.id === id);

  /** Started at most once; its credentials go to the vault under the demo environment. */
  const ensureDemo = async (): Promise<DemoHandle> => {
    if (demo) return demo;
    demoStarting ??= (async () => {
      const started = await startDemo();
      try {
        const creds = (await demoRoutes(started.url, fetchImpl).credentials()) as Partial<Record<CredentialField, unknown>>;
        for (const field of ['apiKey', 'integrationId', 'secret'] as const) {
          const value = creds[field];
          if (typeof value === 'string' && value !== '') await vault.setCredential('demo', field, value);
        }
      } catch (error) {
        await started.close();
        throw error;
      }
      demo = started;
      log.debug('demo service started', { url: started.url });
      return started;
    })();
    try {
      return await demoStarting;
    } catch (error) {
      demoStarting = undefined;
      throw new OmniShellError(
        'DEMO_START_FAILED',
        { en: 'The built-in demo service could not start.', es: 'El servicio de demostración integrado no pudo iniciar.' },
        { en: 'Restart the app. If it keeps failing, choose another environment in Settings.', es: 'Reinicia la aplicación. Si sigue fallando, elige otro ambiente en Configuración.' },
        true,
      );
    }
  };

  const clientFor = (env: EnvironmentConfig): OmniClient => {
    const signature = JSON.stringify(env);
    const cached = clients.get(env.id);
    if (cached && cached.signature === signature) return cached.client;
    if (isPlainHttpToRemote(env.baseUrl) || isPlainHttpToRemote(env.authUrl)) throw insecureAddress();
    const client = new OmniClient({ env, vault, fetch: fetchImpl, now, logger: log });
    clients.set(env.id, { signature, client });
    return client;
  };
  const stopDemo = async () => {
    const running = demo;
    demo = undefined;
    demoStarting = undefined;
    forgetClient('demo');
    await running?.close();
  };
  /** New credentials must not keep using a token authorized with the old ones. */
  const forgetClient = (envId: string) => clients.delete(envId);

  const activeId = (): string => {
    const id = readStored().activeId;
    return id && find(id) ? id : 'demo';
  };

  const environments: EnvironmentService = {
    list,
    active: () => find(activeId()) ?? list()[0]!,
    async setActive(id) {
      const env = find(id);
      if (!env) throw unknownEnvironment(id);
      if (env.kind === 'demo') await ensureDemo();
      store.set(ENV_STORE_KEY, { ...readStored(), activeId: id });
      // The demo service serves its credentials to whoever reaches it: it runs only while it is in use.
      if (env.kind !== 'demo') await stopDemo();
    },
    async update(id, patch) {
      const env = find(id);
      if (!env) throw unknownEnvironment(id);
      const stored = readStored();
      const clean: EnvPatch = {};
      for (const [k, v] of Object.entries(patch) as [keyof EnvPatch, string | undefined][]) if (v !== undefined) clean[k] = v;
      if (env.kind === 'demo') {
        delete clean.baseUrl;
        delete clean.authUrl;
      }
      store.set(ENV_STORE_KEY, { ...stored, overrides: { ...stored.overrides, [id]: { ...stored.overrides?.[id], ...clean } } });
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

  const credentials: CredentialService = {
    async states(envId) {
      const status = await vault.credentialStatus(envId);
      const map = (s: string) => (s === 'set' ? 'set' : s === 'undecryptable' ? 'unreadable' : 'unset') as 'set' | 'unset' | 'unreadable';
      return { apiKey: map(status.apiKey), integrationId: map(status.integrationId), secret: map(status.secret) };
    },
    async set(envId, field, value) {
      await vault.setCredential(envId, field, value);
      forgetClient(envId);
    },
    async clear(envId, field) {
      await vault.clearCredential(envId, field);
      forgetClient(envId);
    },
    async testConnection(envId) {
      const env = find(envId);
      if (!env) throw unknownEnvironment(envId);
      if (env.kind === 'demo' && activeId() !== 'demo') throw demoNotActive();
      const { expiresAt } = await clientFor(find(envId)!).authorize();
      return { expiresAt: new Date(expiresAt) };
    },
    storageSecurity() {
      const s = vault.security();
      const state: StorageSecurityState =
        s.backend === 'keychain' ? 'keychain' : s.backend === 'memory' ? 'memory-only' : s.awaitingConsent ? 'weak-pending' : 'weak-accepted';
      return { state, ...(s.reason ? { reason: s.reason } : {}) };
    },
    acceptWeakStorage: () => vault.acceptWeakStorage(),
  };

  if (activeId() === 'demo') await ensureDemo();

  const context: MainContext = {
    omni: () => clientFor(environments.active()),
    vault,
    environments,
    store,
    media: opts.media,
    files: opts.files,
    audit: openAuditTrail({ path: opts.auditPath, legacyStore: store, environment: () => activeId(), now, log }),
    credentials,
    shell: opts.shell,
  };

  return {
    context,
    demoUrl: () => demo?.url,
    async close() {
      clients.clear();
      await captureState(context).staged.releaseAll();
      await demo?.close();
      demo = undefined;
    },
  };
}

function insecureAddress(): OmniShellError {
  return new OmniShellError(
    'INSECURE_ADDRESS',
    { en: 'This environment’s address uses plain http to another machine, so the credentials would travel unencrypted.', es: 'La dirección de este ambiente usa http sin cifrar hacia otra máquina, así que las credenciales viajarían sin cifrar.' },
    { en: 'Change the base and authorization URLs in Settings to https://.', es: 'Cambia la URL base y la de autorización a https:// en Configuración.' },
  );
}

function demoNotActive(): OmniShellError {
  return new OmniShellError(
    'DEMO_NOT_ACTIVE',
    { en: 'The demo service runs only while the demo environment is the active one.', es: 'El servicio de demostración solo se ejecuta mientras el ambiente de demostración es el activo.' },
    { en: 'Choose the demo environment in Settings, then test again.', es: 'Elige el ambiente de demostración en Configuración y vuelve a probar.' },
  );
}

function unknownEnvironment(id: string): OmniShellError {
  return new OmniShellError('UNKNOWN_ENVIRONMENT', { en: `There is no environment "${id}".`, es: `No existe el ambiente "${id}".` });
}
