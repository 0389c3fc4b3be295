import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript script without types
import { ramTempFolder } from '../../scripts/ram-temp.mjs';

const TMPFS = 0x01021994;
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function mountsFile(line: string) {
  const dir = mkdtempSync(join(tmpdir(), 'mounts-'));
  made.push(dir);
  const file = join(dir, 'mounts');
  writeFileSync(file, `${line}\n`);
  return file;
}

const shmIsTmpfs = (() => {
  try {
    return process.platform === 'linux' && statfsSync('/dev/shm').type === TMPFS;
  } catch {
    return false;
  }
})();

describe('the test run’s temporary folder in RAM', () => {
  it.runIf(statfsSync(process.cwd()).type !== TMPFS)('is not used on a folder that is not tmpfs', () => {
    // The project's folder, not the system's temp: npm test puts that in RAM.
    mkdirSync(join(process.cwd(), '.tmp'), { recursive: true });
    const disk = mkdtempSync(join(process.cwd(), '.tmp', 'disk-'));
    made.push(disk);
    expect(ramTempFolder({ ram: disk, mounts: mountsFile(`/dev/x ${disk} ext4 rw 0 0`) })).toBeUndefined();
  });

  it.runIf(shmIsTmpfs)('is not used where tmpfs is mounted noexec (tests run scripts they write)', () => {
    const mounts = mountsFile('tmpfs /dev/shm tmpfs rw,nosuid,nodev,noexec,relatime 0 0');
    expect(ramTempFolder({ mounts })).toBeUndefined();
  });

  it.runIf(shmIsTmpfs)('is a new folder in /dev/shm, open as /tmp is,, and a dead run’s folder is removed', () => {
    const mounts = mountsFile('tmpfs /dev/shm tmpfs rw,relatime 0 0');
    const stale = '/dev/shm/omni-test-999999999-stale';
    rmSync(stale, { recursive: true, force: true });
    writeFileSync(stale, 'left by a run that was killed');
    const folder = ramTempFolder({ mounts });
    made.push(folder);
    expect(folder).toMatch(new RegExp(`^/dev/shm/omni-test-${process.pid}-`));
    expect(existsSync(folder)).toBe(true);
    expect(statSync(folder).mode & 0o7777).toBe(0o1777);
    expect(existsSync(stale)).toBe(false);
  });
});
