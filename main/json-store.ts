import { statSync } from 'node:fs';
import type { JsonStore } from './ipc/context';

/** What electron-store and conf (the library it is built on) both offer: the whole file as one object, and its path. */
export interface WholeFileStore {
  store: Record<string, unknown>;
  readonly path: string;
}

/**
 * A JsonStore that reads its file once and answers from memory.
 *
 * conf reads and parses the whole file on every `get`, so listing a queue of n interviews (one vault lookup each)
 * parsed the file n + 1 times. Writes still go to disk at once (atomically, as conf does), so nothing is lost on a
 * crash. Values are copied in and out, so a caller that edits what it read changes nothing until it sets it.
 *
 * Another process writing the same file (a second web shell on one data folder) is noticed before each write, by the
 * file's modification time, and its keys are kept: the same key-by-key result as conf's own read-then-write.
 */
export function snapshotJsonStore(file: WholeFileStore): JsonStore {
  let data = file.store;
  let writtenAt = modifiedAt(file.path);

  const write = (change: (next: Record<string, unknown>) => void) => {
    if (modifiedAt(file.path) !== writtenAt) data = file.store;
    const next = { ...data };
    change(next);
    file.store = next;
    data = next;
    writtenAt = modifiedAt(file.path);
  };

  return {
    get: <T>(key: string) => (data[key] === undefined ? undefined : (structuredClone(data[key]) as T)),
    set: <T>(key: string, value: T) =>
      write((next) => {
        // A JSON round trip stores exactly what the file will hold (no undefined, no class instances).
        if (value === undefined) delete next[key];
        else next[key] = JSON.parse(JSON.stringify(value));
      }),
    delete: (key: string) => write((next) => delete next[key]),
  };
}

function modifiedAt(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}
