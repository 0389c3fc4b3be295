import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionRecord } from '../../../common/ipc/interview';
import type { QueueQuery, QueueScope } from '../../../common/ipc/queue';
import type { RecordNotice } from '../../../common/team-review';
import { entryHash, GENESIS_HASH } from '../../../main/record/audit-chain';
import { insertAuditEntries, recordAuditTrail } from '../../../main/record/audit-records';
import { ClaimRecords } from '../../../main/record/claim-records';
import { reviewRecord } from '../../../main/record/index';
import { openRecord, type OpenRecord } from '../../../main/record/open';
import type { RecordDatabase } from '../../../main/record/schema';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';

/**
 * Team review on a real PostgreSQL server, each analyst with their own login: reviewers ana and beto, supervisor
 * sofia. What a reviewer may not do is refused by the database, also when asked with hand-written SQL.
 */
let server: TestPostgres;
let admin: pg.Client;
const logins: Record<'ana' | 'beto' | 'sofia', OpenRecord> = {} as never;
const database = 'team_review';

const as = (user: string) =>
  openRecord({ kind: 'team', host: server.host, port: server.port, user, database, tls: 'disable' });

beforeAll(async () => {
  server = await startPostgres();
  await server.createDatabase(database);
  // The superuser migrates, as the owner would; the migration makes the team's roles.
  await (await as('postgres')).close();
  admin = new pg.Client({ host: server.host, port: server.port, user: 'postgres', database });
  admin.on('error', () => undefined);
  await admin.connect();
  await admin.query(`
    create role ana login in role omni_reviewer;
    create role beto login in role omni_reviewer;
    create role sofia login in role omni_supervisor;
    create role outsider login;`);
  logins.ana = await as('ana');
  logins.beto = await as('beto');
  logins.sofia = await as('sofia');
}, 60_000);

afterAll(async () => {
  await Promise.all(Object.values(logins).map((r) => r.close()));
  await admin?.end().catch(() => undefined);
  await server?.stop();
});

const decision = (over: Partial<DecisionRecord> = {}): DecisionRecord => ({
  decision: 'approve',
  reason: 'Looks right',
  acknowledgedFindings: ['checkFraudRisk (HIGH, 0.91)'],
  decidedAt: '2026-11-25T10:00:00.000Z',
  environment: 'production',
  status: 'proposed',
  ...over,
});

describe('claims', () => {
  it('are taken, renewed and released by their holder alone; a supervisor reassigns; a lapsed one is free', async () => {
    const ana = reviewRecord(logins.ana).claims;
    const beto = reviewRecord(logins.beto).claims;
    const sofia = reviewRecord(logins.sofia).claims;
    const held = await ana.claim('production', 'c1');
    expect(held).toMatchObject({ environment: 'production', interviewId: 'c1', holder: 'ana' });
    expect(Date.parse(held.expiresAt) - Date.parse(held.claimedAt)).toBeCloseTo(15 * 60_000, -3);

    await expect(beto.claim('production', 'c1')).rejects.toMatchObject({
      data: {
        code: 'CLAIMED_BY_OTHER',
        message: { en: expect.stringContaining('ana'), es: expect.stringContaining('ana') },
      },
    });
    expect(await beto.renew('production', 'c1')).toBeUndefined();
    await beto.release('production', 'c1');
    // By hand: row-level security leaves beto nothing of ana's to change, and refuses a claim in her name.
    const betoDb = logins.beto.db;
    expect(
      (await sql`update claims set holder = 'beto', expires_at = now() + interval '1 day'`.execute(betoDb))
        .numAffectedRows,
    ).toBe(0n);
    expect((await sql`delete from claims`.execute(betoDb)).numAffectedRows).toBe(0n);
    await expect(
      sql`insert into claims (environment, interview_id, holder, expires_at)
          values ('production', 'c2', 'ana', now() + interval '1 hour')`.execute(betoDb),
    ).rejects.toThrow(/row-level security/);
    expect((await beto.holders('production')).map((c) => c.holder)).toEqual(['ana']);

    // Renewing keeps when it was claimed; claiming one's own again renews it.
    const renewed = await ana.renew('production', 'c1');
    expect(renewed?.claimedAt).toBe(held.claimedAt);
    expect(Date.parse(renewed!.expiresAt)).toBeGreaterThanOrEqual(Date.parse(held.expiresAt));
    expect((await ana.claim('production', 'c1')).claimedAt).toBe(held.claimedAt);

    await expect(beto.reassign('production', 'c1', 'beto')).rejects.toMatchObject({ data: { code: 'NOT_SUPERVISOR' } });
    await expect(sofia.reassign('production', 'c1', 'nobody')).rejects.toMatchObject({
      data: { code: 'NOT_A_REVIEWER' },
    });
    expect(await sofia.reassign('production', 'c1', 'beto')).toMatchObject({ holder: 'beto' });
    expect(await ana.renew('production', 'c1')).toBeUndefined();

    // A lapsed claim is anyone's.
    await admin.query(`update claims set expires_at = now() - interval '1 second' where interview_id = 'c1'`);
    expect(await beto.holders('production')).toEqual([]);
    expect(await ana.claim('production', 'c1')).toMatchObject({ holder: 'ana' });
    await ana.release('production', 'c1');
    expect(await ana.holders('production')).toEqual([]);

    // A login that is no reviewer is refused, not kept waiting.
    const outsider = new Kysely<RecordDatabase>({
      dialect: new PostgresDialect({
        pool: new pg.Pool({ host: server.host, port: server.port, user: 'outsider', database }),
      }),
    });
    try {
      await expect(new ClaimRecords(outsider).claim('production', 'c1')).rejects.toThrow(/permission denied/);
    } finally {
      await outsider.destroy();
    }
  });

  it('never gives one interview to two of twenty analysts taking at once', async () => {
    const environment = 'race';
    await reviewRecord(logins.ana).queue.put(
      environment,
      Array.from({ length: 60 }, (_, i) => ({
        interviewId: `r${String(i).padStart(3, '0')}`,
        addedAt: new Date(Date.UTC(2026, 10, 25, 9, 0, i)).toISOString(),
        localState: 'toReview' as const,
      })),
    );
    // A quarter decided already (marked by the superuser: a login's "decided" needs a decision on file, 0012).
    await admin.query(`update queue_entries set local_state = 'decided'
      where environment = 'race' and substr(interview_id, 2)::int % 4 = 0`);
    // Twenty connections of their own (the app's pool takes ten), half ana's, half beto's.
    const pools = ['ana', 'beto'].map(
      (user) => new pg.Pool({ host: server.host, port: server.port, user, database, max: 10 }),
    );
    const dbs = pools.map((pool) => new Kysely<RecordDatabase>({ dialect: new PostgresDialect({ pool }) }));
    try {
      const taken = await Promise.all(
        Array.from({ length: 20 }, async (_, client) => {
          const claims = new ClaimRecords(dbs[client % 2]!);
          const mine: string[] = [];
          for (let claim = await claims.takeNext(environment); claim; claim = await claims.takeNext(environment))
            mine.push(claim.interviewId);
          return mine;
        }),
      );
      const all = taken.flat();
      expect(all).toHaveLength(45);
      expect(new Set(all).size).toBe(45);
      expect(all.every((id) => Number(id.slice(1)) % 4 !== 0)).toBe(true);
    } finally {
      await Promise.all(dbs.map((db) => db.destroy()));
    }
  });
});

describe('four eyes', () => {
  it('refuses a confirmation by the proposer, a review in another name, and a high-risk approval made final', async () => {
    const ana = reviewRecord(logins.ana);
    const beto = reviewRecord(logins.beto);
    for (const id of ['f0', 'f1', 'f2']) await ana.claims.claim('production', id);
    await ana.readings.add('production', 'f1', 'high', ['checkFraudRisk (HIGH, 0.91)']);
    await expect(ana.decisions.add('f1', decision({ status: 'final' }))).rejects.toMatchObject({
      data: { code: 'SECOND_REVIEW_REQUIRED' },
    });
    // Without findings, and read as low risk, one analyst's approval is enough under the default rule.
    await ana.readings.add('production', 'f0', 'low', []);
    await ana.decisions.add('f0', decision({ status: 'final', acknowledgedFindings: [] }));
    await ana.decisions.add('f1', decision());
    expect(await beto.decisions.last('production', 'f1')).toMatchObject({ status: 'proposed', decidedBy: 'ana' });

    await expect(ana.decisions.review('production', 'f1', 'confirmed', 'I am sure')).rejects.toMatchObject({
      data: { code: 'OWN_PROPOSAL' },
    });
    const anaDb = logins.ana.db;
    await expect(
      sql`update decisions set status = 'confirmed', reviewed_by = current_user, review_reason = 'sure'
          where interview_id = 'f1'`.execute(anaDb),
    ).rejects.toThrow(/four eyes/);
    await expect(
      sql`update decisions set status = 'confirmed', reviewed_by = 'beto', review_reason = 'sure'
          where interview_id = 'f1'`.execute(anaDb),
    ).rejects.toThrow(/own login/);
    await expect(sql`update decisions set reason = 'changed'`.execute(anaDb)).rejects.toThrow(/permission denied/);
    await expect(
      sql`insert into decisions (environment, interview_id, decision, reason, acknowledged_findings, decided_at, decided_by)
          values ('production', 'f2', 'reject', 'x', '[]', now(), 'beto')`.execute(anaDb),
    ).rejects.toThrow(/own login/);
    await expect(
      sql`insert into decisions (environment, interview_id, decision, reason, acknowledged_findings, decided_at, status)
          values ('production', 'f2', 'reject', 'x', '[]', now(), 'confirmed')`.execute(anaDb),
    ).rejects.toThrow(/final or proposed/);
    await expect(sql`delete from decisions where environment = 'production'`.execute(anaDb)).rejects.toThrow(
      /only an admin/,
    );

    // The second reviewer holds the interview first, like anyone who decides it.
    await ana.claims.release('production', 'f1');
    await expect(beto.decisions.review('production', 'f1', 'confirmed', 'Checked')).rejects.toMatchObject({
      data: { code: 'NOT_CLAIMED' },
    });
    await beto.claims.claim('production', 'f1');
    const { record: confirmed, write } = await beto.decisions.review(
      'production',
      'f1',
      'confirmed',
      'Checked the selfie myself',
      () => 'the note',
    );
    expect(confirmed).toMatchObject({
      status: 'confirmed',
      decidedBy: 'ana',
      reviewedBy: 'beto',
      reviewReason: 'Checked the selfie myself',
    });
    expect(confirmed.reviewedAt).toBeDefined();
    // The note is recorded with the confirmation, before it is sent, under a key of its own.
    expect(write).toMatchObject({ body: 'the note', idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(await beto.writes.unsent('production', 'f1', 'decision')).toEqual(write);
    // Once: a second review finds nothing waiting.
    await expect(beto.decisions.review('production', 'f1', 'overturned', 'again')).rejects.toMatchObject({
      data: { code: 'NOTHING_TO_REVIEW' },
    });
  });

  it('leaves the proposal waiting when its confirmation is refused, and lets another reviewer overturn it', async () => {
    const ana = reviewRecord(logins.ana);
    const beto = reviewRecord(logins.beto);
    await ana.claims.claim('production', 'f3');
    await ana.decisions.add('f3', decision());
    // Beto does not hold it: refused, naming the holder; nothing recorded.
    await expect(beto.decisions.review('production', 'f3', 'confirmed', 'ok', () => 'note')).rejects.toMatchObject({
      data: { code: 'CLAIMED_BY_OTHER', details: { holder: 'ana' } },
    });
    expect((await ana.decisions.last('production', 'f3'))?.status).toBe('proposed');
    expect(await beto.writes.unsent('production', 'f3', 'decision')).toBeUndefined();
    await ana.claims.release('production', 'f3');
    await beto.claims.claim('production', 'f3');
    expect((await beto.decisions.review('production', 'f3', 'overturned', 'Screen photo')).record.status).toBe(
      'overturned',
    );
  });
});

describe('the audit trail', () => {
  it("names each entry's writer, keeps old entries verifying, and refuses every change, even by hand", async () => {
    const anaDb = logins.ana.db;
    // An entry of an earlier version, without an actor, written as the import does, after what the trail holds (the
    // database's own entries of the claims released and handed over above).
    const head = await recordAuditTrail(anaDb, () => 'production').latest();
    const body = {
      seq: (head?.seq ?? 0) + 1,
      at: '2026-11-01T00:00:00.000Z',
      environment: 'production',
      action: 'opened' as const,
      detail: {},
      prevHash: head?.hash ?? GENESIS_HASH,
    };
    // A reviewer writes only what happened; the chain's fields are the database's (permission denied on them).
    await expect(insertAuditEntries(anaDb, [{ ...body, hash: entryHash(body) }])).rejects.toThrow(/permission denied/);
    await expect(insertAuditEntries(logins.sofia.db, [{ ...body, hash: entryHash(body) }])).rejects.toThrow(
      /permission denied/,
    );
    const owner = await as('postgres');
    try {
      await insertAuditEntries(owner.db, [{ ...body, hash: entryHash(body) }]);
    } finally {
      await owner.close();
    }
    const ana = recordAuditTrail(anaDb, () => 'production');
    const beto = recordAuditTrail(logins.beto.db, () => 'production');
    expect(await ana.append({ interviewId: 'a1', action: 'opened', detail: {} })).toMatchObject({ actor: 'ana' });
    expect(await beto.append({ interviewId: 'a1', action: 'played', detail: {} })).toMatchObject({
      actor: 'beto',
    });
    const all = await ana.list({ afterSeq: body.seq - 1 });
    expect(all.map((e) => e.actor)).toEqual([undefined, 'ana', 'beto']);
    expect(await ana.verify()).toEqual({ ok: true });

    for (const statement of [
      sql`update audit_entries set action = 'forged'`,
      sql`update audit_entries set actor = 'beto' where actor = 'ana'`,
      sql`delete from audit_entries`,
      sql`truncate audit_entries`,
    ])
      await expect(statement.execute(anaDb)).rejects.toThrow(/append-only|permission denied/);
    await expect(
      sql`insert into audit_entries (seq, at, environment, action, detail, prev_hash, hash, actor)
          values (99, 'x', 'production', 'opened', '{}', 'x', 'forged', 'beto')`.execute(anaDb),
    ).rejects.toThrow(/permission denied/);
    expect(await recordAuditTrail(logins.sofia.db, () => 'production').verify()).toEqual({ ok: true });
  });
});

describe("the team's rules, roles and saved views", () => {
  it('are read by everyone and changed by supervisors only', async () => {
    const ana = reviewRecord(logins.ana).teamSettings;
    const sofia = reviewRecord(logins.sofia).teamSettings;
    expect(await ana.get()).toEqual({ fourEyes: 'high-risk-approvals', targetHours: 24, leaseMinutes: 15 });
    await expect(ana.set({ fourEyes: 'none', targetHours: 24, leaseMinutes: 15 })).rejects.toMatchObject({
      data: { code: 'NOT_SUPERVISOR' },
    });
    await sofia.set({ fourEyes: 'all-approvals', targetHours: 8, leaseMinutes: 30 });
    expect(await ana.get()).toEqual({ fourEyes: 'all-approvals', targetHours: 8, leaseMinutes: 30 });
    // Every approval needs a second reviewer now, even one read as low risk; a lease lasts 30 minutes.
    const claim = await reviewRecord(logins.ana).claims.claim('production', 's1');
    expect(Date.parse(claim.expiresAt) - Date.parse(claim.claimedAt)).toBeCloseTo(30 * 60_000, -3);
    await reviewRecord(logins.ana).readings.add('production', 's1', 'low', []);
    await expect(
      reviewRecord(logins.ana).decisions.add('s1', decision({ status: 'final', acknowledgedFindings: [] })),
    ).rejects.toMatchObject({ data: { code: 'SECOND_REVIEW_REQUIRED' } });
    await sofia.set({ fourEyes: 'high-risk-approvals', targetHours: 24, leaseMinutes: 15 });

    expect(await ana.whoAmI()).toEqual({ user: 'ana', roles: ['reviewer'] });
    expect(await sofia.whoAmI()).toEqual({ user: 'sofia', roles: ['reviewer', 'supervisor'] });
  });

  it("keeps each analyst's saved views theirs, shared ones seen by all", async () => {
    const anaDb = logins.ana.db;
    const betoDb = logins.beto.db;
    await anaDb.insertInto('saved_views').values({ name: 'mine', filter: '{"claimed":"mine"}' }).execute();
    await anaDb.insertInto('saved_views').values({ name: 'late', filter: '{"age":"late"}', shared: true }).execute();
    expect(await betoDb.selectFrom('saved_views').select(['owner', 'name']).execute()).toEqual([
      { owner: 'ana', name: 'late' },
    ]);
    expect((await sql`update saved_views set name = 'taken'`.execute(betoDb)).numAffectedRows).toBe(0n);
    expect((await sql`delete from saved_views`.execute(betoDb)).numAffectedRows).toBe(0n);
    await expect(
      betoDb.insertInto('saved_views').values({ owner: 'ana', name: 'forged', filter: '{}' }).execute(),
    ).rejects.toThrow(/row-level security/);
  });
});

describe('queue views', () => {
  it('filter by who holds an interview and whose proposal waits, as each login sees it', async () => {
    const ana = reviewRecord(logins.ana);
    const beto = reviewRecord(logins.beto);
    const at = new Date(Date.now() - 3_600_000).toISOString();
    await ana.queue.put('views', [
      { interviewId: 'v1', addedAt: at, localState: 'toReview' },
      { interviewId: 'v2', addedAt: at, localState: 'toReview' },
      { interviewId: 'v3', addedAt: at, localState: 'inReview' },
    ]);
    await ana.claims.claim('views', 'v1');
    await beto.claims.claim('views', 'v2');
    await ana.claims.claim('views', 'v3');
    await ana.decisions.add('v3', decision({ environment: 'views' }));
    await ana.claims.release('views', 'v3');
    const ids = async (who: typeof ana, scope: QueueScope) =>
      (
        await who.queue.page(
          'views',
          { filter: { state: 'all', status: 'all', ...scope }, sort: 'id', search: '' },
          undefined,
          10,
        )
      ).map((r) => r.interviewId);
    expect(await ids(ana, { holder: 'mine' })).toEqual(['v1']);
    expect(await ids(ana, { holder: 'others' })).toEqual(['v2']);
    expect(await ids(beto, { holder: 'mine' })).toEqual(['v2']);
    expect(await ids(beto, { holder: 'unclaimed' })).toEqual(['v3']);
    expect(await ids(ana, { review: 'waiting' })).toEqual(['v3']);
    expect(await ids(ana, { review: 'forMe' })).toEqual([]);
    expect(await ids(beto, { review: 'forMe' })).toEqual(['v3']);
  });

  it('are saved per login through the record, shared ones listed for the team and changed by their owner only', async () => {
    const ana = reviewRecord(logins.ana).views;
    const beto = reviewRecord(logins.beto).views;
    const late: QueueQuery = {
      filter: { state: 'all', status: 'all', age: 'pastTarget', risk: 'high' },
      sort: 'added',
      search: '',
    };
    const saved = await ana.save('Late and risky', late, true);
    expect(saved).toMatchObject({ name: 'Late and risky', owner: 'ana', mine: true, shared: true, query: late });
    await ana.save('Only mine', { ...late, filter: { state: 'all', status: 'all', holder: 'mine' } }, false);
    await beto.save('Beto', { ...late, search: 'x' }, false);
    expect((await ana.list()).map((v) => [v.name, v.owner, v.mine])).toEqual([
      ['Late and risky', 'ana', true],
      ['Only mine', 'ana', true],
    ]);
    expect((await beto.list()).map((v) => [v.name, v.owner, v.mine])).toEqual([
      ['Beto', 'beto', true],
      ['Late and risky', 'ana', false],
    ]);
    // The same name again replaces the owner's view; another's is not touched by a delete.
    const again = await ana.save('Late and risky', { ...late, sort: 'id' }, true);
    expect(again.id).toBe(saved.id);
    expect(await beto.remove(saved.id)).toBe(false);
    expect((await beto.list()).find((v) => v.id === saved.id)?.query.sort).toBe('id');
    expect(await ana.remove(saved.id)).toBe(true);
    expect((await beto.list()).map((v) => v.name)).toEqual(['Beto']);
  });

  it('leaves out a view this version cannot read rather than failing the list', async () => {
    await logins.beto.db
      .insertInto('saved_views')
      .values({ name: 'From a newer version', filter: '{"filter":{"state":"snoozed"}}' })
      .execute();
    expect((await reviewRecord(logins.beto).views.list()).map((v) => v.name)).toEqual(['Beto']);
  });
});

describe('updates', () => {
  it("are the owner's to make: a reviewer's start on a database behind this version says so and changes nothing", async () => {
    await admin.query(`
      alter table queue_entries drop column risk;
      delete from kysely_migration where name = '0005-queue-risk';`);
    await expect(as('ana')).rejects.toMatchObject({
      data: { code: 'RECORD_NEEDS_OWNER', message: { en: expect.stringContaining('0005-queue-risk') } },
    });
    const { rows } = await admin.query(
      `select count(*)::int as n from kysely_migration where name = '0005-queue-risk'`,
    );
    expect(rows).toEqual([{ n: 0 }]);
    // The owner's start brings it up to date; then the reviewer's goes through.
    await (await as('postgres')).close();
    await (await as('ana')).close();
  });
});

describe('notices', () => {
  it("tell another analyst of a claim and a decision within half a second, and again after the server's restart", async () => {
    const heard: (RecordNotice & { ms: number })[] = [];
    let since = performance.now();
    const stop = logins.beto.events.subscribe((n) => heard.push({ ...n, ms: performance.now() - since }));
    const ana = reviewRecord(logins.ana);
    // The listening connection opens at the first subscriber.
    await logins.beto.events.listening();
    expect(await listening()).toBe(true);

    since = performance.now();
    await ana.claims.claim('production', 'n1');
    await expect.poll(() => heard.length, { timeout: 2_000, interval: 10 }).toBe(1);
    expect(heard[0]).toMatchObject({
      table: 'claims',
      environment: 'production',
      interviewId: 'n1',
      kind: 'claimed',
      by: 'ana',
    });
    expect(heard[0]!.ms).toBeLessThan(500);

    await ana.decisions.add('n1', decision());
    await ana.claims.release('production', 'n1');
    await expect
      .poll(() => heard.map((n) => `${n.table}:${n.kind}`), { timeout: 2_000 })
      .toEqual(['claims:claimed', 'decisions:proposed', 'claims:released']);

    server.pause();
    server.resume();
    // Listening again once the server is back, by itself, and saying that what was announced meanwhile went unheard.
    await expect.poll(() => listening(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => heard.at(-1)?.kind, { timeout: 5_000 }).toBe('resync');
    expect(heard.filter((n) => n.kind === 'resync')).toHaveLength(1);
    since = performance.now();
    await ana.queue.put('production', [
      { interviewId: 'n2', addedAt: '2026-11-25T10:00:00.000Z', localState: 'toReview' },
    ]);
    await expect
      .poll(() => heard.at(-1), { timeout: 2_000, interval: 10 })
      .toMatchObject({
        table: 'queue_entries',
        interviewId: 'n2',
        kind: 'added',
        by: 'ana',
      });
    stop();
  }, 30_000);
});

async function listening(): Promise<boolean> {
  const client = new pg.Client({ host: server.host, port: server.port, user: 'postgres', database });
  try {
    await client.connect();
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where usename = 'beto' and query ilike 'listen%'`,
    );
    return rows[0]!.n > 0;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
