import type {
  ConnectionTestView,
  EnvironmentView,
  EnvironmentsView,
  PreferencesView,
  RecordEngineKind,
  TeamDatabaseInput,
  TeamDatabaseView,
} from '../../common/ipc/settings';
import type { CredentialField, EnvironmentConfig, MainContext } from '../ports';
import { BUILT_IN_ENVIRONMENTS } from './environments';
import { ReviewError, unknownEnvironment } from '../errors';
import { resetDemoData } from './demo-data';
import { teamDatabaseSettings } from './team-database';

/**
 * Settings as a domain service: environments, their credentials, the connection test and preferences. The IPC
 * handler only adapts to it, so these rules are tested without any transport.
 */
export type SettingsContext = Pick<
  MainContext,
  'environments' | 'credentials' | 'store' | 'vault' | 'secrets' | 'record'
>;
export type EnvironmentPatch = Partial<
  Pick<EnvironmentConfig, 'name' | 'baseUrl' | 'authUrl' | 'apiVersion' | 'tokenHeader'>
>;

const PREFERENCES_KEY = 'preferences';
const DEFAULT_PREFERENCES: PreferencesView = {
  language: null,
  theme: 'system',
  afterDecision: 'stay',
  technicalDetails: false,
};

export function settingsService(ctx: SettingsContext) {
  const team = teamDatabaseSettings({ store: ctx.store, vault: ctx.secrets });
  const view = async (env: EnvironmentConfig): Promise<EnvironmentView> => {
    const builtIn = BUILT_IN_ENVIRONMENTS.find((b) => b.id === env.id);
    return { ...env, named: env.name !== builtIn?.name, credentials: await ctx.credentials.states(env.id) };
  };

  const environmentsView = async (): Promise<EnvironmentsView> => {
    const environments = await Promise.all(ctx.environments.list().map(view));
    return { activeId: ctx.environments.active().id, environments };
  };

  const requireEnvironment = (id: string): EnvironmentConfig => {
    const env = ctx.environments.list().find((e) => e.id === id);
    if (!env) throw unknownEnvironment();
    return env;
  };

  const preferences = (): PreferencesView => {
    const stored = ctx.store.get<Partial<PreferencesView>>(PREFERENCES_KEY);
    // A file written before a preference existed lacks it; one edited by hand may hold anything: only `true` is on.
    return { ...DEFAULT_PREFERENCES, ...stored, technicalDetails: stored?.technicalDetails === true };
  };

  return {
    environments: environmentsView,
    async setActiveEnvironment(id: string): Promise<EnvironmentsView> {
      requireEnvironment(id);
      await ctx.environments.setActive(id);
      return environmentsView();
    },
    /**
     * Credentials and session tokens are bound to the origins they were entered for (auth/destination.ts): after a
     * new base or auth address they are not found, and those of the old one are dropped here, so nothing (a
     * compromised page, a holder of the web shell's key) can have them sent elsewhere. The view says what went.
     */
    async updateEnvironment(id: string, patch: EnvironmentPatch): Promise<EnvironmentView> {
      const env = requireEnvironment(id);
      if (env.kind === 'demo' && (patch.baseUrl !== undefined || patch.authUrl !== undefined)) {
        throw new ReviewError(
          'DEMO_URLS_FIXED',
          {
            en: 'The demo environment runs inside the app; its addresses cannot be changed.',
            es: 'El ambiente de demostración se ejecuta dentro de la aplicación; sus direcciones no se pueden cambiar.',
          },
          {
            en: 'Use a custom environment to point at another server.',
            es: 'Usa un ambiente personalizado para apuntar a otro servidor.',
          },
        );
      }
      const updated = await view(await ctx.environments.update(id, patch));
      const forgotten = await ctx.credentials.forgetElsewhere(id);
      return {
        ...updated,
        ...(forgotten.credentials > 0 ? { credentialsCleared: true as const } : {}),
        ...(forgotten.sessionTokens > 0 ? { sessionTokensCleared: forgotten.sessionTokens } : {}),
      };
    },
    async setCredential(environmentId: string, field: CredentialField, value: string): Promise<EnvironmentView> {
      const env = requireEnvironment(environmentId);
      await ctx.credentials.set(env.id, field, value);
      return view(env);
    },
    async clearCredential(environmentId: string, field: CredentialField): Promise<EnvironmentView> {
      const env = requireEnvironment(environmentId);
      await ctx.credentials.clear(env.id, field);
      return view(env);
    },
    async testConnection(environmentId: string): Promise<ConnectionTestView> {
      const env = requireEnvironment(environmentId);
      const { expiresAt } = await ctx.credentials.testConnection(env.id);
      return {
        environmentId: env.id,
        expiresAt: expiresAt.toISOString(),
        remainingSeconds: Math.max(0, Math.round((expiresAt.getTime() - Date.now()) / 1000)),
      };
    },
    storageSecurity: () => ctx.credentials.storageSecurity(),
    async acceptWeakStorage() {
      await ctx.credentials.acceptWeakStorage();
      return ctx.credentials.storageSecurity();
    },
    resetDemoData: () => resetDemoData(ctx.record, ctx.vault),
    teamDatabase: () => team.view(ctx.record.engine, ctx.record.startProblem),
    async saveTeamDatabase(
      config: TeamDatabaseInput,
      password?: string,
      teamKey?: string,
      opts: { removeCa?: boolean } = {},
    ): Promise<TeamDatabaseView> {
      const { passwordCleared } = await team.save(config, password, teamKey, opts);
      const view = await team.view(ctx.record.engine, ctx.record.startProblem);
      return passwordCleared ? { ...view, passwordCleared: true } : view;
    },
    testTeamDatabase: () => team.test(),
    chooseRecordEngine(engine: RecordEngineKind) {
      team.choose(engine);
      return team.view(ctx.record.engine, ctx.record.startProblem);
    },
    preferences,
    setPreferences(patch: Partial<PreferencesView>): PreferencesView {
      const current = preferences();
      const next: PreferencesView = {
        language: patch.language === undefined ? current.language : patch.language,
        theme: patch.theme ?? current.theme,
        afterDecision: patch.afterDecision ?? current.afterDecision,
        technicalDetails: patch.technicalDetails ?? current.technicalDetails,
      };
      ctx.store.set(PREFERENCES_KEY, next);
      return next;
    },
  };
}
