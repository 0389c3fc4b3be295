/**
 * A temporary folder in RAM for a test run, where the machine has one with room: Linux's /dev/shm (tmpfs), mounted
 * without `noexec`, with at least 2 GB free (a container's default 64 MB is not enough for the records). Folders of
 * earlier runs whose process is gone are removed first. Open to all with the sticky bit, as /tmp is. Undefined
 * elsewhere: the run then uses the system's temp.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';

const RAM = '/dev/shm';
const TMPFS_MAGIC = 0x01021994;
const NEEDED_BYTES = 2 * 1024 ** 3;
const PREFIX = 'omni-test-';

export function ramTempFolder({ ram = RAM, mounts = '/proc/mounts' } = {}) {
  if (process.platform !== 'linux') return undefined;
  try {
    const fs = statfsSync(ram);
    if (fs.type !== TMPFS_MAGIC || fs.bavail * fs.bsize < NEEDED_BYTES) return undefined;
    const mount = readFileSync(mounts, 'utf8')
      .split('\n')
      .map((line) => line.split(' '))
      .find(([, point]) => point === ram);
    if (!mount || mount[3].split(',').includes('noexec')) return undefined;
    for (const name of readdirSync(ram)) {
      const pid = Number(name.slice(PREFIX.length).split('-')[0]);
      if (name.startsWith(PREFIX) && pid > 0 && !alive(pid)) rmSync(join(ram, name), { recursive: true, force: true });
    }
    const folder = mkdtempSync(join(ram, `${PREFIX}${process.pid}-`));
    // As /tmp is: the tests that run PostgreSQL as its own user (when run as root) make their folders in it.
    chmodSync(folder, 0o1777);
    return folder;
  } catch {
    return undefined;
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
