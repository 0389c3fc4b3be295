import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  truncateSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AuditAction, AuditEntry } from '../common/views';
import type { JsonStore } from './json-store';
import type { AuditTrail } from './ports';
import { deepFreeze } from './json-store';
import { entryHash, GENESIS_HASH } from './record/audit-chain';
import { log as defaultLog, type Logger } from './log';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files';

export { canonicalJson, entryHash, GENESIS_HASH } from './record/audit-chain';

/**
 * Append-only audit trail with a SHA-256 hash chain: each entry's hash covers its content and the previous hash,
 * so editing or removing any past entry breaks every link after it (verify() reports the first).
 *
 * Kept in a file of its own, one entry per line (JSON Lines), so recording an action appends one line. Earlier
 * versions kept it in the settings file, which is rewritten whole with every change: with 10,000 entries, opening an
 * interview took ~200 ms instead of ~12 ms, and grew with every day of work.
 *
 * The trail's file name, in the folder of the settings file.
 */
export const AUDIT_TRAIL_FILE = 'audit-trail.jsonl';
/** Where earlier versions kept the trail: one key of the settings file. Moved to the trail's own file at start. */
const LEGACY_STORE_KEY = 'auditTrail';

export interface AuditTrailOptions {
  /** The trail's file (created on the first entry). */
  path: string;
  environment: () => string;
  now?: () => number;
  /** The settings store of earlier versions: a trail found there is moved to `path`. */
  legacyStore?: JsonStore;
  log?: Logger;
}

/** Entries hashed per turn of the event loop when the trail read at start is checked in the background (~3 ms). */
const BACKGROUND_SLICE = 1_000;

/** A line of the file: an entry, or null where the line is not one (damaged, or edited by hand). */
type Line = Readonly<AuditEntry> | null;

/** The file as last read or written by this process: another writer (or an edit) changes one of these. */
interface FileState {
  size: number;
  mtimeMs: number;
}

export function openAuditTrail(opts: AuditTrailOptions): AuditTrail {
  const now = opts.now ?? Date.now;
  const log = opts.log ?? defaultLog;
  const { path } = opts;
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
  // A trail written by an earlier version is 0644; it repeats note text.
  if (process.platform !== 'win32' && existsSync(path)) chmodSync(path, PRIVATE_FILE_MODE);
  moveLegacyTrail(path, opts.legacyStore, log);

  let lines: Line[] = [];
  let byInterview = new Map<string, Readonly<AuditEntry>[]>();
  /** The time of the last entry per environment, action and interview (lastRecorded). */
  let lastAt = new Map<string, string>();
  const lastKey = (environment: string, action: string, interviewId: string) =>
    `${environment}\n${action}\n${interviewId}`;
  let file: FileState | undefined;
  /** How far the chain has been checked: verify() continues from there instead of hashing everything again. */
  let checked = { count: 0, prevHash: GENESIS_HASH, brokenAt: undefined as number | undefined };

  const add = (line: Line) => {
    lines.push(line);
    if (line?.interviewId === undefined) return;
    lastAt.set(lastKey(line.environment, line.action, line.interviewId), line.at);
    const mine = byInterview.get(line.interviewId);
    if (mine) mine.push(line);
    else byInterview.set(line.interviewId, [line]);
  };

  const load = (repair: boolean) => {
    lines = [];
    byInterview = new Map();
    lastAt = new Map();
    checked = { count: 0, prevHash: GENESIS_HASH, brokenAt: undefined };
    const read = readTrailFile(path, repair ? log : undefined);
    for (const line of read.lines) add(line);
    file = read.file;
  };

  /** Whether this process is writing an entry: the file then differs from what was last read because of it. */
  let writing = false;

  /**
   * Reads the file again when it changed since this process last read or wrote it. Not while an entry of this process
   * is being written: read back then, it was added a second time when its write returned, and the next entry was
   * numbered and chained after the copy.
   */
  const syncWithFile = () => {
    if (writing) return;
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats?.size === file?.size && stats?.mtimeMs === file?.mtimeMs) return;
    load(false);
  };

  /** Checks the chain's links up to line `end` (exclusive), from where the last check stopped. */
  const checkUpTo = (end: number) => {
    for (; checked.brokenAt === undefined && checked.count < Math.min(end, lines.length); checked.count++) {
      const line = lines[checked.count]!;
      const seq = checked.count + 1;
      if (
        line === null ||
        line.seq !== seq ||
        line.prevHash !== checked.prevHash ||
        entryHash(withoutHash(line)) !== line.hash
      ) {
        checked.brokenAt = seq;
        break;
      }
      checked.prevHash = line.hash;
    }
  };

  load(true);
  // The trail read at start is checked in the background, a slice per turn of the event loop, so the first opening
  // (which shows whether the chain holds) does not hash it all at once: ~300 ms at 100,000 entries.
  const checkInBackground = () => {
    if (checked.brokenAt !== undefined || checked.count >= lines.length) return;
    checkUpTo(checked.count + BACKGROUND_SLICE);
    setImmediate(checkInBackground);
  };
  setImmediate(checkInBackground);
  // Appends are serialized so two concurrent ones never chain onto the same predecessor.
  let queue: Promise<unknown> = Promise.resolve();

  return {
    append({ interviewId, action, detail }) {
      const run = async (): Promise<AuditEntry> => {
        syncWithFile();
        const last = lines.findLast((line) => line !== null);
        // A JSON round trip keeps exactly what will be stored (drops undefined, functions), so the hash matches on verify.
        const body: Omit<AuditEntry, 'hash'> = {
          seq: lines.length + 1,
          at: new Date(now()).toISOString(),
          environment: opts.environment(),
          ...(interviewId !== undefined ? { interviewId } : {}),
          action: action as AuditAction,
          detail: JSON.parse(JSON.stringify(detail ?? {})) as Record<string, unknown>,
          prevHash: last?.hash ?? GENESIS_HASH,
        };
        const entry: AuditEntry = { ...body, hash: entryHash(body) };
        writing = true;
        try {
          file = await appendLine(path, `${JSON.stringify(entry)}\n`);
        } finally {
          writing = false;
        }
        // Entries are shared by every list; frozen, so a caller cannot change what the next one sees.
        add(deepFreeze(entry));
        return entry;
      };
      const result = queue.then(run, run);
      queue = result.catch(() => undefined);
      return result;
    },
    async list(filter) {
      syncWithFile();
      if (filter?.interviewId !== undefined) return [...(byInterview.get(filter.interviewId) ?? [])];
      return lines.filter((line) => line !== null);
    },
    async lastRecorded(action, environment) {
      syncWithFile();
      const index = lastAt;
      return (interviewId) => index.get(lastKey(environment, action, interviewId));
    },
    async verify() {
      syncWithFile();
      checkUpTo(lines.length);
      return checked.brokenAt === undefined ? { ok: true } : { ok: false, brokenAt: checked.brokenAt };
    },
  };
}

function withoutHash(entry: Readonly<AuditEntry>): Omit<AuditEntry, 'hash'> {
  const { hash: _hash, ...body } = entry;
  return body;
}

/** One line, on disk before the call returns (an entry the app has reported must survive a crash). */
async function appendLine(path: string, line: string): Promise<FileState> {
  const handle = await open(path, 'a', PRIVATE_FILE_MODE);
  try {
    await handle.write(line);
    await handle.datasync();
    return fileState(await handle.stat());
  } finally {
    await handle.close();
  }
}

const fileState = (stats: Stats): FileState => ({ size: stats.size, mtimeMs: stats.mtimeMs });

function parseLine(text: string): Line {
  try {
    const value = JSON.parse(text) as Partial<AuditEntry> | null;
    const isEntry =
      value !== null &&
      typeof value === 'object' &&
      typeof value.seq === 'number' &&
      typeof value.at === 'string' &&
      typeof value.environment === 'string' &&
      typeof value.action === 'string' &&
      typeof value.detail === 'object' &&
      value.detail !== null &&
      typeof value.prevHash === 'string' &&
      typeof value.hash === 'string';
    return isEntry ? deepFreeze(value as AuditEntry) : null;
  } catch {
    return null;
  }
}

/**
 * The file's lines. Its end is where a crash would show: a last line without its newline was being written when the
 * app stopped. At start (`repairWith` given), if it is a whole entry only the newline is added; if not, it is moved to
 * a file beside the trail (nothing is deleted) and the trail ends at the last whole entry, so a crash does not read as
 * tampering. While running, such a line is another process's append in progress and is left alone.
 */
function readTrailFile(path: string, repairWith: Logger | undefined): { lines: Line[]; file: FileState | undefined } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], file: undefined };
    throw error;
  }
  const end = bytes.lastIndexOf(0x0a) + 1;
  const text = bytes.subarray(0, end).toString('utf8');
  const lines = text === '' ? [] : text.slice(0, -1).split('\n').map(parseLine);
  const tail = bytes.subarray(end);
  if (tail.length > 0 && repairWith) {
    const last = parseLine(tail.toString('utf8'));
    if (last) {
      writeFileSync(path, '\n', { flag: 'a', flush: true });
      lines.push(last);
    } else {
      const setAsideAs = `${path}.unfinished-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      writeFileSync(setAsideAs, tail, { flush: true, mode: PRIVATE_FILE_MODE });
      truncateSync(path, end);
      repairWith.warn(
        'The audit trail ended in an unfinished entry (the app stopped while writing it); it was set aside',
        { setAsideAs, bytes: tail.length },
      );
    }
  }
  return {
    lines,
    file: tail.length > 0 && !repairWith ? { size: bytes.length, mtimeMs: NaN } : fileState(statSync(path)),
  };
}

/** Whether the file's lines begin with these entries (compared by hash, which covers each entry's content). */
function startsWith(lines: Line[], entries: unknown[]): boolean {
  return (
    entries.length <= lines.length &&
    entries.every(
      (entry, i) =>
        typeof entry === 'object' && entry !== null && (entry as { hash?: unknown }).hash === lines[i]?.hash,
    )
  );
}

function moveLegacyTrail(path: string, store: JsonStore | undefined, log: Logger) {
  const legacy = store?.get<unknown>(LEGACY_STORE_KEY);
  if (!store || !Array.isArray(legacy)) return;
  if ((statSync(path, { throwIfNoEntry: false })?.size ?? 0) > 0) {
    // The app stopped between moving the trail and removing it from the settings: the move is done.
    if (startsWith(readTrailFile(path, undefined).lines, legacy)) {
      store.delete(LEGACY_STORE_KEY);
      return;
    }
    // Only when an older version of the app ran on this folder after this one moved its trail: left where it is.
    log.warn(
      'The settings file holds an audit trail from an older version of the app; the trail file is kept as it is',
      { path },
    );
    return;
  }
  const moving = `${path}.moving`;
  writeFileSync(moving, legacy.map((entry) => `${JSON.stringify(entry)}\n`).join(''), {
    flush: true,
    mode: PRIVATE_FILE_MODE,
  });
  renameSync(moving, path);
  store.delete(LEGACY_STORE_KEY);
}
