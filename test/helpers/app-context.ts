import { createAppContext, type AppContextHandle, type AppContextOptions } from '../../main/app-context';
import { MemoryVault } from '../../main/auth/memory-vault';
import { createMediaStore } from '../../main/media/registry';
import { MemoryJsonStore } from './fake-safe-storage';

/**
 * The main process as the web shell starts it, held in memory for an integration test: settings and vault in memory,
 * media and saved files going nowhere. `dataDir` is the test's own folder; anything else may be replaced.
 */
export function testAppOptions(dataDir: string, overrides: Partial<AppContextOptions> = {}): AppContextOptions {
  return {
    shell: {
      kind: 'web',
      version: 't',
      platform: 'linux',
      openExternal: async () => false,
      takeDeepLink: () => null,
      setAside: [],
    },
    store: new MemoryJsonStore(),
    dataDir,
    vault: new MemoryVault(),
    media: createMediaStore({ urlFor: (id) => `/media/${id}` }),
    files: { save: async () => null },
    // The tests that start an app test other things from an empty queue; a first run's demo queue has its own test.
    seedDemoQueue: false,
    ...overrides,
  };
}

export const startTestApp = (dataDir: string, overrides?: Partial<AppContextOptions>): Promise<AppContextHandle> =>
  createAppContext(testAppOptions(dataDir, overrides));
