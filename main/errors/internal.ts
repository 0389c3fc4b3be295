/**
 * Errors that never cross IPC as they are: the module that catches each one says what it means to the user (or,
 * for the web shell's command line, prints it).
 */

/** Another web shell holds the data folder's lock (main/web-shell/data-lock.ts); its message is for the terminal. */
export class DataDirInUseError extends Error {
  readonly code = 'DATA_DIR_IN_USE';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    lockFile: string,
  ) {
    super(
      `Another Omni Reviewer web shell (process ${pid}) is using the data folder ${dataDir}. ` +
        `Use that one, stop it first, or start this one with --data-dir pointing at another folder (if no web shell is running, delete ${lockFile} there).\n` +
        `Otro web shell de Omni Reviewer (proceso ${pid}) está usando la carpeta de datos ${dataDir}. ` +
        `Usa ese, detenlo primero o inicia este con --data-dir apuntando a otra carpeta (si no hay ningún web shell en ejecución, borra ${lockFile} ahí).`,
    );
    this.name = 'DataDirInUseError';
  }
}

/** A media URL the registry refuses (main/media/registry.ts): not a URL, or not http(s). */
export class MediaRegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MediaRegistryError';
  }
}

/**
 * CSV text that cannot be parsed (main/validation/csv.ts): a quoted field never closed (`line` is where it opened), or a
 * row wider than a batch reads (`line` is that row's).
 */
export class CsvError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly reason: 'unclosedQuote' | 'tooManyColumns' = 'unclosedQuote',
  ) {
    super(message);
  }
}

/** An upload into staging over its limit (main/capture/staging.ts); the web shell's route answers 413. */
export class StagingTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The file is larger than ${limit} bytes.`);
  }
}

/** Staging already holds as many files, or as many bytes, as one session keeps. */
export class StagingLimitError extends Error {
  constructor(
    readonly what: 'files' | 'bytes',
    readonly limit: number,
  ) {
    super(`Staging holds its most ${what}: ${limit}.`);
  }
}

/** One of the demo server's own routes did not answer (main/demo-client/). */
export class DemoRouteError extends Error {
  constructor(
    readonly route: string,
    readonly status?: number,
  ) {
    super(`The demo server's ${route} did not answer${status ? ` (HTTP ${status})` : ''}`);
    this.name = 'DemoRouteError';
  }
}
