import type { IpcErrorData } from '../../common/ipc/define';

type Text = { en: string; es: string };

/**
 * An expected failure that crosses IPC as it is: review actions, the record, settings, capture, validation, NOM-151.
 * Its texts are written for the user, in both languages, and never quote a secret; `extra` adds what the renderer
 * may act on (`retryable`, `details`).
 */
export class ReviewError extends Error {
  readonly data: IpcErrorData;
  constructor(
    readonly code: string,
    message: Text,
    advice?: Text,
    extra: Partial<IpcErrorData> = {},
  ) {
    super(message.en);
    this.name = 'ReviewError';
    this.data = { code, message, ...(advice ? { advice } : {}), ...extra };
  }

  toIpcError(): IpcErrorData {
    return this.data;
  }
}

/**
 * An environment id that is not one of the app's: the renderer's list is out of date. The id is the caller's text,
 * so it is not quoted: redaction would turn a guess that is a secret into "[redacted]" and tell it so.
 */
export function unknownEnvironment(): ReviewError {
  return new ReviewError(
    'UNKNOWN_ENVIRONMENT',
    { en: 'There is no such environment.', es: 'No existe ese ambiente.' },
    { en: 'Reload Settings and pick one from the list.', es: 'Recarga Configuración y elige uno de la lista.' },
  );
}
