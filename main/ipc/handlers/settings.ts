import type { DomainHandlers } from '../router';
import { settingsService } from '../../settings/service';

/** Adapts the settings channels onto the settings service (main/settings/service.ts). */
export const settingsHandlers: DomainHandlers<'settings'> = {
  environments: async (_input, ctx) => settingsService(ctx).environments(),
  setActiveEnvironment: async ({ id }, ctx) => settingsService(ctx).setActiveEnvironment(id),
  updateEnvironment: async ({ id, ...patch }, ctx) => settingsService(ctx).updateEnvironment(id, patch),
  setCredential: async ({ environmentId, field, value }, ctx) =>
    settingsService(ctx).setCredential(environmentId, field, value),
  clearCredential: async ({ environmentId, field }, ctx) => settingsService(ctx).clearCredential(environmentId, field),
  testConnection: async ({ environmentId }, ctx) => settingsService(ctx).testConnection(environmentId),
  storageSecurity: async (_input, ctx) => settingsService(ctx).storageSecurity(),
  acceptWeakStorage: async (_input, ctx) => settingsService(ctx).acceptWeakStorage(),
  resetDemoData: async (_input, ctx) => settingsService(ctx).resetDemoData(),
  teamDatabase: async (_input, ctx) => settingsService(ctx).teamDatabase(),
  saveTeamDatabase: async ({ config, password, teamKey, removeCa }, ctx) =>
    settingsService(ctx).saveTeamDatabase(config, password, teamKey, { removeCa: removeCa === true }),
  testTeamDatabase: async (_input, ctx) => settingsService(ctx).testTeamDatabase(),
  chooseRecordEngine: async ({ engine }, ctx) => settingsService(ctx).chooseRecordEngine(engine),
  preferences: async (_input, ctx) => settingsService(ctx).preferences(),
  setPreferences: async (patch, ctx) => settingsService(ctx).setPreferences(patch),
};
