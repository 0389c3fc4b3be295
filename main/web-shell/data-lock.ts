import { randomBytes } from 'node:crypto';
import {
  type BigIntStats,
  closeSync,
  constants,
  fstatSync,
  linkSync,
  lstatSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { DataDirInUseError } from '../errors';
import { PRIVATE_FILE_MODE } from '../private-files';

/**
 * One web shell per data folder: two side by side rewrote each other's queue and drafts. The lock file names the
 * process holding it; one left by a process that is gone (a crash, a kill -9) is taken over.
 *
 * Two shells started together both got it (red team 11: 7 rounds of 8): the file was created empty and written after,
 * so the other read no pid and took it as stale; two takers of a stale lock each removed the other's new one; and a
 * shell's release removed whatever lock was there. Now the lock appears whole (written aside, then linked in, which
 * fails if one exists), a stale one is taken by renaming it away (one renamer wins), and a release removes only its own.
 *
 * Red team 14: a dangling symlink in the lock's place could neither be linked over nor read, and the loop spun for
 * good; anything there that is not a regular file is now a stale lock, and the loop gives up after MAX_PASSES. And
 * with three shells, one judged a lock stale, another took it over meanwhile, the first renamed that fresh lock away
 * and a third created one before it was put back: two shells ran. A lock is now moved only while it is still the file
 * judged stale (see takeStale).
 */
export const LOCK_FILE = 'web-shell.lock';

/** Passes of create, read, take over: a few at most when shells race; more means the folder is not behaving. */
const MAX_PASSES = 100;

export interface DataDirLock {
  release(): void;
}

/** Lock files this process holds: a second shell in the same process is refused too. */
const held = new Set<string>();

export function lockDataDir(dataDir: string): DataDirLock {
  const path = join(dataDir, LOCK_FILE);
  if (held.has(path)) throw new DataDirInUseError(dataDir, process.pid, LOCK_FILE);
  for (let pass = 1; !createWhole(path); pass++) {
    if (pass >= MAX_PASSES)
      throw new Error(
        `The data folder's lock ${path} could neither be created nor taken over after ${MAX_PASSES} tries; if no web shell is running, move it aside.\n` +
          `El bloqueo de la carpeta de datos ${path} no se pudo crear ni tomar tras ${MAX_PASSES} intentos; si no hay ningún web shell en ejecución, muévelo a otro lugar.`,
      );
    const lock = readLock(path);
    if (lock === 'gone') continue;
    // Our own pid in a file we do not hold: left by an earlier process that had the same pid.
    if (lock.pid !== process.pid && isRunning(lock.pid)) throw new DataDirInUseError(dataDir, lock.pid, LOCK_FILE);
    takeStale(dataDir, path, lock);
  }
  held.add(path);
  return {
    release() {
      if (!held.delete(path)) return;
      const lock = readLock(path);
      if (lock !== 'gone' && lock.pid === process.pid) rmSync(path, { force: true });
    },
  };
}

/** The lock, created with this process's pid already in it; false when one is there. */
function createWhole(path: string): boolean {
  const aside = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  writeFileSync(aside, `${process.pid}\n`, { flag: 'wx', mode: PRIVATE_FILE_MODE });
  try {
    linkSync(aside, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    rmSync(aside, { force: true });
  }
}

/** A lock as read: the pid it names (NaN when none: an earlier version's lock cut short, or no regular file). */
interface SeenLock {
  pid: number;
  /** Which file it was, and what it held: a lock is moved away only while it is still this one. */
  file: FileIdentity;
}

interface FileIdentity {
  dev: bigint;
  ino: bigint;
  size: bigint;
  /** Rename keeps it; a new file written later has its own (and, inode numbers being reused, tells two apart). */
  mtimeNs: bigint;
  /** null for what is no regular file (never opened: a FIFO would block). */
  content: string | null;
}

const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * The lock at `path`, or 'gone'. Its content and identity come from one open file: read through a symlink, a dangling
 * one looked absent while linking over it failed, and the loop spun for good (red team 14); now what is no regular
 * file is a lock naming no one, moved away like any stale one.
 */
function readLock(path: string): SeenLock | 'gone' {
  let stat: BigIntStats;
  try {
    stat = lstatSync(path, { bigint: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  if (!stat.isFile()) return { pid: Number.NaN, file: identity(stat, null) };
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    // Removed or replaced since the lstat: look again.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'EMLINK') return 'gone';
    throw error;
  }
  try {
    const opened = fstatSync(fd, { bigint: true });
    const buffer = Buffer.alloc(64);
    const content = buffer.toString('utf8', 0, readSync(fd, buffer, 0, buffer.length, 0));
    return { pid: Number.parseInt(content, 10), file: identity(opened, content) };
  } finally {
    closeSync(fd);
  }
}

function identity(stat: BigIntStats, content: string | null): FileIdentity {
  return { dev: stat.dev, ino: stat.ino, size: stat.size, mtimeNs: stat.mtimeNs, content };
}

function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.content === b.content;
}

/** The identity of what is at `path` now (content read again for a regular file), or undefined when nothing is. */
function identityAt(path: string): FileIdentity | undefined {
  const lock = readLock(path);
  return lock === 'gone' ? undefined : lock.file;
}

/**
 * Moves a stale lock away; of two shells taking it at once one moves it, the other finds nothing.
 *
 * Only the lock judged stale is moved: what is at the path is read again right before the rename and left if it is
 * another file (another shell took the stale one over meanwhile). What was moved is checked after: if it is not the
 * file judged stale (replaced between that check and the rename), it is put back; if that fails because a third
 * shell created a lock in the moment the path was empty, the moved lock's shell has lost its file while it runs, and
 * this one refuses to start rather than make a third. What remains: the microseconds between the check and the
 * rename, then between the rename and the put-back, in which two other shells must each act; the second of those can
 * leave two shells running (the moved lock's and the third), and this shell then says so and stops.
 */
function takeStale(dataDir: string, path: string, stale: SeenLock) {
  const now = identityAt(path);
  if (now === undefined || !sameFile(now, stale.file)) return;
  const moved = `${path}.stale.${process.pid}.${randomBytes(6).toString('hex')}`;
  try {
    renameSync(path, moved);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const took = readLock(moved);
  if (took === 'gone' || sameFile(took.file, stale.file)) return discard(moved, took);
  try {
    linkSync(moved, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const third = readLock(path);
    throw new DataDirInUseError(dataDir, took.pid || (third === 'gone' ? Number.NaN : third.pid), LOCK_FILE);
  } finally {
    discard(moved, took);
  }
}

/** A moved lock removed; a directory in the lock's place stays aside under its moved name, with what it holds. */
function discard(moved: string, took: SeenLock | 'gone') {
  if (took !== 'gone' && took.file.content === null && lstatSync(moved).isDirectory()) return;
  rmSync(moved, { force: true });
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
