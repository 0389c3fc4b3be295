import type { IpcErrorData } from '../../common/ipc/define';

/** A stored value exists but cannot be decrypted (key store changed, file tampered, unknown format). */
export class VaultDecryptError extends Error {
  readonly code = 'CREDENTIAL_UNDECRYPTABLE';
  constructor(
    readonly envId: string,
    readonly item: string,
  ) {
    super(`Stored ${item} of environment "${envId}" cannot be decrypted; enter it again.`);
    this.name = 'VaultDecryptError';
  }

  toIpcError(): IpcErrorData {
    return {
      code: this.code,
      message: {
        en: "A stored credential can no longer be decrypted (the system's key store changed).",
        es: 'Una credencial guardada ya no se puede descifrar (cambió el almacén de claves del sistema).',
      },
      advice: {
        en: 'Enter the credential again in Settings.',
        es: 'Vuelve a capturar la credencial en Configuración.',
      },
      retryable: false,
      details: { environment: this.envId },
    };
  }
}

/** Empty values or stray spaces are refused where they enter: clearing is explicit. Never quotes the value. */
export class VaultInputError extends Error {
  constructor(
    readonly field: string,
    readonly problem: 'empty' | 'spaces',
  ) {
    super(
      problem === 'empty'
        ? `${field} must be a non-empty string; use clear to remove it.`
        : `${field} has leading or trailing spaces; remove them.`,
    );
    this.name = 'VaultInputError';
  }

  toIpcError(): IpcErrorData {
    const empty = this.problem === 'empty';
    return {
      code: 'INVALID_INPUT',
      message: empty
        ? { en: 'The value is empty.', es: 'El valor está vacío.' }
        : { en: 'The value has spaces at the start or end.', es: 'El valor tiene espacios al inicio o al final.' },
      advice: empty
        ? {
            en: 'Paste the full value, or use Clear to remove it.',
            es: 'Pega el valor completo o usa Borrar para quitarlo.',
          }
        : { en: 'Remove the spaces and save again.', es: 'Quita los espacios y vuelve a guardar.' },
      retryable: false,
      issues: [{ path: this.field, message: empty ? 'empty' : 'leading or trailing spaces' }],
    };
  }
}
