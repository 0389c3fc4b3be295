import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContextHandle } from '../../../main/app-context';
import { recordAuditTrail } from '../../../main/record/audit-records';
import { openRecord } from '../../../main/record/open';
import { checkpointStatement, trailCheckpoints } from '../../../main/trail/checkpoints';
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
      detail: { seq: 3, folio: expect.any(String), token: expect.any(String), genTime: expect.any(String) },
    });
    // Nothing new since: no second one.
    expect(await checkpoints.maybe(Date.now() + 50 * 3_600_000)).toBeUndefined();
    expect(await checkpoints.verify()).toEqual([{ seq: 4, covers: 3, outcome: 'ok', genTime: expect.any(String) }]);

    // An auditor with OpenSSL only: the statement, the token and the service's root.
    const [checkpoint] = await ctx.audit.list({ action: 'checkpoint' });
    const detail = checkpoint!.detail as { seq: number; hash: string; token: string };
    const demoUrl = app.demoUrl()!;
    writeFileSync(join(dir, 'root.pem'), await (await fetch(`${demoUrl}/__demo/nom151-root.pem`)).text());
    writeFileSync(join(dir, 'token.der'), Buffer.from(detail.token, 'base64'));
    writeFileSync(join(dir, 'statement.txt'), checkpointStatement(detail.seq, detail.hash));
    const verify = ['ts', '-verify', '-data', 'statement.txt', '-in', 'token.der', '-token_in', '-CAfile', 'root.pem'];
    expect(openssl(verify)).toContain('Verification: OK');

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
    expect(await checkpoints.verify()).toEqual([
      { seq: 4, covers: 3, outcome: 'contradicted', genTime: expect.any(String) },
    ]);
    // OpenSSL says the same: the earlier token does not timestamp the re-chained head.
    const [rechained] = await ctx.audit.list({ seq: 3 });
    writeFileSync(join(dir, 'statement.txt'), checkpointStatement(3, rechained!.hash));
    expect(rechained!.hash).not.toBe(detail.hash);
    expect(openssl(verify)).toMatch(/FAILED[\s\S]*message imprint mismatch/);
  });
});
