import type { IpcErrorData } from '../../common/ipc/define';

/**
 * A failed `window.omni` call rejects with an OmniIpcError (web shell) or, across Electron's contextBridge, a plain
 * `{ name: 'OmniIpcError', data }` object. `ipcErrorOf` reads both; anything else becomes a generic renderer error.
 */
export function ipcErrorOf(error: unknown): IpcErrorData {
  if (typeof error === 'object' && error !== null) {
    const data = (error as { data?: unknown }).data;
    if (isIpcErrorData(data)) return data;
  }
  return {
    code: 'RENDERER',
    message: { en: 'The screen hit an unexpected problem.', es: 'La pantalla encontró un problema inesperado.' },
    advice: { en: 'Try again, or reload the window.', es: 'Inténtalo de nuevo o recarga la ventana.' },
    retryable: true,
  };
}

function isIpcErrorData(value: unknown): value is IpcErrorData {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { code?: unknown; message?: { en?: unknown; es?: unknown } };
  return typeof v.code === 'string' && typeof v.message?.en === 'string' && typeof v.message?.es === 'string';
}

/** What React Query stores as `error` for every Omni query and mutation. */
export class OmniCallError extends Error {
  constructor(readonly data: IpcErrorData) {
    super(data.message.en);
    this.name = 'OmniCallError';
  }
}
