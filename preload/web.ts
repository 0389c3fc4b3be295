import type { IpcErrorData, IpcResult } from '../common/ipc/index';
import { IPC_BATCH_ROUTE, type BatchedAnswer, type BatchedCall } from '../common/ipc/define';
import { STAGING_NAME_HEADER, STAGING_ROUTE, type FileStager, type StagedFileView } from '../common/ipc/capture';
import { buildOmniApi, OmniIpcError } from './bridge';
import { SHELL_KEY_HEADER } from '../common/web-shell';

/**
 * Web-shell preload: runs in the page before the app (the web build injects it first). Takes the per-launch key
 * from the URL fragment, removes it from the address bar and history, and builds `window.omni` over fetch to the
 * loopback host. The key is a capability for this host only (it is not a service credential); it is kept in this
 * tab's sessionStorage (origin- and tab-scoped) so that reloading the page keeps working.
 */
const FRAGMENT_PARAM = 'k';
const SESSION_KEY = 'omni-shell-key';

function takeKeyFromFragment(): string | null {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const key = params.get(FRAGMENT_PARAM);
  if (key !== null) {
    params.delete(FRAGMENT_PARAM);
    const rest = params.toString();
    window.history.replaceState(
      window.history.state,
      '',
      window.location.pathname + window.location.search + (rest ? `#${rest}` : ''),
    );
    window.sessionStorage.setItem(SESSION_KEY, key);
    return key;
  }
  return window.sessionStorage.getItem(SESSION_KEY);
}

const shellKey = takeKeyFromFragment();

const missingKey: IpcResult<unknown> = {
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

interface Queued extends BatchedCall {
  resolve: (result: IpcResult<unknown>) => void;
  reject: (error: unknown) => void;
}

let queued: Queued[] = [];

/**
 * Calls made in the same tick leave together (opening an interview makes six at once): one request for all, the
 * host streaming each answer back as soon as it is ready. A call made alone goes out alone, on its own route.
 */
function invoke(channel: string, input: unknown): Promise<IpcResult<unknown>> {
  if (shellKey === null) return Promise.resolve(missingKey);
  return new Promise((resolve, reject) => {
    queued.push({ channel, input: input ?? {}, resolve, reject });
    if (queued.length === 1) queueMicrotask(sendQueued);
  });
}

function sendQueued() {
  const calls = queued;
  queued = [];
  if (calls.length === 1) {
    const [call] = calls as [Queued];
    post(`/ipc/${encodeURIComponent(call.channel)}`, call.input)
      .then((response) => response.json() as Promise<IpcResult<unknown>>)
      .then(call.resolve, call.reject);
  } else {
    void sendBatch(calls);
  }
}

function post(path: string, body: unknown): Promise<Response> {
  return fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SHELL_KEY_HEADER]: shellKey! },
    body: JSON.stringify(body),
    credentials: 'omit',
    cache: 'no-store',
  });
}

async function sendBatch(calls: Queued[]) {
  const pending = new Map(calls.map((call, i) => [i, call]));
  try {
    const response = await post(
      IPC_BATCH_ROUTE,
      calls.map(({ channel, input }): BatchedCall => ({ channel, input })),
    );
    if (!response.ok || !response.body) {
      // Refused as a whole (wrong key, too large): every call gets that answer.
      const refusal = (await response.json()) as IpcResult<unknown>;
      for (const call of pending.values()) call.resolve(refusal);
      return;
    }
    let buffered = '';
    const lines = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await lines.read();
      if (done) break;
      buffered += value;
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const answer = JSON.parse(buffered.slice(0, end)) as BatchedAnswer;
        buffered = buffered.slice(end + 1);
        pending.get(answer.i)?.resolve(answer.result);
        pending.delete(answer.i);
      }
    }
    if (pending.size > 0) throw new Error('the host closed the batch before answering every call');
  } catch (error) {
    // The bridge turns this into its transport error ("reload the window…").
    for (const call of pending.values()) call.reject(error);
  }
}

Object.defineProperty(window, 'omni', {
  value: buildOmniApi(invoke),
  writable: false,
  configurable: false,
  enumerable: true,
});

/**
 * `window.omniFiles`: hands a picked File to main without its bytes crossing IPC. The browser streams the file
 * from disk to the host's staging route (XMLHttpRequest, for upload progress); only the staged id comes back.
 */
function stageFile(file: File, opts: Parameters<FileStager['stage']>[1] = {}): Promise<StagedFileView> {
  return new Promise((resolve, reject) => {
    const fail = (data: IpcErrorData) => reject(new OmniIpcError(data));
    if (shellKey === null)
      return fail({
        code: 'SHELL_KEY_MISSING',
        message: { en: 'The app cannot talk to its host.', es: 'La aplicación no puede comunicarse con su host.' },
        retryable: false,
      });
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
        fail({
          code: 'IPC_TRANSPORT',
          message: {
            en: 'The app host answered unexpectedly.',
            es: 'El host de la aplicación respondió de forma inesperada.',
          },
          retryable: true,
        });
      }
    };
    xhr.onerror = () =>
      fail({
        code: 'IPC_TRANSPORT',
        message: {
          en: 'The file could not be sent to the app host.',
          es: 'No se pudo enviar el archivo al host de la aplicación.',
        },
        retryable: true,
      });
    xhr.onabort = () => fail({ code: 'ABORTED', message: { en: 'Cancelled.', es: 'Cancelado.' }, retryable: false });
    opts.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

const omniFiles: FileStager = Object.freeze({ stage: stageFile });
Object.defineProperty(window, 'omniFiles', {
  value: omniFiles,
  writable: false,
  configurable: false,
  enumerable: true,
});
