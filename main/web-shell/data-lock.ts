import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
 */
export const LOCK_FILE = 'web-shell.lock';

export interface DataDirLock {
  release(): void;
}

/** Lock files this process holds: a second shell in the same process is refused too. */
const held = new Set<string>();

export function lockDataDir(dataDir: string): DataDirLock {
  const path = join(dataDir, LOCK_FILE);
  if (held.has(path)) throw new DataDirInUseError(dataDir, process.pid, LOCK_FILE);
  while (!createWhole(path)) {
    const holder = holderOf(path);
    if (holder === 'gone') continue;
    // Our own pid in a file we do not hold: left by an earlier process that had the same pid.
    if (holder !== process.pid && isRunning(holder)) throw new DataDirInUseError(dataDir, holder, LOCK_FILE);
    takeStale(path, holder);
  }
  held.add(path);
  return {
    release() {
      if (!held.delete(path)) return;
      if (holderOf(path) === process.pid) rmSync(path, { force: true });
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

/** The pid a lock names (NaN when it names none: an earlier version's lock cut short), or 'gone'. */
function holderOf(path: string): number | 'gone' {
  try {
    return Number.parseInt(readFileSync(path, 'utf8'), 10);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
}

/**
 * Moves a stale lock away; of two shells taking it at once one moves it, the other finds nothing. A lock that another
 * shell created after it was judged stale, and so was moved by mistake, is put back for that shell.
 */
function takeStale(path: string, stale: number) {
  const moved = `${path}.stale.${process.pid}.${randomBytes(6).toString('hex')}`;
  try {
    renameSync(path, moved);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const took = holderOf(moved);
  try {
    if (took !== 'gone' && took !== stale && !Number.isNaN(took) && isRunning(took)) linkSync(moved, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(moved, { force: true });
  }
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
