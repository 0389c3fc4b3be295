import type { IpcErrorData, IpcResult } from './contract/index';
import { STAGING_NAME_HEADER, STAGING_ROUTE, type FileStager, type StagedFileView } from './contract/capture';
import { buildOmniApi, OmniIpcError } from './bridge';

/**
 * Web-shell preload: runs in the page before the app (the web build injects it first). Takes the per-launch key
 * from the URL fragment, removes it from the address bar and history, and builds `window.omni` over fetch to the
 * loopback host. The key is a capability for this host only (it is not a service credential); it is kept in this
 * tab's sessionStorage (origin- and tab-scoped) so that reloading the page keeps working.
 */
export const SHELL_KEY_HEADER = 'x-omni-shell-key';
const FRAGMENT_PARAM = 'k';
const SESSION_KEY = 'omni-shell-key';

function takeKeyFromFragment(): string | null {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const key = params.get(FRAGMENT_PARAM);
  if (key !== null) {
    params.delete(FRAGMENT_PARAM);
    const rest = params.toString();
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search + (rest ? `#${rest}` : ''));
    window.sessionStorage.setItem(SESSION_KEY, key);
    return key;
  }
  return window.sessionStorage.getItem(SESSION_KEY);
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

/**
 * `window.omniFiles`: hands a picked File to main without its bytes crossing IPC. The browser streams the file
 * from disk to the host's staging route (XMLHttpRequest, for upload progress); only the staged id comes back.
 */
function stageFile(file: File, opts: Parameters<FileStager['stage']>[1] = {}): Promise<StagedFileView> {
  return new Promise((resolve, reject) => {
    const fail = (data: IpcErrorData) => reject(new OmniIpcError(data));
    if (shellKey === null) return fail({ code: 'SHELL_KEY_MISSING', message: { en: 'The app cannot talk to its host.', es: 'La aplicación no puede comunicarse con su host.' }, retryable: false });
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', STAGING_ROUTE);
    xhr.setRequestHeader(SHELL_KEY_HEADER, shellKey);
    xhr.setRequestHeader(STAGING_NAME_HEADER, encodeURIComponent(file.name));
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.upload.onprogress = (e) => opts.onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      try {
        const result = JSON.parse(xhr.responseText) as IpcResult<StagedFileView>;
        if (result.ok) resolve(result.data);
        else fail(result.error);
      } catch {
        fail({ code: 'IPC_TRANSPORT', message: { en: 'The app host answered unexpectedly.', es: 'El host de la aplicación respondió de forma inesperada.' }, retryable: true });
      }
    };
    xhr.onerror = () => fail({ code: 'IPC_TRANSPORT', message: { en: 'The file could not be sent to the app host.', es: 'No se pudo enviar el archivo al host de la aplicación.' }, retryable: true });
    xhr.onabort = () => fail({ code: 'ABORTED', message: { en: 'Cancelled.', es: 'Cancelado.' }, retryable: false });
    opts.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

const omniFiles: FileStager = Object.freeze({ stage: stageFile });
Object.defineProperty(window, 'omniFiles', { value: omniFiles, writable: false, configurable: false, enumerable: true });
