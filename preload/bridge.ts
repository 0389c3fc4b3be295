import { contract, type IpcErrorData, type IpcResult, type OmniApi } from '../common/ipc/index';

/**
 * Builds `window.omni` from any transport's `invoke(channel, input)`: Electron's ipcRenderer (preload/index.ts)
 * or fetch to the web-shell host (preload/web.ts). One function per contract channel and nothing else.
 */
export type Invoke = (channel: string, input: unknown) => Promise<IpcResult<unknown>>;

/** The error a `window.omni` call rejects with; `data` is the bilingual, redacted error from main. */
export class OmniIpcError extends Error {
  constructor(readonly data: IpcErrorData) {
    super(data.message.en);
    this.name = 'OmniIpcError';
  }
}

/**
 * contextBridge drops custom properties of Error objects, so the Electron preload rejects with this plain
 * object instead; the renderer reads both shapes with `ipcErrorOf` (renderer/api/errors.ts).
 */
export interface PlainIpcError {
  name: 'OmniIpcError';
  message: string;
  data: IpcErrorData;
}

export interface BridgeOptions {
  /** How a failed call rejects; defaults to an OmniIpcError instance. */
  reject?: (data: IpcErrorData) => unknown;
}

const transportFailure = (): IpcErrorData => ({
  code: 'IPC_TRANSPORT',
  message: {
    en: 'The app could not reach its main process.',
    es: 'La aplicación no pudo comunicarse con su proceso principal.',
  },
  advice: {
    en: 'Reload the window. If you use the browser version, check that its terminal is still running.',
    es: 'Recarga la ventana. Si usas la versión de navegador, verifica que su terminal siga abierta.',
  },
  retryable: true,
});

export function buildOmniApi(invoke: Invoke, options: BridgeOptions = {}): OmniApi {
  const reject = options.reject ?? ((data: IpcErrorData) => new OmniIpcError(data));
  const api: Record<string, Record<string, (input: unknown) => Promise<unknown>>> = {};
  for (const [domain, methods] of Object.entries(contract)) {
    const fns: Record<string, (input: unknown) => Promise<unknown>> = {};
    for (const method of Object.keys(methods)) {
      const name = `${domain}.${method}`;
      fns[method] = async (input: unknown) => {
        let result: IpcResult<unknown>;
        try {
          result = await invoke(name, input === undefined ? {} : input);
        } catch {
          throw reject(transportFailure());
        }
        if (result.ok) return result.data;
        throw reject(result.error);
      };
    }
    api[domain] = Object.freeze(fns);
  }
  return Object.freeze(api) as unknown as OmniApi;
}

export function plainIpcError(data: IpcErrorData): PlainIpcError {
  return { name: 'OmniIpcError', message: data.message.en, data };
}
