import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callShell } from '../../helpers/shell-calls';
import { LOCK_FILE, lockDataDir } from '../../../main/web-shell/data-lock';
import { resetWebShellDemoData, startWebShell, type WebShell } from '../../../main/web-shell/index';
import { cliCommand } from '../../helpers/cli-command';

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
