import type { IpcResult } from './contract/index';
import { buildOmniApi } from './bridge';

/**
 * Web-shell preload: runs in the page before the app (the web build injects it first). Takes the per-launch key
 * from the URL fragment, removes it from the address bar and history, and builds `window.omni` over fetch to the
 * loopback host. The key lives only in this closure.
 */
export const SHELL_KEY_HEADER = 'x-omni-shell-key';
const FRAGMENT_PARAM = 'k';

function takeKeyFromFragment(): string | null {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const key = params.get(FRAGMENT_PARAM);
  if (key !== null) {
    params.delete(FRAGMENT_PARAM);
    const rest = params.toString();
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search + (rest ? `#${rest}` : ''));
  }
  return key;
}

const shellKey = takeKeyFromFragment();

async function invoke(channel: string, input: unknown): Promise<IpcResult<unknown>> {
  if (shellKey === null) {
    return {
      ok: false,
      error: {
        code: 'SHELL_KEY_MISSING',
        message: {
          en: 'This page was opened without its launch key, so the app cannot talk to its host.',
          es: 'Esta página se abrió sin su clave de inicio, así que la aplicación no puede comunicarse con su host.',
        },
        advice: {
          en: 'Open the exact address printed in the terminal ("Omni Reviewer ready at ...").',
          es: 'Abre la dirección exacta que se muestra en la terminal ("Omni Reviewer ready at ...").',
        },
        retryable: false,
      },
    };
  }
  const response = await fetch(`/ipc/${encodeURIComponent(channel)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SHELL_KEY_HEADER]: shellKey },
    body: JSON.stringify(input ?? {}),
    credentials: 'omit',
    cache: 'no-store',
  });
  return (await response.json()) as IpcResult<unknown>;
}

Object.defineProperty(window, 'omni', { value: buildOmniApi(invoke), writable: false, configurable: false, enumerable: true });
