import { sql } from 'kysely';
import pg from 'pg';
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

  describe('a transaction another session leaves open', () => {
    const team = () => ({
      kind: 'team' as const,
      host: server.host,
      port: server.port,
      database,
      tls: 'disable' as const,
    });
    /** A login's session holding the trail's lock in a transaction it leaves open, as a decision's would. */
    async function holdTheTrail(user: string) {
      const session = new pg.Client({ host: server.host, port: server.port, user, database });
      session.on('error', () => undefined);
      await session.connect();
      await session.query('begin');
      await session.query('select pg_advisory_xact_lock(151151)');
      return session;
    }

    it('a change waits its most, then says whose session holds the trail; nothing is recorded; it goes through after', async () => {
      await server.asSuperuser(database, 'create role beto login in role omni_reviewer');
      const waiting = await openRecord({
        ...team(),
        user: server.user,
        waits: { lockMs: 300, idleInTransactionMs: 60_000 },
      });
      const app = recordForApp(waiting, { environment: () => 'production', store: new MemoryJsonStore(), log: quiet });
      await app.record.claims.claim('production', 'held-up');
      const entries = async () => (await app.audit.list({ interviewId: 'held-up' })).length;
      const before = await entries();
      const beto = await holdTheTrail('beto');
      try {
        const busy = {
          data: {
            code: 'RECORD_BUSY',
            retryable: true,
            details: { holders: ['beto'] },
            message: { en: expect.stringContaining('beto'), es: expect.stringContaining('beto') },
          },
        };
        await expect(app.audit.append({ interviewId: 'held-up', action: 'opened', detail: {} })).rejects.toMatchObject(
          busy,
        );
        await expect(
          app.record.decisions.add('held-up', {
            decision: 'approve',
            reason: 'looks right',
            acknowledgedFindings: [],
            decidedAt: new Date().toISOString(),
            environment: 'production',
            status: 'final',
          }),
        ).rejects.toMatchObject(busy);
        // Not taken for the database being away: nothing kept to send later, nothing recorded.
        expect(app.record.link()).toEqual({ away: false, pendingWrites: 0 });
        expect(await app.record.decisions.last('production', 'held-up')).toBeUndefined();
      } finally {
        await beto.query('rollback');
        await beto.end();
      }
      expect(await entries()).toBe(before);
      await app.audit.append({ interviewId: 'held-up', action: 'opened', detail: {} });
      expect(await entries()).toBe(before + 1);
      await app.stop();
      await waiting.close();
    }, 60_000);

    /** A new reviewer login's own session, as psql would open it; its caller ends it. */
    async function sessionOfNew(login: string): Promise<pg.Client> {
      await server.asSuperuser(database, `create role ${login} login in role omni_reviewer`);
      const session = new pg.Client({ host: server.host, port: server.port, user: login, database });
      session.on('error', () => undefined);
      await session.connect();
      return session;
    }

    /**
     * An app that waits 300 ms for a lock, while a new reviewer login's own session holds what `hold` takes (a psql
     * session left as it is); the session is ended after `attempt`.
     */
    async function whileAnotherHolds(
      login: string,
      hold: (session: pg.Client, app: ReturnType<typeof recordForApp>) => Promise<unknown>,
      attempt: (app: ReturnType<typeof recordForApp>) => Promise<void>,
    ) {
      const session = await sessionOfNew(login);
      const waiting = await openRecord({
        ...team(),
        user: server.user,
        waits: { lockMs: 300, idleInTransactionMs: 60_000 },
      });
      const app = recordForApp(waiting, { environment: () => 'production', store: new MemoryJsonStore(), log: quiet });
      try {
        await hold(session, app);
        await attempt(app);
      } finally {
        await session.end();
        await app.stop();
        await waiting.close();
      }
    }
    const typed = () => ({ text: 'typed', updatedAt: new Date().toISOString() });

    it('a table locked by another login (LOCK TABLE, which deleting from it allows) is named as that login, too', async () => {
      // Hugo holds the trail's lock meanwhile: a draft takes no trail lock, so he is not named (red team 23).
      const hugo = await sessionOfNew('hugo');
      try {
        await hugo.query('begin');
        await hugo.query('select pg_advisory_xact_lock(151151)');
        await whileAnotherHolds(
          'carla',
          async (carla) => {
            await carla.query('begin');
            await carla.query('lock table drafts in exclusive mode');
          },
          async (app) =>
            expect(app.record.drafts.put('production', 'locked-out', 'notes', typed())).rejects.toMatchObject({
              data: { code: 'RECORD_BUSY', details: { holders: ['carla'] } },
            }),
        );
      } finally {
        await hugo.end();
      }
    }, 60_000);

    it('an interview’s lock taken at session level by another login (which no idle timeout ends) is named too', async () => {
      await whileAnotherHolds(
        'dora',
        (dora) => dora.query(`select pg_advisory_lock(hashtext('production'), hashtext('keyed'))`),
        async (app) => {
          await app.record.claims.claim('production', 'keyed');
          const decision = {
            decision: 'reject' as const,
            reason: 'looks wrong',
            acknowledgedFindings: [],
            decidedAt: new Date().toISOString(),
            environment: 'production',
            status: 'final' as const,
          };
          await expect(app.record.decisions.add('keyed', decision)).rejects.toMatchObject({
            data: { code: 'RECORD_BUSY', details: { holders: ['dora'] } },
          });
        },
      );
    }, 60_000);

    it('rows locked by another login are named as that login; an advisory lock the change does not take is not', async () => {
      const gus = await sessionOfNew('gus');
      const entry = {
        interviewId: 'row-locked',
        addedAt: new Date().toISOString(),
        localState: 'toReview' as const,
      };
      try {
        // A saved-views key of gus's own, held by a transaction of his: nothing the change below waits for.
        await gus.query('begin');
        await gus.query(`select pg_advisory_xact_lock(hashtext('omni saved views gus'))`);
        await whileAnotherHolds(
          'eva',
          async (eva, app) => {
            await app.record.queue.put('production', [entry]);
            await eva.query('begin');
            await eva.query('select * from queue_entries for update');
          },
          async (app) =>
            expect(app.record.queue.put('production', [{ ...entry, localState: 'decided' }])).rejects.toMatchObject({
              data: { code: 'RECORD_BUSY', details: { holders: ['eva'] } },
            }),
        );
      } finally {
        await gus.end();
      }
    }, 60_000);

    it('a lock table another login filled (session-level advisory locks) is said as such, not as an internal error', async () => {
      await whileAnotherHolds(
        'flora',
        // Session-level locks outlive the statement that fails once the table is full.
        (flora) => flora.query('select pg_advisory_lock(g) from generate_series(1, 1000000) g').catch(() => undefined),
        async (app) =>
          expect(app.record.drafts.put('production', 'crowded', 'notes', typed())).rejects.toMatchObject({
            data: {
              code: 'RECORD_BUSY',
              message: {
                en: expect.stringMatching(/no room for more locks/),
                es: expect.stringMatching(/más bloqueos/),
              },
            },
          }),
      );
    }, 60_000);

    it("this app's own transaction left idle (a frozen process) is ended by the server, and the trail is free again", async () => {
      const frozen = await openRecord({
        ...team(),
        user: server.user,
        waits: { lockMs: 20_000, idleInTransactionMs: 300 },
      });
      const other = recordForApp(open, { environment: () => 'production', store: new MemoryJsonStore(), log: quiet });
      try {
        let ended: unknown;
        await frozen.db.connection().execute(async (conn) => {
          await sql`begin`.execute(conn);
          await sql`select pg_advisory_xact_lock(151151)`.execute(conn);
          // The other app's entry waits for the lock, which the server's ending of this idle transaction frees.
          await other.audit.append({ interviewId: 'after-frozen', action: 'opened', detail: {} });
          ended = await sql`select 1`.execute(conn).then(
            () => 'still open',
            (error: Error) => error.message,
          );
        });
        // The server said why (SQLSTATE 25P03) on the connection as it closed it; the next query finds it gone.
        expect(ended).toMatch(/connection|terminat/i);
        expect(await other.audit.list({ interviewId: 'after-frozen' })).toHaveLength(1);
      } finally {
        await other.stop();
        await frozen.close();
      }
    }, 60_000);

    it("the owner's update waits for the tables as long as another session holds them, past an analyst's wait", async () => {
      const fresh = await server.createDatabase('held_update');
      // Another session's transaction holds the database's catalog row, which the update's REVOKE TEMPORARY (0011)
      // must change: it waits as long as that transaction stays open.
      const holder = new pg.Client({ host: server.host, port: server.port, user: server.user, database: fresh });
      await holder.connect();
      await holder.query('begin');
      await holder.query(`grant temporary on database ${fresh} to public`);
      const pool = new pg.Pool({ host: server.host, port: server.port, user: server.user, database: fresh, max: 1 });
      const opening = openRecord({
        ...team(),
        database: fresh,
        user: server.user,
        waits: { lockMs: 200, idleInTransactionMs: 60_000 },
      }).then(
        (record) => record,
        (error: unknown) => error,
      );
      // The update's session waits on the lock for five times an analyst's wait, and is still waiting.
      // Asked outside the holder's transaction, which keeps one snapshot of the statistics.
      const waitedLong = async () =>
        (
          await pool.query(
            `select 1 from pg_stat_activity where datname = $1 and wait_event_type = 'Lock'
               and clock_timestamp() - query_start > interval '1 second'`,
            [fresh],
          )
        ).rowCount! > 0;
      const first = await Promise.race([opening.then(() => 'settled'), until(waitedLong).then(() => 'waiting')]);
      expect(first).toBe('waiting');
      await holder.query('rollback');
      await holder.end();
      await pool.end();
      const opened = await opening;
      expect(opened).toHaveProperty('db');
      await (opened as OpenRecord).close();
    }, 60_000);
  });
});
