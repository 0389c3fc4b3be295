import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../main/log';
import { openRecord, recordForApp, type OpenRecord } from '../../../main/record/index';
import { PENDING_WRITES_KEY, type PendingWrite } from '../../../main/record/while-away';
import { DraftStore } from '../../../main/review/drafts';
import { MemoryJsonStore } from '../../helpers/fake-safe-storage';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';

const quiet = createLogger({ level: 'error', sink: () => undefined });

async function until(check: () => boolean | Promise<boolean>, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the team database goes away mid-session', () => {
  let server: TestPostgres;
  let open: OpenRecord;
  let database: string;
  beforeAll(async () => {
    server = await startPostgres();
    database = await server.createDatabase('away');
    open = await openRecord({
      kind: 'team',
      host: server.host,
      port: server.port,
      user: server.user,
      database,
      tls: 'disable',
    });
  }, 60_000);
  afterAll(async () => {
    await open?.close();
    await server?.stop();
  });

  it('keeps what is typed and decided on this computer, says so, and sends it once, in order, when it is back', async () => {
    const store = new MemoryJsonStore();
    let clock = Date.parse('2026-11-25T12:00:00.000Z');
    const now = () => clock;
    const app = recordForApp(open, { environment: () => 'demo', store, log: quiet, now, probeEveryMs: 100 });
    const drafts = new DraftStore(
      app.record.drafts,
      () => 'demo',
      () => new Date(clock),
    );
    await app.record.queue.put('demo', [
      { interviewId: 'a', addedAt: '2026-11-25T09:00:00.000Z', localState: 'inReview' },
    ]);
    await drafts.save('a', 'notes', 'typed before');
    await drafts.save('a', 'decisionReason', 'looks right');
    expect(await app.record.queue.get('demo', 'a')).toBeDefined();
    expect(app.record.link()).toEqual({ away: false, pendingWrites: 0 });

    server.pause();
    clock += 60_000;
    // Typing goes on: the draft is saved, and reading the drafts of what is open still answers.
    expect(await drafts.save('a', 'notes', 'typed while away')).toMatchObject({
      notes: { text: 'typed while away' },
      decisionReason: { text: 'looks right' },
    });
    expect(app.record.link()).toMatchObject({ away: true, since: '2026-11-25T12:01:00.000Z', pendingWrites: 1 });
    // A decision needs the database's yes before its note may go to the service: refused while away, not kept (its
    // reason stays a draft), so nothing is ever sent that the database would refuse.
    await expect(
      app.record.decisions.add('a', {
        decision: 'approve',
        reason: 'looks right',
        acknowledgedFindings: [],
        decidedAt: new Date(clock).toISOString(),
        environment: 'demo',
        status: 'final',
      }),
    ).rejects.toMatchObject({ data: { code: 'RECORD_AWAY', retryable: true } });
    await expect(app.record.writes.begin('demo', 'a', 'notes', 'typed while away')).rejects.toMatchObject({
      data: { code: 'RECORD_AWAY' },
    });
    const entry = (await app.record.queue.get('demo', 'a'))!;
    await app.record.queue.put('demo', [{ ...entry, localState: 'decided' }]);
    const provisional = await app.audit.append({
      interviewId: 'a',
      action: 'decided',
      detail: { decision: 'approve' },
    });
    expect(provisional).toMatchObject({ seq: 0, hash: '' });
    expect((await app.record.queue.get('demo', 'a'))?.localState).toBe('decided');
    await drafts.confirmSent('a', 'decisionReason', 'looks right');

    // What only the record can answer says so, in both languages, and can be retried.
    await expect(app.record.queue.list('demo')).rejects.toMatchObject({
      data: { code: 'RECORD_AWAY', retryable: true },
    });
    const view = { filter: { state: 'all', status: 'all' }, sort: 'added', search: '' } as const;
    for (const read of [
      app.record.queue.page('demo', view, undefined, 50),
      app.record.queue.counts('demo'),
      app.record.queue.neighbours('demo', 'a', view),
    ])
      await expect(read).rejects.toMatchObject({ data: { code: 'RECORD_AWAY' } });
    // A claim is worth only what the database says now: refused, not kept. The team's rules, read at start, answer
    // as last read, so a decision made now still knows whether it needs a second reviewer.
    await expect(app.record.claims.takeNext('demo')).rejects.toMatchObject({ data: { code: 'RECORD_AWAY' } });
    await expect(app.record.claims.claim('demo', 'a')).rejects.toMatchObject({ data: { code: 'RECORD_AWAY' } });
    expect(await app.record.teamSettings.get()).toEqual({
      fourEyes: 'high-risk-approvals',
      targetHours: 24,
      leaseMinutes: 15,
    });
    // The waiting writes are on disk (the settings file), in the order they were made, without a secret.
    const kept = store.get<PendingWrite[]>(PENDING_WRITES_KEY)!;
    expect(kept.map((w) => w.kind)).toEqual(['draft', 'queue', 'audit', 'draft']);
    expect(app.record.link()).toMatchObject({ away: true, pendingWrites: 4 });

    clock += 60_000;
    server.resume();
    await until(() => !app.record.link().away);
    expect(app.record.link()).toEqual({ away: false, pendingWrites: 0 });
    expect(store.get(PENDING_WRITES_KEY)).toBeUndefined();

    // Once each, as made: the draft's newest text, the decided state, one audit entry as of its time; no decision.
    expect(await open.db.selectFrom('drafts').select(['kind', 'text']).execute()).toEqual([
      { kind: 'notes', text: 'typed while away' },
    ]);
    expect(await open.db.selectFrom('decisions').select('decision').execute()).toEqual([]);
    expect((await app.record.queue.get('demo', 'a'))?.localState).toBe('decided');
    const trail = await app.audit.list({ interviewId: 'a' });
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ action: 'decided', at: '2026-11-25T12:01:00.000Z', seq: 1 });
    expect(await app.audit.verify()).toEqual({ ok: true });
    await app.stop();
  }, 60_000);

  it('writes left waiting by a run that ended while the database was away go out at the next start', async () => {
    const store = new MemoryJsonStore();
    const first = recordForApp(open, { environment: () => 'demo', store, log: quiet, probeEveryMs: 100 });
    server.pause();
    await first.record.drafts.put('demo', 'b', 'notes', { text: 'left behind', updatedAt: '2026-11-25T13:00:00.000Z' });
    expect(first.record.link()).toMatchObject({ away: true, pendingWrites: 1 });
    await first.stop();
    server.resume();

    const next = recordForApp(open, { environment: () => 'demo', store, log: quiet, probeEveryMs: 100 });
    await next.resume();
    await until(() => next.record.link().pendingWrites === 0);
    expect(next.record.link()).toEqual({ away: false, pendingWrites: 0 });
    expect(await next.record.drafts.get('demo', 'b')).toMatchObject({ notes: { text: 'left behind' } });
    await next.stop();
  }, 60_000);

  it('a write the record refuses for good is kept aside and does not hold back the ones behind it', async () => {
    const store = new MemoryJsonStore();
    const app = recordForApp(open, { environment: () => 'demo', store, log: quiet, probeEveryMs: 100 });
    store.set(PENDING_WRITES_KEY, [
      {
        kind: 'draft',
        environment: 'demo',
        interviewId: 'c',
        draftKind: 'notes',
        draft: { text: 'x', updatedAt: 'not a time' },
      },
      {
        kind: 'draft',
        environment: 'demo',
        interviewId: 'c',
        draftKind: 'decisionReason',
        draft: { text: 'kept', updatedAt: '2026-11-25T13:00:00.000Z' },
      },
    ] satisfies PendingWrite[]);
    await app.resume();
    expect(app.record.link()).toEqual({ away: false, pendingWrites: 0 });
    expect(await app.record.drafts.get('demo', 'c')).toEqual({
      decisionReason: { text: 'kept', updatedAt: '2026-11-25T13:00:00.000Z' },
    });
    expect(store.get<PendingWrite[]>('record.refusedWrites')).toHaveLength(1);
    await app.stop();
  });
});
