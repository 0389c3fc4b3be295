import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createInterface } from 'node:readline';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { callShell } from '../../helpers/shell-calls';
import { LOCK_FILE, lockDataDir } from '../../../main/web-shell/data-lock';
import { resetWebShellDemoData, startWebShell, type WebShell } from '../../../main/web-shell/index';
import { cliCommand } from '../../helpers/cli-command';

/**
 * Points where a test makes other shells act in the middle of a lock being taken (the file functions are the real ones
 * otherwise): `read` after the lock (or the moved lock) is read and closed, `rename` in place of renaming, `link` in
 * place of linking. Each is used once, then cleared.
 */
const hooks = vi.hoisted(() => ({
  read: undefined as (() => void) | undefined,
  rename: undefined as ((from: string, to: string) => void) | undefined,
  link: undefined as ((from: string, to: string) => void) | undefined,
}));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const once = <K extends keyof typeof hooks>(name: K) => {
    const hook = hooks[name];
    hooks[name] = undefined;
    return hook;
  };
  return {
    ...fs,
    closeSync: (fd: number) => {
      fs.closeSync(fd);
      once('read')?.();
    },
    renameSync: (from: string, to: string) => (once('rename') ?? fs.renameSync)(from, to),
    linkSync: (from: string, to: string) => (once('link') ?? fs.linkSync)(from, to),
  };
});

/** The file functions themselves, for what the other shells do inside a hook. */
const real = await vi.importActual<typeof import('node:fs')>('node:fs');

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJpbnRlcnZpZXdJZCI6InJlc2V0In0.c2lnbmF0dXJlLXJlc2V0';
const parent = mkdtempSync(join(tmpdir(), 'omni-hardening-data-dir-'));
afterAll(() => rm(parent, { recursive: true, force: true }));
let dirs = 0;
const newDataDir = () => join(parent, `data-${++dirs}`);

const call = <T>(shell: WebShell, channel: string, input?: unknown) => callShell<T>(shell.appUrl, channel, input);

describe('one web shell per data folder', () => {
  it('a second shell on the same folder is refused with a message naming it; after the first stops it starts', async () => {
    const dataDir = newDataDir();
    const first = await startWebShell({ port: 0, dataDir });
    try {
      await expect(startWebShell({ port: 0, dataDir })).rejects.toMatchObject({
        code: 'DATA_DIR_IN_USE',
        message: expect.stringContaining(dataDir),
      });
    } finally {
      await first.close();
    }
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    const second = await startWebShell({ port: 0, dataDir });
    await second.close();
  });

  it('a lock held by another running process refuses; one left by a process that is gone is taken over', async () => {
    const held = newDataDir();
    await startWebShell({ port: 0, dataDir: held }).then((s) => s.close());
    writeFileSync(join(held, LOCK_FILE), `${process.ppid}\n`);
    await expect(startWebShell({ port: 0, dataDir: held })).rejects.toMatchObject({ code: 'DATA_DIR_IN_USE' });

    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(join(held, LOCK_FILE), `${gone}\n`);
    const shell = await startWebShell({ port: 0, dataDir: held });
    await shell.close();
  });

  it('of shells started at once exactly one gets the folder, over a fresh folder and over a stale lock (red team 11)', async () => {
    // Four processes, each told to lock at the same moment, twenty times; then each time the holder lets go.
    const takers = Array.from({ length: 4 }, () => lockTaker());
    try {
      await Promise.all(takers.map((t) => t.next()));
      const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
      for (let round = 1; round <= 20; round++) {
        const dataDir = newDataDir();
        mkdirSync(dataDir, { recursive: true });
        if (round % 2 === 0) writeFileSync(join(dataDir, LOCK_FILE), `${gone}\n`);
        for (const t of takers) t.send(`lock ${dataDir}`);
        const answers = await Promise.all(takers.map((t) => t.next()));
        expect(
          answers.filter((a) => a === 'held'),
          `round ${round}: ${answers.join(', ')}`,
        ).toHaveLength(1);
        expect(answers.filter((a) => a !== 'held')).toEqual(Array(3).fill('refused DATA_DIR_IN_USE'));
        const holder = takers[answers.indexOf('held')]!;
        holder.send('release');
        expect(await holder.next()).toBe('released');
        expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
      }
    } finally {
      for (const t of takers) t.child.kill();
    }
  }, 60_000);

  it("a shell's release leaves a lock that is not its own", () => {
    const dataDir = newDataDir();
    mkdirSync(dataDir, { recursive: true });
    const lock = lockDataDir(dataDir);
    // Another shell's lock in its place (a takeover that went wrong elsewhere): not ours to remove.
    writeFileSync(join(dataDir, LOCK_FILE), `${process.ppid}\n`);
    lock.release();
    expect(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).toBe(`${process.ppid}\n`);
  });

  it('a lock path holding no regular file (a dangling symlink, a folder) is a stale lock, not a loop for good (red team 14)', async () => {
    const taker = lockTaker();
    try {
      expect(await within(10_000, taker.next())).toBe('ready');
      const dangling = newDataDir();
      mkdirSync(dangling, { recursive: true });
      symlinkSync(join(dangling, 'nowhere'), join(dangling, LOCK_FILE));
      // Linking over it failed, reading through it found nothing: the shell spun at full CPU and never started.
      taker.send(`lock ${dangling}`);
      expect(await within(10_000, taker.next())).toBe('held');
      expect(lstatSync(join(dangling, LOCK_FILE)).isFile()).toBe(true);
      expect(readFileSync(join(dangling, LOCK_FILE), 'utf8')).toBe(`${taker.child.pid}\n`);
      taker.send('release');
      expect(await within(10_000, taker.next())).toBe('released');
      expect(readdirSync(dangling)).toEqual([]);

      // A folder is moved aside with what it holds, not removed.
      const folder = newDataDir();
      mkdirSync(join(folder, LOCK_FILE), { recursive: true });
      writeFileSync(join(folder, LOCK_FILE, 'kept'), 'x');
      taker.send(`lock ${folder}`);
      expect(await within(10_000, taker.next())).toBe('held');
      expect(readFileSync(join(folder, LOCK_FILE), 'utf8')).toBe(`${taker.child.pid}\n`);
      const aside = readdirSync(folder).filter((name) => name !== LOCK_FILE);
      expect(aside).toHaveLength(1);
      expect(readFileSync(join(folder, aside[0]!, 'kept'), 'utf8')).toBe('x');
    } finally {
      taker.child.kill();
    }
  }, 30_000);

  it('a lock that can be neither created nor read ends in an error naming it, after a bounded number of tries', () => {
    const dataDir = newDataDir();
    mkdirSync(dataDir, { recursive: true });
    // Linking always fails as if a lock were there, and none is to be read: 'gone', again and again.
    let links = 0;
    const refuse = () => {
      if (++links < 1000) hooks.link = refuse;
      throw Object.assign(new Error('EEXIST: file already exists'), { code: 'EEXIST' });
    };
    hooks.link = refuse;
    try {
      expect(() => lockDataDir(dataDir)).toThrow(`The data folder's lock ${join(dataDir, LOCK_FILE)} could neither`);
    } finally {
      hooks.link = undefined;
    }
    expect(links).toBe(100);
  });

  describe('three shells over a stale lock (red team 14)', () => {
    // B (this test) judged the lock stale; A, another shell, takes it over; C, a third, starts in the moment the path
    // is empty. Both are running processes: A the test runner's parent, C a process that sleeps.
    const staleFolder = () => {
      const dataDir = newDataDir();
      mkdirSync(dataDir, { recursive: true });
      const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
      real.writeFileSync(join(dataDir, LOCK_FILE), `${gone}\n`);
      return { dataDir, path: join(dataDir, LOCK_FILE) };
    };
    const aTakesOver = (path: string) => {
      real.renameSync(path, `${path}.a-moved-the-stale-one`);
      real.writeFileSync(path, `${process.ppid}\n`);
      return real.lstatSync(path).ino;
    };
    let c: ReturnType<typeof spawn> | undefined;
    const cCreates = (path: string) => {
      c = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
      real.writeFileSync(path, `${c.pid}\n`, { flag: 'wx' });
    };
    afterAll(() => c?.kill());

    it('a lock taken over after it was judged stale is not moved: A keeps it, B refuses, C never gets a gap', () => {
      const { dataDir, path } = staleFolder();
      let aLock: number | bigint | undefined;
      let renamed = false;
      hooks.read = () => (aLock = aTakesOver(path));
      hooks.rename = (from, to) => {
        renamed = true;
        real.renameSync(from, to);
        cCreates(path);
      };
      try {
        expect(() => lockDataDir(dataDir)).toThrow(
          expect.objectContaining({ code: 'DATA_DIR_IN_USE', pid: process.ppid }),
        );
      } finally {
        hooks.read = hooks.rename = undefined;
      }
      expect(renamed).toBe(false);
      expect(real.lstatSync(path).ino).toBe(aLock);
      expect(readFileSync(path, 'utf8')).toBe(`${process.ppid}\n`);
    });

    it('a lock that replaced the stale one between the check and the rename is put back', () => {
      const { dataDir, path } = staleFolder();
      let aLock: number | bigint | undefined;
      hooks.rename = (from, to) => {
        aLock = aTakesOver(path);
        real.renameSync(from, to);
      };
      try {
        expect(() => lockDataDir(dataDir)).toThrow(
          expect.objectContaining({ code: 'DATA_DIR_IN_USE', pid: process.ppid }),
        );
      } finally {
        hooks.rename = undefined;
      }
      expect(real.lstatSync(path).ino).toBe(aLock);
      expect(readdirSync(dataDir).sort()).toEqual([LOCK_FILE, `${LOCK_FILE}.a-moved-the-stale-one`]);
    });

    it('when it cannot be put back (C made one meanwhile), B refuses naming the shell whose lock it moved', () => {
      const { dataDir, path } = staleFolder();
      hooks.rename = (from, to) => {
        aTakesOver(path);
        real.renameSync(from, to);
        cCreates(path);
      };
      try {
        expect(() => lockDataDir(dataDir)).toThrow(
          expect.objectContaining({ code: 'DATA_DIR_IN_USE', pid: process.ppid }),
        );
      } finally {
        hooks.rename = undefined;
      }
      // A and C both run now: the window that remains (see takeStale); B at least does not make it three, and says so.
      expect(readFileSync(path, 'utf8')).toBe(`${c!.pid}\n`);
    });
  });

  it('the command line says so in words and exits 2', async () => {
    const dataDir = newDataDir();
    const first = await startWebShell({ port: 0, dataDir });
    try {
      const child = spawn(
        process.execPath,
        [...cliCommand('web-shell'), '--no-open', '--port', '0', '--data-dir', dataDir],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(2);
      expect(stderr).toContain(
        `Another Omni Reviewer web shell (process ${process.pid}) is using the data folder ${dataDir}`,
      );
      expect(stderr).toContain('Otro web shell de Omni Reviewer');
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      await first.close();
    }
  }, 30_000);
});

/** The promise's value, or a failure after `ms` (a shell that never answers). */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A process that takes the data lock when told (fixtures/lock-taker.mts), answering line by line. */
function lockTaker() {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('./fixtures/lock-taker.mts', import.meta.url).pathname],
    { stdio: 'pipe' },
  );
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else lines.push(line);
  });
  return {
    child,
    send: (line: string) => child.stdin.write(`${line}\n`),
    next: () =>
      new Promise<string>((resolve) => {
        const line = lines.shift();
        if (line !== undefined) resolve(line);
        else waiting.push(resolve);
      }),
  };
}

describe('reset demo data', () => {
  it('forgets the demo queue, its tokens, drafts and decisions; refused while a shell uses the folder', async () => {
    const dataDir = newDataDir();
    const first = await startWebShell({ port: 0, dataDir });
    // A first run on the demo starts with its interviews in the queue: the reset forgets them too.
    let firstRun: number | undefined;
    let trailBefore: number | undefined;
    try {
      firstRun = (await call<unknown[]>(first, 'queue.list')).length;
      expect(firstRun).toBeGreaterThan(0);
      await call(first, 'settings.acceptWeakStorage');
      await call(first, 'queue.importText', {
        text: `interviewId,sessionToken\nreset-1,${JWT}\nreset-2,`,
        format: 'csv',
      });
      await call(first, 'interview.saveDraft', { interviewId: 'reset-1', kind: 'notes', text: 'Nota de prueba' });
      // Another environment's work, which the reset keeps, as it keeps the audit trail.
      await call(first, 'settings.setActiveEnvironment', { id: 'production' });
      await call(first, 'queue.add', { items: [{ interviewId: 'prod-1' }] });
      await call(first, 'interview.saveDraft', { interviewId: 'prod-1', kind: 'notes', text: 'Nota de producción' });
      await call(first, 'settings.setActiveEnvironment', { id: 'demo' });
      await call(first, 'interview.open', { interviewId: 'reset-1' });
      trailBefore = (await call<{ entries: unknown[] }>(first, 'app.auditTrail', {})).entries.length;
      expect(trailBefore).toBeGreaterThan(0);
      await expect(resetWebShellDemoData(dataDir)).rejects.toMatchObject({ code: 'DATA_DIR_IN_USE' });
    } finally {
      await first.close();
    }
    expect(await resetWebShellDemoData(dataDir)).toEqual({ interviews: (firstRun ?? 0) + 2 });
    const second = await startWebShell({ port: 0, dataDir });
    try {
      expect(await call<unknown[]>(second, 'queue.list')).toEqual([]);
      expect(
        await call<{ notes?: unknown }>(second, 'interview.drafts', { interviewId: 'reset-1' }),
      ).not.toHaveProperty('notes.text');
      await call(second, 'queue.importText', { text: 'interviewId,sessionToken\nreset-1,', format: 'csv' });
      expect(await call<{ interviewId: string; hasSessionToken: boolean }[]>(second, 'queue.list')).toMatchObject([
        { interviewId: 'reset-1', hasSessionToken: false },
      ]);
      // The demo's trail is whole and still verifies; the other environment's queue and draft are as they were.
      const trail = await call<{ entries: unknown[]; chain: { ok: boolean } }>(second, 'app.auditTrail', {});
      expect(trail.entries.length).toBeGreaterThanOrEqual(trailBefore!);
      expect(trail.chain.ok).toBe(true);
      await call(second, 'settings.setActiveEnvironment', { id: 'production' });
      expect(await call<{ interviewId: string }[]>(second, 'queue.list')).toMatchObject([{ interviewId: 'prod-1' }]);
      expect(
        await call<{ notes?: { text: string } }>(second, 'interview.drafts', { interviewId: 'prod-1' }),
      ).toMatchObject({ notes: { text: 'Nota de producción' } });
    } finally {
      await second.close();
    }
    // Three openings of the embedded record (two shells and the reset), each a PGlite start: over 20 s when loaded.
  }, 60_000);
});
