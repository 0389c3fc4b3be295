import type { IpcErrorData } from '../../common/ipc/define';

type Bilingual = { en: string; es: string };

/**
 * An error raised by shell-level handlers (settings, app) that crosses IPC as is. Its texts are written for the
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
    return { code: this.code, message: this.text, ...(this.advice ? { advice: this.advice } : {}), retryable: this.retryable };
  }
}
