import type { EnvironmentView, EnvironmentsView, PreferencesView } from '../../../common/ipc/settings';
import type { EnvironmentConfig, MainContext } from '../../ports';
import { BUILT_IN_ENVIRONMENTS } from '../../app-context';
import type { DomainHandlers } from '../router';
import { OmniShellError } from '../../errors';

const PREFERENCES_KEY = 'preferences';
const DEFAULT_PREFERENCES: PreferencesView = { language: null, theme: 'system', afterDecision: 'stay' };

async function view(env: EnvironmentConfig, ctx: MainContext): Promise<EnvironmentView> {
  const builtIn = BUILT_IN_ENVIRONMENTS.find((b) => b.id === env.id);
  return { ...env, named: env.name !== builtIn?.name, credentials: await ctx.credentials.states(env.id) };
}

async function environmentsView(ctx: MainContext): Promise<EnvironmentsView> {
  const environments = await Promise.all(ctx.environments.list().map((env) => view(env, ctx)));
  return { activeId: ctx.environments.active().id, environments };
}

function requireEnvironment(ctx: MainContext, id: string): EnvironmentConfig {
  const env = ctx.environments.list().find((e) => e.id === id);
  if (!env) {
    throw new OmniShellError('UNKNOWN_ENVIRONMENT', {
      en: `There is no environment "${id}".`,
      es: `No existe el ambiente "${id}".`,
    }, { en: 'Reload Settings and pick one from the list.', es: 'Recarga Configuración y elige uno de la lista.' });
  }
  return env;
}

export const settingsHandlers: DomainHandlers<'settings'> = {
  environments: async (_input, ctx) => environmentsView(ctx),
  setActiveEnvironment: async ({ id }, ctx) => {
    requireEnvironment(ctx, id);
    await ctx.environments.setActive(id);
    return environmentsView(ctx);
  },
  updateEnvironment: async ({ id, ...patch }, ctx) => {
    const env = requireEnvironment(ctx, id);
    if (env.kind === 'demo' && (patch.baseUrl !== undefined || patch.authUrl !== undefined)) {
      throw new OmniShellError('DEMO_URLS_FIXED', {
        en: 'The demo environment runs inside the app; its addresses cannot be changed.',
        es: 'El ambiente de demostración se ejecuta dentro de la aplicación; sus direcciones no se pueden cambiar.',
      }, { en: 'Use a custom environment to point at another server.', es: 'Usa un ambiente personalizado para apuntar a otro servidor.' });
    }
    return view(await ctx.environments.update(id, patch), ctx);
  },
  setCredential: async ({ environmentId, field, value }, ctx) => {
    const env = requireEnvironment(ctx, environmentId);
    await ctx.credentials.set(env.id, field, value);
    return view(env, ctx);
  },
  clearCredential: async ({ environmentId, field }, ctx) => {
    const env = requireEnvironment(ctx, environmentId);
    await ctx.credentials.clear(env.id, field);
    return view(env, ctx);
  },
  testConnection: async ({ environmentId }, ctx) => {
    const env = requireEnvironment(ctx, environmentId);
    const { expiresAt } = await ctx.credentials.testConnection(env.id);
    return {
      environmentId: env.id,
      expiresAt: expiresAt.toISOString(),
      remainingSeconds: Math.max(0, Math.round((expiresAt.getTime() - Date.now()) / 1000)),
    };
  },
  storageSecurity: async (_input, ctx) => ctx.credentials.storageSecurity(),
  acceptWeakStorage: async (_input, ctx) => {
    await ctx.credentials.acceptWeakStorage();
    return ctx.credentials.storageSecurity();
  },
  preferences: async (_input, ctx) => ({ ...DEFAULT_PREFERENCES, ...ctx.store.get<Partial<PreferencesView>>(PREFERENCES_KEY) }),
  setPreferences: async (patch, ctx) => {
    const current = { ...DEFAULT_PREFERENCES, ...ctx.store.get<Partial<PreferencesView>>(PREFERENCES_KEY) };
    const next: PreferencesView = {
      language: patch.language === undefined ? current.language : patch.language,
      theme: patch.theme ?? current.theme,
      afterDecision: patch.afterDecision ?? current.afterDecision,
    };
    ctx.store.set(PREFERENCES_KEY, next);
    return next;
  },
};
