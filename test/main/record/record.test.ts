import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSecretSource } from '../../../main/log';
import { recordAuditTrail } from '../../../main/record/audit-records';
import { DecisionRecords } from '../../../main/record/decision-records';
import { DraftRecords } from '../../../main/record/draft-records';
import { openRecord, type OpenRecord } from '../../../main/record/open';
import { QueueRecords } from '../../../main/record/queue-records';
import { reviewRecord } from '../../../main/record/index';
import type { QueueFilter } from '../../../common/ipc/queue';
import type { RecordNotice } from '../../../common/team-review';
import { ENGINES, engineFactory } from '../../helpers/record-engines';

describe.each(ENGINES)('the review record on the %s engine', (kind) => {
  const engines = engineFactory(kind);
  let record: OpenRecord;
  beforeAll(async () => {
    record = await openRecord(await engines.fresh());
  }, 60_000);
  afterAll(async () => {
    await record?.close();
    await engines.dispose();
  });

  it('keeps a queue per environment, in the order entries were added, with every field', async () => {
    const queue = new QueueRecords(record.db);
    await queue.put('demo', [
      { interviewId: 'b', addedAt: '2026-11-25T09:00:00.000Z', localState: 'toReview' },
      {
        interviewId: 'a',
        addedAt: '2026-11-25T09:00:00.000Z',
        localState: 'inReview',
        label: 'Ana',
        labelEs: 'Ana (es)',
        sessionStatus: 'Alive',
        sessionStatusSeenAt: '2026-11-25T09:01:00.123Z',
      },
      { interviewId: 'c', addedAt: '2026-11-24T09:00:00.000Z', localState: 'decided' },
    ]);
    await queue.put('production', [{ interviewId: 'a', addedAt: '2026-11-20T00:00:00.000Z', localState: 'toReview' }]);
    expect((await queue.list('demo')).map((e) => e.interviewId)).toEqual(['c', 'a', 'b']);
    expect(await queue.get('demo', 'a')).toEqual({
      interviewId: 'a',
      addedAt: '2026-11-25T09:00:00.000Z',
      localState: 'inReview',
      label: 'Ana',
      labelEs: 'Ana (es)',
      sessionStatus: 'Alive',
      sessionStatusSeenAt: '2026-11-25T09:01:00.123Z',
    });
    expect((await queue.get('production', 'a'))?.localState).toBe('toReview');

    await queue.put('demo', [{ interviewId: 'b', addedAt: '2026-11-25T09:00:00.000Z', localState: 'decided' }]);
    expect((await queue.get('demo', 'b'))?.localState).toBe('decided');
    expect((await queue.remove('demo', 'c'))?.interviewId).toBe('c');
    expect(await queue.remove('demo', 'c')).toBeUndefined();
    expect([...(await queue.getMany('demo', ['a', 'b', 'zz'])).keys()].sort()).toEqual(['a', 'b']);
    expect(await queue.clear('demo')).toHaveLength(2);
    expect(await queue.list('production')).toHaveLength(1);
  });

  it('adds 12,000 entries in one call (more rows than one statement takes)', async () => {
    const queue = new QueueRecords(record.db);
    const entries = Array.from({ length: 12_000 }, (_, i) => ({
      interviewId: `bulk-${String(i).padStart(5, '0')}`,
      addedAt: '2026-11-25T10:00:00.000Z',
      localState: 'toReview' as const,
    }));
    await queue.put('bulk', entries);
    const listed = await queue.list('bulk');
    expect(listed).toHaveLength(12_000);
    expect(listed.at(-1)?.interviewId).toBe('bulk-11999');
  });

  it('keeps drafts per field until removed, with the last error', async () => {
    const drafts = new DraftRecords(record.db);
    await drafts.put('demo', 'i1', 'notes', { text: 'ID legible', updatedAt: '2026-11-25T09:00:00.000Z' });
    const lastError = { code: 'OMNI_HTTP', message: { en: 'Down', es: 'Caído' }, at: '2026-11-25T09:00:01.000Z' };
    await drafts.put('demo', 'i1', 'name', { text: 'Ana María', updatedAt: '2026-11-25T09:00:00.000Z', lastError });
    await drafts.put('demo', 'i1', 'notes', {
      text: 'ID legible; rostro coincide',
      updatedAt: '2026-11-25T09:00:02.000Z',
    });
    expect(await drafts.get('demo', 'i1')).toEqual({
      notes: { text: 'ID legible; rostro coincide', updatedAt: '2026-11-25T09:00:02.000Z' },
      name: { text: 'Ana María', updatedAt: '2026-11-25T09:00:00.000Z', lastError },
    });
    await drafts.put('demo', 'i1', 'notes', undefined);
    expect(Object.keys(await drafts.get('demo', 'i1'))).toEqual(['name']);
    expect(await drafts.get('production', 'i1')).toEqual({});
  });

  it('keeps every decision of an interview, the last one on top', async () => {
    const decisions = new DecisionRecords(record.db);
    const first = {
      decision: 'approve' as const,
      reason: 'OK',
      acknowledgedFindings: ['checkFraudRisk (HIGH, 0.91)'],
      decidedAt: '2026-11-25T09:00:00.000Z',
      environment: 'demo',
      status: 'final' as const,
    };
    await decisions.add('i1', first);
    await decisions.add('i1', { ...first, decision: 'reject', reason: 'Screen photo', acknowledgedFindings: [] });
    expect((await decisions.last('demo', 'i1'))?.decision).toBe('reject');
    // Who decided is the database's login, not something the app says.
    expect(await decisions.all('demo', 'i1')).toEqual([
      { ...first, decidedBy: 'postgres' },
      expect.objectContaining({ decision: 'reject', status: 'final' }),
    ]);
    expect(await decisions.last('production', 'i1')).toBeUndefined();
  });

  it('chains the audit trail, also when twenty appends race, and verifies it', async () => {
    let env = 'demo';
    const audit = recordAuditTrail(record.db, () => env);
    // After the entries the database wrote for the decisions above (migration 0013).
    const before = (await audit.latest())?.seq ?? 0;
    const first = await audit.append({ interviewId: 'i1', action: 'opened', detail: {} });
    expect(first.seq).toBe(before + 1);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => audit.append({ interviewId: `r${i}`, action: 'noted', detail: { i } })),
    );
    env = 'production';
    await audit.append({ interviewId: 'i1', action: 'opened', detail: { nested: { b: 1, a: [1, 'x'] } } });
    const all = (await audit.list()).filter((e) => e.seq > before);
    expect(all.map((e) => e.seq)).toEqual(Array.from({ length: 22 }, (_, i) => before + i + 1));
    for (let i = 1; i < all.length; i++) expect(all[i]!.prevHash).toBe(all[i - 1]!.hash);
    expect(await audit.verify()).toEqual({ ok: true });
    expect((await audit.list({ interviewId: 'i1', action: 'opened' })).map((e) => e.environment)).toEqual([
      'demo',
      'production',
    ]);
    const opened = await audit.lastRecorded('opened', 'demo');
    expect(opened('i1')).toBe(first.at);
    expect(opened('r1')).toBeUndefined();
    // Asked for one interview, it answers for that one only.
    const one = await audit.lastRecorded('opened', 'demo', ['i1']);
    expect(one('i1')).toBe(first.at);
    expect((await audit.lastRecorded('noted', 'demo', ['r1']))('r2')).toBeUndefined();
    expect((await audit.lastRecorded('noted', 'demo', ['r1']))('r1')).toBeDefined();
  });

  it('refuses to change or remove an audit entry, whoever asks', async () => {
    const audit = recordAuditTrail(record.db, () => 'demo');
    await audit.append({ action: 'validated', detail: {} });
    await expect(sql`update audit_entries set action = 'forged'`.execute(record.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_entries`.execute(record.db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate audit_entries`.execute(record.db)).rejects.toThrow(/append-only/);
    expect(await audit.verify()).toEqual({ ok: true });
  });

  it('has one user holding every team role, who claims, takes the oldest free interview and decides alone', async () => {
    const { claims, teamSettings, decisions, queue, readings } = reviewRecord(record);
    expect(await teamSettings.whoAmI()).toEqual({ user: 'postgres', roles: ['reviewer', 'supervisor', 'admin'] });
    await queue.put('claims', [
      { interviewId: 'x2', addedAt: '2026-11-25T09:00:02.000Z', localState: 'toReview' },
      { interviewId: 'x1', addedAt: '2026-11-25T09:00:01.000Z', localState: 'decided' },
      { interviewId: 'x3', addedAt: '2026-11-25T09:00:03.000Z', localState: 'toReview' },
    ]);
    expect(await claims.takeNext('claims')).toMatchObject({ interviewId: 'x2', holder: 'postgres' });
    expect((await claims.takeNext('claims'))?.interviewId).toBe('x3');
    expect(await claims.takeNext('claims')).toBeUndefined();
    expect((await claims.holders('claims')).map((c) => c.interviewId)).toEqual(['x2', 'x3']);
    await claims.release('claims', 'x2');
    expect((await claims.takeNext('claims'))?.interviewId).toBe('x2');
    await claims.release('claims', 'x2');
    await claims.release('claims', 'x3');
    // Within a view: its risk and search narrow what is taken; its holder filter does not (taking is of free ones).
    await readings.add('claims', 'x3', 'high', []);
    const view = (filter: Partial<QueueFilter>, search = '') => ({
      filter: { state: 'all', status: 'all', ...filter } as QueueFilter,
      search,
    });
    expect((await claims.takeNext('claims', view({ risk: 'high', holder: 'mine' })))?.interviewId).toBe('x3');
    expect(await claims.takeNext('claims', view({ risk: 'high' }))).toBeUndefined();
    expect(await claims.takeNext('claims', view({}, 'x3'))).toBeUndefined();
    expect(await claims.takeNext('claims', view({ state: 'decided' }))).toBeUndefined();
    expect((await claims.takeNext('claims', view({}, 'X2')))?.interviewId).toBe('x2');
    // The single user has nobody to confirm with: its high-risk approval may be final.
    await decisions.add('x2', {
      decision: 'approve',
      reason: 'OK',
      acknowledgedFindings: ['checkFraudRisk (HIGH, 0.91)'],
      decidedAt: '2026-11-25T09:00:00.000Z',
      environment: 'claims',
      status: 'final',
    });
    expect((await decisions.last('claims', 'x2'))?.status).toBe('final');
  });

  it('announces a claim and a decision to its subscribers within half a second', async () => {
    const heard: (RecordNotice & { ms: number })[] = [];
    let since = 0;
    const stop = record.events.subscribe((n) => heard.push({ ...n, ms: performance.now() - since }));
    const { claims, decisions } = reviewRecord(record);
    await record.events.listening();
    since = performance.now();
    await claims.claim('notices', 'n1');
    await expect.poll(() => heard.length, { timeout: 2_000, interval: 5 }).toBe(1);
    expect(heard[0]).toMatchObject({ table: 'claims', environment: 'notices', interviewId: 'n1', kind: 'claimed' });
    expect(heard[0]!.ms).toBeLessThan(500);
    await decisions.add('n1', {
      decision: 'reject',
      reason: 'Screen photo',
      acknowledgedFindings: [],
      decidedAt: '2026-11-25T09:00:00.000Z',
      environment: 'notices',
      status: 'final',
    });
    await claims.release('notices', 'n1');
    await expect
      .poll(() => heard.map((n) => `${n.table}:${n.kind}`), { timeout: 2_000 })
      .toEqual(['claims:claimed', 'decisions:final', 'claims:released']);
    stop();
  });

  it('names the writer of new audit entries and still verifies entries written before it did', async () => {
    const audit = recordAuditTrail(record.db, () => 'demo');
    const entry = await audit.append({ interviewId: 'w1', action: 'opened', detail: {} });
    expect(entry.actor).toBe('postgres');
    expect((await audit.list({ interviewId: 'w1' }))[0]?.actor).toBe('postgres');
    expect(await audit.verify()).toEqual({ ok: true });
  });

  it('keeps no held secret on the trail, whatever an entry’s detail carries (red team 18: a folio echoing the key)', async () => {
    const key = 'ak-live-trail-9c1d5e2b4a60';
    registerSecretSource({ knownSecrets: () => [key] });
    const audit = recordAuditTrail(record.db, () => 'demo');
    const entry = await audit.append({ interviewId: 'w2', action: 'signed', detail: { folio: `F-1-${key}` } });
    expect(JSON.stringify(entry)).not.toContain(key);
    expect(entry.detail.folio).toBe('F-1-[redacted]');
    expect(await audit.verify()).toEqual({ ok: true });
    // A short one (a server token may be one character) never rewrites a hash or a folio (red team 19).
    registerSecretSource({ knownSecrets: () => ['beef'] });
    const hash = 'deadbeef'.repeat(8);
    const kept = await audit.append({ interviewId: 'w2', action: 'downloaded', detail: { what: 'x', sha256: hash } });
    expect(kept.detail.sha256).toBe(hash);
  });
});
