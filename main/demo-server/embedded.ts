import type { Vault } from '../auth/vault';
import { ReviewError } from '../errors';
import type { Logger } from '../log';
import type { CredentialField } from '../ports';
import { demoRoutes } from '../demo-client';

export interface DemoHandle {
  url: string;
  close(): Promise<void>;
}

/**
 * The embedded demo service of one app run: started on first use (at most once at a time), its credentials loaded
 * into the vault under the demo environment so a first run needs no typing, and stopped when another environment
 * becomes active (it serves its credentials to whoever reaches it).
 */
export function embeddedDemo(opts: {
  start: () => Promise<DemoHandle>;
  vault: Vault;
  fetch: typeof fetch;
  log: Logger;
  onStop: () => void;
}) {
  let demo: DemoHandle | undefined;
  let starting: Promise<DemoHandle> | undefined;

  async function startAndLoadCredentials(): Promise<DemoHandle> {
    const started = await opts.start();
    try {
      const creds = (await demoRoutes(started.url, opts.fetch).credentials()) as Partial<
        Record<CredentialField, unknown>
      >;
      for (const field of ['apiKey', 'integrationId', 'secret'] as const) {
        const value = creds[field];
        if (typeof value === 'string' && value !== '') await opts.vault.setCredential('demo', field, value);
      }
    } catch (error) {
      await started.close();
      throw error;
    }
    demo = started;
    opts.log.debug('demo service started', { url: started.url });
    return started;
  }

  return {
    url: () => demo?.url,
    async ensure(): Promise<DemoHandle> {
      if (demo) return demo;
      starting ??= startAndLoadCredentials();
      try {
        return await starting;
      } catch {
        starting = undefined;
        throw new ReviewError(
          'DEMO_START_FAILED',
          {
            en: 'The built-in demo service could not start.',
            es: 'El servicio de demostración integrado no pudo iniciar.',
          },
          {
            en: 'Restart the app. If it keeps failing, choose another environment in Settings.',
            es: 'Reinicia la aplicación. Si sigue fallando, elige otro ambiente en Configuración.',
          },
          { retryable: true },
        );
      }
    },
    async stop() {
      const running = demo;
      demo = undefined;
      starting = undefined;
      opts.onStop();
      await running?.close();
    },
  };
}

export type EmbeddedDemo = ReturnType<typeof embeddedDemo>;
