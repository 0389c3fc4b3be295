import { existsSync, renameSync, statSync } from 'node:fs';
import type { SetAsideFile } from '../common/views';
import { log } from './log';

export interface JsonStore {
  /** A copy of the value: the caller may change it. */
  get<T>(key: string): T | undefined;
  /**
   * The value itself, without a copy, frozen: for reads of a large value on a hot path (the review queue is read
   * several times per opening, and copying 5,000 entries each time cost milliseconds). Change a copy, then `set` it.
   */
  peek<T>(key: string): Frozen<T> | undefined;
  set<T>(key: string, value: T): void;
  delete(key: string): void;
}

/** A value that cannot be changed at any depth (what `JsonStore.peek` gives). */
export type Frozen<T> = T extends (infer U)[]
  ? readonly Frozen<U>[]
  : T extends object
    ? { readonly [K in keyof T]: Frozen<T[K]> }
    : T;

/** What electron-store and conf (the library it is built on) both offer: the whole file as one object, and its path. */
export interface WholeFileStore {
  store: Record<string, unknown>;
  readonly path: string;
}

/** A JsonStore over one file, which can also say which keys it holds (to move keys between files at start). */
export interface FileJsonStore extends JsonStore {
  keys(): string[];
}

export interface OpenedStore {
  store: FileJsonStore;
  /** The settings file; the app's other files (the audit trail) go in its folder. */
  path: string;
  /** Files that could not be read at this start, each moved aside before a new one was started. */
  setAside: SetAsideFile[];
}

/** The settings file: preferences, environments, trusted roots and the encrypted credentials. */
export const SETTINGS_FILE = 'omni-reviewer';

/**
 * Opens the settings file. The review record (queue, drafts, decisions, audit trail) is in the database
 * (main/record/); what earlier versions kept in JSON files is imported from them at start (record/import-legacy.ts).
 */
export function openStores(
  open: (name: string) => WholeFileStore,
  pathOf: (name: string) => string,
  now: () => number = Date.now,
): OpenedStore {
  const opened = openStoreFile(
    () => open(SETTINGS_FILE),
    () => pathOf(SETTINGS_FILE),
    now,
  );
  return {
    store: opened.store,
    path: opened.path,
    setAside: opened.setAsideAs ? [{ kind: 'settings', path: opened.setAsideAs }] : [],
  };
}

/**
 * Opens one store file as a snapshotJsonStore. One that is not JSON (a disk fault, an edit by hand) would stop the app
 * at every start with a parser's message; it is renamed beside itself, so nothing in it is lost, and the app starts
 * with a new file and says so.
 */
export function openStoreFile(
  open: () => WholeFileStore,
  path: () => string,
  now: () => number = Date.now,
): { store: FileJsonStore; path: string; setAsideAs?: string } {
  try {
    const file = open();
    return { store: snapshotJsonStore(file), path: file.path };
  } catch (error) {
    const unreadable = path();
    if (!(error instanceof SyntaxError) || !existsSync(unreadable)) throw error;
    const stamp = new Date(now()).toISOString().replace(/[:.]/g, '-');
    const setAsideAs = `${unreadable.replace(/\.json$/, '')}.unreadable-${stamp}.json`;
    renameSync(unreadable, setAsideAs);
    log.warn('A store file could not be read; it was set aside and a new one started', {
      setAsideAs,
      reason: error.message,
    });
    const file = open();
    return { store: snapshotJsonStore(file), path: file.path, setAsideAs };
  }
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
export function snapshotJsonStore(file: WholeFileStore): FileJsonStore {
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
    // Values are frozen as they are stored (below) or read from the file (here, once), so handing them out is safe.
    peek: <T>(key: string) => (data[key] === undefined ? undefined : (deepFreeze(data[key]) as Frozen<T>)),
    set: <T>(key: string, value: T) =>
      write((next) => {
        // A JSON round trip stores exactly what the file will hold (no undefined, no class instances).
        if (value === undefined) delete next[key];
        else next[key] = deepFreeze(JSON.parse(JSON.stringify(value)));
      }),
    delete: (key: string) => write((next) => delete next[key]),
    keys: () => Object.keys(data),
  };
}

/** Freezes a JSON value at every depth (what `JsonStore.peek` hands out). */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function modifiedAt(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}
