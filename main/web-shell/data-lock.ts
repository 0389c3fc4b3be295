import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataDirInUseError } from '../errors';
import { PRIVATE_FILE_MODE } from '../private-files';

/**
 * One web shell per data folder: two side by side rewrote each other's queue and drafts. The lock file names the
 * process holding it; one left by a process that is gone (a crash, a kill -9) is taken over.
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
  for (;;) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: 'wx', mode: PRIVATE_FILE_MODE });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
      // Our own pid in a file we do not hold: left by an earlier process that had the same pid.
      if (holder !== process.pid && isRunning(holder)) throw new DataDirInUseError(dataDir, holder, LOCK_FILE);
      rmSync(path, { force: true });
    }
  }
  held.add(path);
  return {
    release() {
      if (!held.delete(path)) return;
      rmSync(path, { force: true });
    },
  };
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
