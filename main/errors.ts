import type { IpcErrorData } from '../common/ipc/define';

type Bilingual = { en: string; es: string };
type Text = Bilingual;

/**
 * The errors main raises on purpose, which cross IPC as they are (the router calls `toIpcError`). Service errors are
 * OmniError (main/omni/errors.ts); the vault's own are in main/auth.
 *
 * An error raised by shell-level work (settings, app, capture, validation) that crosses IPC as is. Its texts are written for the
 * user and never contain a secret. Service errors use OmniError instead.
 */
export class OmniShellError extends Error {
  constructor(
    readonly code: string,
    readonly text: Bilingual,
    readonly advice?: Bilingual,
    readonly retryable = false,
  ) {
    super(text.en);
    this.name = 'OmniShellError';
  }

  toIpcError(): IpcErrorData {
    return {
      code: this.code,
      message: this.text,
      ...(this.advice ? { advice: this.advice } : {}),
      retryable: this.retryable,
    };
  }
}

/** An expected failure of a review action; carries the bilingual data the renderer shows as is. */
export class ReviewError extends Error {
  readonly data: IpcErrorData;
  constructor(code: string, message: Text, advice?: Text, extra: Partial<IpcErrorData> = {}) {
    super(message.en);
    this.name = 'ReviewError';
    this.data = { code, message, ...(advice ? { advice } : {}), ...extra };
  }

  toIpcError(): IpcErrorData {
    return this.data;
  }
}

/** An environment id that is not one of the app's: the renderer's list is out of date. */
export function unknownEnvironment(id: string): OmniShellError {
  return new OmniShellError(
    'UNKNOWN_ENVIRONMENT',
    { en: `There is no environment "${id}".`, es: `No existe el ambiente "${id}".` },
    { en: 'Reload Settings and pick one from the list.', es: 'Recarga Configuración y elige uno de la lista.' },
  );
}
