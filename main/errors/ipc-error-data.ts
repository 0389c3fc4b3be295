import type { IpcErrorData } from '../../common/ipc/define';

/**
 * How any error a handler or a background job meets crosses IPC. The router (main/ipc/router.ts) answers a failed
 * call with it, and a background job (a video import, main/capture/state.ts) keeps it for its status; it lives here,
 * with the errors, so neither has to import the other.
 */

/** Errors that know how to cross IPC (OmniError and friends) implement this; their output is already redacted. */
interface IpcSerializable {
  toIpcError(): IpcErrorData;
}

function isIpcSerializable(error: unknown): error is IpcSerializable {
  return (
    typeof error === 'object' && error !== null && typeof (error as { toIpcError?: unknown }).toIpcError === 'function'
  );
}

/**
 * Known errors serialize themselves; anything else becomes a generic INTERNAL error. The raw message of an
 * unknown error is never sent (it may quote a header, URL or body holding a secret).
 */
export function toIpcErrorData(
  error: unknown,
  channel: string,
  onUnexpected?: (channel: string, error: unknown) => void,
): IpcErrorData {
  if (isIpcSerializable(error)) {
    try {
      return error.toIpcError();
    } catch (serializationError) {
      onUnexpected?.(channel, serializationError);
    }
  } else {
    onUnexpected?.(channel, error);
  }
  return {
    code: 'INTERNAL',
    message: {
      en: `Something unexpected went wrong while handling "${channel}".`,
      es: `Ocurrió un error inesperado al procesar "${channel}".`,
    },
    advice: {
      en: 'Try again. If it keeps happening, restart the app and report it with the time it happened.',
      es: 'Inténtalo de nuevo. Si se repite, reinicia la aplicación y repórtalo con la hora en que ocurrió.',
    },
    retryable: true,
  };
}
