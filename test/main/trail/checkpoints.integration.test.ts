import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContextHandle } from '../../../main/app-context';
import { recordAuditTrail } from '../../../main/record/audit-records';
import { openRecord } from '../../../main/record/open';
import { nom151Service } from '../../../main/nom151/service';
import {
  checkpointAlarm,
  checkpointStatement,
  checkpointStatementV2,
  detailOf,
  statementOf,
  trailCheckpoints,
} from '../../../main/trail/checkpoints';
import { createDemoTsa } from '../../../main/nom151/tsa';
import { startTestApp } from '../../helpers/app-context';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';
import { rechainTrail } from '../../helpers/rechain';

/**
 * The trail's head timestamped through the service's NOM-151 signing (the demo server's), kept as an entry; checked by
 * the app and by OpenSSL alone. The owner then re-chains the history: the earlier token contradicts it.
 */
let server: TestPostgres;
let app: AppContextHandle;
let dir: string;
const database = 'checkpoints';

beforeAll(async () => {
  server = await startPostgres();
  await server.createDatabase(database);
  dir = mkdtempSync(join(tmpdir(), 'omni-checkpoints-'));
  app = await startTestApp(dir, {
    recordEngine: { kind: 'team', host: server.host, port: server.port, user: 'postgres', database, tls: 'disable' },
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function openssl(args: string[]): string {
  try {
    return execFileSync('/usr/bin/openssl', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return `FAILED ${e.stdout ?? ''}${e.stderr ?? ''}`;
  }
}

describe('checkpoints of the audit trail outside the database', () => {
  it('timestamp the head; a re-chained history contradicts them, for the app and for OpenSSL', async () => {
    const ctx = app.context;
    for (const id of ['c1', 'c2', 'c3']) await ctx.audit.append({ interviewId: id, action: 'opened', detail: {} });
    const checkpoints = trailCheckpoints(ctx);
    // Small and young: not due yet; taken on demand.
    expect(await checkpoints.maybe()).toBeUndefined();
    expect(await checkpoints.maybe(Date.now() + 25 * 3_600_000)).toMatchObject({
      action: 'checkpoint',
      detail: {
        seq: 3,
        statement: 2,
        from: 1,
        folio: expect.any(String),
        token: expect.any(String),
        genTime: expect.any(String),
      },
    });
    // Nothing new since: no second one.
    expect(await checkpoints.maybe(Date.now() + 50 * 3_600_000)).toBeUndefined();
    expect(await checkpoints.verify()).toEqual([
      { seq: 4, covers: 3, outcome: 'ok', genTime: expect.any(String), by: 'postgres' },
    ]);

    // An auditor with OpenSSL only: the statement, the token and the service's root. Statement version 2 lists the
    // hash of every entry it covers, one `seq hash` line each, after the head lines of version 1.
    const [checkpoint] = await ctx.audit.list({ action: 'checkpoint' });
    const detail = checkpoint!.detail as { seq: number; hash: string; token: string };
    const entries = await ctx.audit.list();
    const statement = await statementOf(ctx.audit, checkpoint!);
    expect(statement).toBe(
      [
        'Omni Reviewer audit trail checkpoint',
        `entry: 3`,
        `hash: ${detail.hash}`,
        'statement: 2',
        'from: 1',
        ...entries.slice(0, 3).map((e) => `${e.seq} ${e.hash}`),
        '',
      ].join('\n'),
    );
    const demoUrl = app.demoUrl()!;
    writeFileSync(join(dir, 'root.pem'), await (await fetch(`${demoUrl}/__demo/nom151-root.pem`)).text());
    writeFileSync(join(dir, 'token.der'), Buffer.from(detail.token, 'base64'));
    writeFileSync(join(dir, 'statement.txt'), statement);
    const verify = ['ts', '-verify', '-data', 'statement.txt', '-in', 'token.der', '-token_in', '-CAfile', 'root.pem'];
    expect(openssl(verify)).toContain('Verification: OK');

    // A checkpoint of an earlier version (the head alone) keeps verifying as before.
    const fifth = await ctx.audit.append({ interviewId: 'c4', action: 'opened', detail: {} });
    const v1 = await nom151Service(ctx).stamp(checkpointStatement(fifth.seq, fifth.hash));
    await ctx.audit.append({
      action: 'checkpoint',
      detail: {
        seq: fifth.seq,
        hash: fifth.hash,
        folio: v1.folio,
        token: v1.token,
        genTime: v1.verification.details!.genTime,
      },
    });
    // The next version 2 statement starts after the entry the last checkpoint covered: it lists that checkpoint too.
    await ctx.audit.append({ interviewId: 'c5', action: 'opened', detail: {} });
    const third = await checkpoints.take();
    expect(third?.detail).toMatchObject({ seq: 7, statement: 2, from: 6 });
    expect(await statementOf(ctx.audit, third!)).toContain(`\n6 ${(await ctx.audit.list({ seq: 6 }))[0]!.hash}\n`);
    expect(await checkpoints.verify()).toEqual([
      { seq: 4, covers: 3, outcome: 'ok', genTime: expect.any(String), by: 'postgres' },
      { seq: 6, covers: 5, outcome: 'ok', genTime: expect.any(String), by: 'postgres' },
      { seq: 8, covers: 7, outcome: 'ok', genTime: expect.any(String), by: 'postgres' },
    ]);

    // The owner changes entry 2 with the triggers off and re-chains everything after it, checkpoint included.
    const owner = new pg.Client({ host: server.host, port: server.port, user: 'postgres', database });
    await owner.connect();
    try {
      await owner.query(`alter table audit_entries disable trigger audit_entries_append_only`);
      await owner.query(`update audit_entries set interview_id = 'forged' where seq = 2`);
      await rechainTrail(owner);
      await owner.query(`alter table audit_entries enable trigger audit_entries_append_only`);
    } finally {
      await owner.end();
    }

    // A fresh app, no witness of its own: the chain is consistent again, but the checkpoint contradicts it.
    const fresh = await openRecord({
      kind: 'team',
      host: server.host,
      port: server.port,
      user: 'postgres',
      database,
      tls: 'disable',
    });
    try {
      expect(await recordAuditTrail(fresh.db, () => 'demo').verify()).toEqual({ ok: true });
    } finally {
      await fresh.close();
    }
    // Every checkpoint from the change on contradicts it, whichever statement version.
    expect(await checkpoints.verify()).toEqual([
      { seq: 4, covers: 3, outcome: 'contradicted', genTime: expect.any(String), by: 'postgres' },
      { seq: 6, covers: 5, outcome: 'contradicted', genTime: expect.any(String), by: 'postgres' },
      { seq: 8, covers: 7, outcome: 'contradicted', genTime: expect.any(String), by: 'postgres' },
    ]);
    // OpenSSL says the same: the earlier token does not timestamp the statement rebuilt from the re-chained trail.
    const [rechained] = await ctx.audit.list({ seq: 3 });
    expect(rechained!.hash).not.toBe(detail.hash);
    writeFileSync(join(dir, 'statement.txt'), await statementOf(ctx.audit, (await ctx.audit.list({ seq: 4 }))[0]!));
    expect(openssl(verify)).toMatch(/FAILED[\s\S]*message imprint mismatch/);
    // A token altered in its signature is forged, not contradicted.
    const token = Buffer.from(detail.token, 'base64');
    token[token.length - 5]! ^= 1;
    writeFileSync(join(dir, 'token.der'), token);
    writeFileSync(join(dir, 'statement.txt'), statement);
    expect(openssl(verify)).toMatch(/FAILED/);
  });

  it('cover a long stretch since the last one with several statements, none longer than the interval', async () => {
    const ctx = app.context;
    const before = (await ctx.audit.latest())!.seq;
    for (let i = 0; i < 5; i++) await ctx.audit.append({ interviewId: `s${i}`, action: 'opened', detail: {} });
    const head = (await ctx.audit.latest())!;
    const last = await trailCheckpoints(ctx, { every: 2 }).take();
    expect(last?.detail).toMatchObject({ seq: head.seq, statement: 2 });
    const taken = (await ctx.audit.list({ action: 'checkpoint', afterSeq: head.seq })).map(
      (c) => c.detail as { seq: number; from: number },
    );
    // Contiguous, from the entry after the last covered one to the head, two entries at most each.
    expect(taken.map((d) => [d.from, d.seq])).toEqual([
      [before, before + 1],
      [before + 2, before + 3],
      [before + 4, before + 5],
    ]);
    for (const c of await ctx.audit.list({ action: 'checkpoint', afterSeq: head.seq }))
      expect((await statementOf(ctx.audit, c)).trim().split('\n').slice(5)).toHaveLength(
        (c.detail as { seq: number }).seq - (c.detail as { from: number }).from + 1,
      );
  });

  it('calls a genuine token replayed on another stretch forged, its writer’s doing, not a contradicted history', async () => {
    const ctx = app.context;
    await ctx.audit.append({ interviewId: 'replayed', action: 'opened', detail: {} });
    const genuine = (await trailCheckpoints(ctx).take())!;
    const entry = await ctx.audit.append({ interviewId: 'replayed', action: 'opened', detail: {} });
    const onEntry = { seq: entry.seq, hash: entry.hash, from: genuine.seq + 1 };
    // The same token again, as sent or re-armoured: on the trail already (migration 0016).
    const token = String(genuine.detail.token);
    for (const again of [token, `-----BEGIN TOKEN-----\n${token.replace(/(.{64})/g, '$1\n')}\n-----END TOKEN-----`])
      await expect(
        ctx.audit.append({ action: 'checkpoint', detail: { ...genuine.detail, ...onEntry, token: again } }),
      ).rejects.toThrow(/token is on the trail already/);
    // A genuine token of another document on this stretch.
    const other = await nom151Service(ctx).stamp('another document');
    const replayed = await ctx.audit.append({
      action: 'checkpoint',
      detail: { ...genuine.detail, ...onEntry, folio: other.folio, token: other.token },
    });
    const checks = await trailCheckpoints(ctx).verify();
    const [own, copy] = [checks.find((c) => c.seq === genuine.seq)!, checks.find((c) => c.seq === replayed.seq)!];
    expect(own.outcome).not.toBe('forged');
    expect(copy).toMatchObject({ outcome: 'forged', by: 'postgres' });
    expect(checkpointAlarm([copy])).toBeUndefined();
    // Nor is it offered as proof of the entries it names.
    expect(await trailCheckpoints(ctx).holds(replayed)).toBe(false);
  });

  it('calls a token of an authority nobody trusts unverifiable, and never a proof, even once verified', async () => {
    const ctx = app.context;
    const entry = await ctx.audit.append({ interviewId: 'self-made', action: 'opened', detail: {} });
    const from = (detailOf((await ctx.audit.latest('checkpoint'))!).seq as number) + 1;
    const statement = checkpointStatementV2(entry, from, await ctx.audit.chain({ fromSeq: from, toSeq: entry.seq }));
    // Anyone can run a time-stamping authority, and date its tokens as they like.
    const own = await createDemoTsa({ name: 'Anyone', now: () => new Date(Date.now() - 30 * 86_400_000) });
    const { tokenDer } = await own.stamp(new TextEncoder().encode(statement));
    const made = await ctx.audit.append({
      action: 'checkpoint',
      detail: {
        seq: entry.seq,
        hash: entry.hash,
        statement: 2,
        from,
        folio: 'x',
        token: Buffer.from(tokenDer).toString('base64'),
      },
    });
    const checks = await trailCheckpoints(ctx).verify();
    const check = checks.find((c) => c.seq === made.seq)!;
    expect(check.outcome).toBe('unverifiable');
    expect(checkpointAlarm([check])).toBeUndefined();
    expect(await trailCheckpoints(ctx).holds(made)).toBe(false);
  });

  it('call a checkpoint that names no entry forged, and still check the others', async () => {
    // A superuser (as here) writes any shape; a team's logins cannot since migration 0011 (row-owners.test.ts).
    const ctx = app.context;
    const before = await trailCheckpoints(ctx).verify();
    const broken = await ctx.audit.append({
      action: 'checkpoint',
      detail: { seq: '2147483647', hash: 'x', statement: 2, from: 'x', folio: 'x', token: 'x' },
    });
    const after = await trailCheckpoints(ctx).verify();
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.at(-1)).toMatchObject({ seq: broken.seq, outcome: 'forged', by: 'postgres' });
    // Its writer's doing, shown on the Team screen: not the alarm a contradicted or late checkpoint raises.
    const forged = after.at(-1)!;
    expect(checkpointAlarm([forged])).toBeUndefined();
    expect(checkpointAlarm([forged, { ...forged, outcome: 'late' }])).toMatchObject({ outcome: 'late' });
  });

  it('gives up a checkpoint when the chain’s lock is held, rather than write its token late', async () => {
    const ctx = app.context;
    await ctx.audit.append({ interviewId: 'held', action: 'opened', detail: {} });
    // Any login can hold the lock the chain's trigger takes.
    const holder = new pg.Client({ host: server.host, port: server.port, user: 'postgres', database });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock(151151)');
      const entry = { action: 'opened' as const, interviewId: 'held', detail: {} };
      await expect(ctx.audit.append(entry, { waitAtMostMs: 50 })).rejects.toMatchObject({
        data: { code: 'RECORD_BUSY', details: { holders: ['postgres'] } },
      });
      await holder.query('select pg_advisory_unlock(151151)');
      expect((await ctx.audit.append(entry, { waitAtMostMs: 50 })).interviewId).toBe('held');
    } finally {
      await holder.end();
    }
  });

  it('stamps again the stretch another login’s junk checkpoint took, and offers the genuine one as proof', async () => {
    const ctx = app.context;
    await server.asSuperuser(database, 'create role mallory login in role omni_reviewer');
    await ctx.audit.append({ interviewId: 'junked', action: 'opened', detail: {} });
    const start = (await trailCheckpoints(ctx).take())!;
    const entry = await ctx.audit.append({ interviewId: 'junked', action: 'played', detail: { positionSeconds: 1 } });
    // Mallory's psql: a checkpoint of that stretch whose token is nobody's.
    const mallory = await openRecord({
      kind: 'team',
      host: server.host,
      port: server.port,
      user: 'mallory',
      database,
      tls: 'disable',
    });
    try {
      await recordAuditTrail(mallory.db, () => ctx.environments.active().id).append({
        action: 'checkpoint',
        detail: {
          seq: entry.seq,
          hash: entry.hash,
          statement: 2,
          from: detailOf(start).seq + 1,
          folio: 'x',
          token: Buffer.from('not a token').toString('base64'),
        },
      });
    } finally {
      await mallory.close();
    }
    await ctx.audit.append({ interviewId: 'junked', action: 'opened', detail: {} });
    const taken = (await trailCheckpoints(ctx).take())!;
    expect(detailOf(taken).from).toBe(detailOf(start).seq + 1);
    expect(await trailCheckpoints(ctx).holds(taken)).toBe(true);
  });

  it('moves no app’s next checkpoint back for a copy of an old one or fresh stamps of an old stretch (red teams 18, 21)', async () => {
    const ctx = app.context;
    await ctx.audit.append({ interviewId: 'replayed', action: 'opened', detail: {} });
    const old = (await trailCheckpoints(ctx).take())!;
    await ctx.audit.append({ interviewId: 'replayed', action: 'played', detail: { positionSeconds: 1 } });
    const later = (await trailCheckpoints(ctx).take())!;
    // A copy of the old checkpoint at the head, as psql would send it: its token is on the trail already.
    await expect(
      server.asSuperuser(
        database,
        `insert into audit_entries (at, environment, interview_id, action, detail)
         select 'x', environment, interview_id, action, detail from audit_entries where seq = ${old.seq}`,
      ),
    ).rejects.toThrow(/token is on the trail already/);
    // Fresh stamps of the old stretch written at the head, more than a look walks through (red team 21): sound, and
    // covering less than what is covered already.
    for (let i = 0; i < 66; i++) {
      const fresh = await nom151Service(ctx).stamp(await statementOf(ctx.audit, old));
      await ctx.audit.append({
        action: 'checkpoint',
        detail: { ...(old.detail as Record<string, unknown>), folio: fresh.folio, token: fresh.token },
      });
    }
    await ctx.audit.append({ interviewId: 'replayed', action: 'opened', detail: {} });
    const next = (await trailCheckpoints(ctx).take())!;
    expect(detailOf(next).from).toBe(detailOf(later).seq + 1);
  });

  it('takes a due checkpoint when junk ones sit at the head, passing over their writer, whatever start they claim', async () => {
    const ctx = app.context;
    await server.asSuperuser(database, 'create role trudy login in role omni_reviewer');
    const trudy = await openRecord({
      kind: 'team',
      host: server.host,
      port: server.port,
      user: 'trudy',
      database,
      tls: 'disable',
    });
    const trail = recordAuditTrail(trudy.db, () => ctx.environments.active().id);
    // Each its own junk: a token is on the trail once.
    let junked = 0;
    const junk = (entry: { seq: number; hash?: string }, from: number) =>
      trail.append({
        action: 'checkpoint',
        detail: {
          seq: entry.seq,
          hash: entry.hash,
          statement: 2,
          from,
          folio: 'x',
          token: Buffer.from(`not a token ${++junked}`).toString('base64'),
        },
      });
    try {
      await ctx.audit.append({ interviewId: 'headed', action: 'opened', detail: {} });
      const start = (await trailCheckpoints(ctx).take())!;
      const from = detailOf(start).seq + 1;
      // A junk checkpoint written after each entry: the head is always a checkpoint, which had stopped every look.
      const entry = await ctx.audit.append({ interviewId: 'headed', action: 'opened', detail: {} });
      await junk(entry, from);
      const taken = await trailCheckpoints(ctx).maybe(Date.now() + 25 * 3_600_000);
      expect(taken).toBeDefined();
      expect(detailOf(taken!).from).toBe(from);

      // More junk than a look walks back through: the next one starts where the earliest of them does.
      const after = detailOf(taken!).seq + 1;
      const next = await ctx.audit.append({ interviewId: 'headed', action: 'played', detail: { positionSeconds: 1 } });
      for (let i = 0; i < 70; i++) await junk(next, after);
      await ctx.audit.append({ interviewId: 'headed', action: 'opened', detail: {} });
      const again = (await trailCheckpoints(ctx).take())!;
      expect(detailOf(again).from).toBe(after);
      expect(await trailCheckpoints(ctx).holds(again)).toBe(true);

      // Junk claiming to start at the first entry (the database takes that start from anyone): its writer is passed
      // over, and no app stamps the whole trail again (red team 20).
      const head = await ctx.audit.append({ interviewId: 'headed', action: 'opened', detail: {} });
      for (let i = 0; i < 70; i++) await junk(head, 1);
      await ctx.audit.append({ interviewId: 'headed', action: 'opened', detail: {} });
      const last = (await trailCheckpoints(ctx).take())!;
      expect(detailOf(last).from).toBe(detailOf(again).seq + 1);
    } finally {
      await trudy.close();
    }
  });

  it('takes a genuine token filed again in an envelope, long after it was issued, for forged: it covers nothing (red team 20)', async () => {
    const ctx = app.context;
    await ctx.audit.append({ interviewId: 'enveloped', action: 'opened', detail: {} });
    const genuine = (await trailCheckpoints(ctx).take())!;
    const { token } = genuine.detail as { token: string };
    // TimeStampResp ::= SEQUENCE { PKIStatusInfo { granted, "granted" }, the token }: the verifier reads either.
    const tlv = (tag: number, body: Buffer) => {
      const n = body.length;
      const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
      return Buffer.concat([Buffer.from([tag, ...length]), body]);
    };
    const status = tlv(
      0x30,
      Buffer.concat([tlv(0x02, Buffer.from([0])), tlv(0x30, tlv(0x0c, Buffer.from('granted')))]),
    );
    const wrapped = tlv(0x30, Buffer.concat([status, Buffer.from(token, 'base64')])).toString('base64');
    // Written 20 minutes after the token's time, as the database's clock would date a copy filed then.
    const at = new Date(Date.parse(genuine.at) + 20 * 60_000).toISOString();
    await server.asSuperuser(
      database,
      `insert into audit_entries (at, environment, interview_id, action, detail)
       select '${at}', environment, interview_id, action, jsonb_set(detail::jsonb, '{token}', '"${wrapped}"')
       from audit_entries where seq = ${genuine.seq}`,
    );
    const copy = (await ctx.audit.latest('checkpoint'))!;
    expect((copy.detail as { token: string }).token).toBe(wrapped);
    expect(await trailCheckpoints(ctx).holds(copy)).toBe(false);
    expect((await trailCheckpoints(ctx).verify()).find((c) => c.seq === copy.seq)).toMatchObject({ outcome: 'forged' });
    expect(await trailCheckpoints(ctx).holds(genuine)).toBe(true);
  });
});
