import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { canonicalJson, entryHash, GENESIS_HASH, openAuditTrail, type AuditTrailOptions } from '../../main/audit-trail';
import type { AuditEntry } from '../../common/views';
import type { Logger } from '../../main/log';
import { MemoryJsonStore } from '../helpers/fake-safe-storage';

const memoryStore = () => new MemoryJsonStore();

const dirs: string[] = [];
let path: string;
const log = { warn: vi.fn(), info: vi.fn(), error: vi.fn(), debug: vi.fn() } as unknown as Logger & {
  warn: ReturnType<typeof vi.fn>;
};

beforeEach(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'omni-audit-'));
  dirs.push(dir);
  path = join(dir, 'audit-trail.jsonl');
  vi.mocked(log.warn).mockClear();
});
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const open = (more: Partial<AuditTrailOptions> = {}) =>
  openAuditTrail({ path, environment: () => 'demo', log, ...more });
const fileLines = async () => (await readFile(path, 'utf8')).split('\n').filter((l) => l !== '');
const writeLines = (lines: string[]) => writeFile(path, lines.map((l) => `${l}\n`).join(''));

describe('audit trail', () => {
  it('chains entries with SHA-256 from the genesis hash, one line each in its file, and filters by interview', async () => {
    let t = Date.parse('2026-01-01T00:00:00Z');
    const trail = open({ now: () => (t += 1000) });
    const a = await trail.append({ interviewId: 'i1', action: 'opened', detail: {} });
    const b = await trail.append({ interviewId: 'i2', action: 'played', detail: { at: 3.5 } });
    const c = await trail.append({
      interviewId: 'i1',
      action: 'decided',
      detail: { decision: 'approve', reason: 'ok' },
    });
    expect(a).toMatchObject({ seq: 1, prevHash: GENESIS_HASH, environment: 'demo', at: '2026-01-01T00:00:01.000Z' });
    expect(b.prevHash).toBe(a.hash);
    expect(c.prevHash).toBe(b.hash);
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await trail.list({ interviewId: 'i1' })).map((e) => e.seq)).toEqual([1, 3]);
    expect(await trail.verify()).toEqual({ ok: true });
    expect((await fileLines()).map((l) => JSON.parse(l) as AuditEntry)).toEqual([a, b, c]);
  });

  it('knows when each interview last had an action recorded, per environment, across a restart and a write by another process', async () => {
    let t = Date.parse('2026-01-01T00:00:00Z');
    let env = 'demo';
    const trail = open({ now: () => (t += 1000), environment: () => env });
    await trail.append({ interviewId: 'i1', action: 'opened', detail: {} });
    await trail.append({ interviewId: 'i1', action: 'noted', detail: { text: 'x' } });
    await trail.append({ interviewId: 'i1', action: 'opened', detail: {} });
    env = 'production';
    await trail.append({ interviewId: 'i1', action: 'opened', detail: {} });
    const demoOpened = await trail.lastRecorded('opened', 'demo');
    expect(demoOpened('i1')).toBe('2026-01-01T00:00:03.000Z');
    expect(demoOpened('i2')).toBeUndefined();
    expect((await trail.lastRecorded('opened', 'production'))('i1')).toBe('2026-01-01T00:00:04.000Z');
    expect((await trail.lastRecorded('noted', 'demo'))('i1')).toBe('2026-01-01T00:00:02.000Z');

    // Another process (or the next start) sees the same, and this one sees what the other appended.
    const other = open({ now: () => (t += 1000), environment: () => 'demo' });
    expect((await other.lastRecorded('opened', 'demo'))('i1')).toBe('2026-01-01T00:00:03.000Z');
    await other.append({ interviewId: 'i2', action: 'opened', detail: {} });
    expect((await trail.lastRecorded('opened', 'demo'))('i2')).toBe('2026-01-01T00:00:05.000Z');
  });

  it('a look at the file while an entry is being written does not read that entry back twice', async () => {
    const trail = open();
    for (let i = 1; i <= 3; i++) {
      let written = false;
      const appending = trail
        .append({ interviewId: 'i1', action: 'opened', detail: { i } })
        .finally(() => (written = true));
      // Another call looking at the trail meanwhile (an interview's audit panel, Settings, the queue's opening times).
      while (!written) {
        await trail.list();
        await new Promise((resolve) => setImmediate(resolve));
      }
      await appending;
    }
    expect((await trail.list()).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect((await trail.list({ interviewId: 'i1' })).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(await trail.verify()).toEqual({ ok: true });
  });

  it('serializes concurrent appends into one unbroken chain', async () => {
    const trail = open();
    await Promise.all(Array.from({ length: 25 }, (_, i) => trail.append({ action: 'noted', detail: { i } })));
    const entries = await trail.list();
    expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(await trail.verify()).toEqual({ ok: true });
  });

  it('continues the same chain after a restart', async () => {
    const first = open();
    await first.append({ interviewId: 'i1', action: 'opened', detail: {} });
    const second = open();
    const next = await second.append({ interviewId: 'i1', action: 'noted', detail: { text: 'x' } });
    expect(next.seq).toBe(2);
    expect((await second.list({ interviewId: 'i1' })).map((e) => e.action)).toEqual(['opened', 'noted']);
    expect(await second.verify()).toEqual({ ok: true });
  });

  it('a caller cannot change what the trail holds by editing what it listed', async () => {
    const trail = open();
    await trail.append({ action: 'decided', detail: { decision: 'approve' } });
    const [listed] = await trail.list();
    expect(() => ((listed!.detail as Record<string, unknown>).decision = 'reject')).toThrow();
    expect(await trail.verify()).toEqual({ ok: true });
  });

  it.each([
    ['an edited detail', (lines: string[]) => void (lines[1] = lines[1]!.replace('"approve"', '"reject"'))],
    ['a removed entry', (lines: string[]) => void lines.splice(1, 1)],
    [
      'a re-hashed edit that breaks the next link',
      (lines: string[]) =>
        void (lines[1] = JSON.stringify({ ...(JSON.parse(lines[1]!) as object), hash: 'f'.repeat(64) })),
    ],
    ['reordered entries', (lines: string[]) => void lines.reverse()],
    ['a line that is not an entry', (lines: string[]) => void (lines[1] = '{"seq":2')],
  ])(
    'verify() reports %s at the first broken link, also when the file is edited while the app runs',
    async (_name, tamper) => {
      const trail = open();
      for (const decision of ['approve', 'approve', 'approve'])
        await trail.append({ action: 'decided', detail: { decision } });
      expect(await trail.verify()).toEqual({ ok: true });
      const lines = await fileLines();
      tamper(lines);
      await writeLines(lines);
      for (const reader of [trail, open()]) {
        const result = await reader.verify();
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.brokenAt).toBeLessThanOrEqual(2);
      }
    },
  );

  it('a trail read at start is checked in the background; verify() finds the same break before or after that check', async () => {
    const lines: string[] = [];
    let prevHash = GENESIS_HASH;
    for (let seq = 1; seq <= 2_500; seq++) {
      const body = {
        seq,
        at: '2026-01-01T00:00:00.000Z',
        environment: 'demo',
        action: 'noted' as const,
        detail: { i: seq },
        prevHash,
      };
      prevHash = entryHash(body);
      lines.push(JSON.stringify({ ...body, hash: prevHash }));
    }
    lines[2_200] = lines[2_200]!.replace('"i":2201', '"i":-1');
    await writeLines(lines);

    expect(await open().verify()).toEqual({ ok: false, brokenAt: 2_201 });
    const later = open();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await later.verify()).toEqual({ ok: false, brokenAt: 2_201 });
  });

  it('sees the entries another process appended before chaining its own', async () => {
    const mine = open();
    const other = open();
    await mine.append({ action: 'noted', detail: { by: 'mine' } });
    await other.append({ action: 'noted', detail: { by: 'other' } });
    const third = await mine.append({ action: 'noted', detail: { by: 'mine' } });
    expect(third.seq).toBe(3);
    expect(await mine.verify()).toEqual({ ok: true });
    expect((await mine.list()).map((e) => e.detail.by)).toEqual(['mine', 'other', 'mine']);
  });

  it('an entry cut short by a crash is set aside at start, so the trail still verifies and goes on', async () => {
    const trail = open();
    await trail.append({ action: 'noted', detail: { n: 1 } });
    await writeFile(path, '{"seq":2,"at":"2026', { flag: 'a' });
    const restarted = open();
    expect(await restarted.verify()).toEqual({ ok: true });
    expect(log.warn).toHaveBeenCalledTimes(1);
    const [message, fields] = log.warn.mock.calls[0] as [string, { setAsideAs: string }];
    expect(message).toMatch(/unfinished entry/);
    expect(await readFile(fields.setAsideAs, 'utf8')).toBe('{"seq":2,"at":"2026');
    const next = await restarted.append({ action: 'noted', detail: { n: 2 } });
    expect(next.seq).toBe(2);
    expect(await fileLines()).toHaveLength(2);
    expect(await open().verify()).toEqual({ ok: true });
  });

  it('a whole last entry that lost only its newline is kept', async () => {
    const trail = open();
    const entry = await trail.append({ action: 'noted', detail: {} });
    await writeFile(path, JSON.stringify(entry));
    const restarted = open();
    expect(await restarted.list()).toEqual([entry]);
    expect((await restarted.append({ action: 'noted', detail: {} })).seq).toBe(2);
    expect(await restarted.verify()).toEqual({ ok: true });
    expect(log.warn).not.toHaveBeenCalled();
  });

  it('moves a trail kept in the settings file by earlier versions to its own file, chain intact', async () => {
    const store = memoryStore();
    const old = open({ path: join(path, '..', 'old.jsonl') });
    await old.append({ interviewId: 'i1', action: 'opened', detail: {} });
    await old.append({ interviewId: 'i1', action: 'decided', detail: { decision: 'approve' } });
    store.set('auditTrail', await old.list());
    store.set('review.queue.demo', { kept: true });

    const trail = open({ legacyStore: store });
    expect(store.data.has('auditTrail')).toBe(false);
    expect(store.data.has('review.queue.demo')).toBe(true);
    expect(await trail.list()).toEqual(await old.list());
    expect((await trail.append({ interviewId: 'i1', action: 'noted', detail: {} })).seq).toBe(3);
    expect(await trail.verify()).toEqual({ ok: true });
    expect((await readdir(join(path, '..'))).sort()).toEqual(['audit-trail.jsonl', 'old.jsonl']);
  });

  it('finishes a move the app stopped in the middle of: the trail file already holds the settings file’s entries', async () => {
    const store = memoryStore();
    const first = open();
    await first.append({ action: 'noted', detail: {} });
    store.set('auditTrail', await first.list());
    await first.append({ action: 'noted', detail: {} });
    const reopened = open({ legacyStore: store });
    expect(store.get('auditTrail')).toBeUndefined();
    expect(await reopened.list()).toHaveLength(2);
    expect(log.warn).not.toHaveBeenCalled();
  });

  it('leaves an older version’s trail in the settings file alone when the trail file already has entries', async () => {
    const store = memoryStore();
    const trail = open();
    await trail.append({ action: 'noted', detail: {} });
    store.set('auditTrail', [{ seq: 1 }]);
    const reopened = open({ legacyStore: store });
    expect(store.get('auditTrail')).toEqual([{ seq: 1 }]);
    expect(await reopened.list()).toHaveLength(1);
    expect(log.warn).toHaveBeenCalledWith(expect.stringMatching(/older version/), expect.anything());
  });

  it('hashes the same content the same way whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}',
    );
  });
});
