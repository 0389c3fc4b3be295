import { createHash } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { recordAuditTrail } from '../main/record/audit-records';
import { walkInThread } from '../main/record/chain-walk';
import { recordForApp } from '../main/record/index';
import { openRecord } from '../main/record/open';
import { MemoryJsonStore } from '../test/helpers/fake-safe-storage';
import { startPostgres } from '../test/helpers/postgres';
import type { Targets } from './targets';

/**
 * The audit trail at 1,000,000 entries on a real PostgreSQL server, its chain computed by the database's trigger.
 *
 * - `audit-verify-1m-vs-sha256-ratio`: plain SHA-256 over the same bytes the chain hashes, in this process, ÷ the
 *   app verifying the whole trail from the database (reads included). 1 would be verification as fast as hashing
 *   alone (target ≥ 0.5).
 * - `audit-verify-1m-ms`: the app's whole verification, beside it (no target: it depends on the machine). On a
 *   team's server it runs on the chain walker's thread (main/record/chain-walk.ts).
 * - `audit-verify-1m-main-stall-ms`: main's longest stall (event loop delay) meanwhile: what an IPC call waits at
 *   worst (target ≤ 100); `audit-verify-1m-in-main-stall-ms` beside it, the same walk in main a page at a time, as on
 *   the embedded engine.
 * - `tamper-seen-ms`: the owner turns the append-only trigger off and changes one entry in the middle; the time until
 *   a running app (its witness looking for changed rows) raises the alarm (target ≤ 1000).
 * - `trail-scan-1m-ms`: what the witness's once-a-second look for changed rows costs the database at 1,000,000
 *   entries (one scan of `xmin`; median of 5), beside it (no target).
 */
export const targets: Targets = {
  'audit-verify-1m-vs-sha256-ratio': { atLeast: 0.5 },
  'tamper-seen-ms': { atMost: 1000 },
  'audit-verify-1m-main-stall-ms': { atMost: 100 },
};

const ENTRIES = 1_000_000;

export default async function trailBench(): Promise<Record<string, number>> {
  const server = await startPostgres();
  try {
    const database = await server.createDatabase('trail_bench');
    const team = { kind: 'team' as const, host: server.host, port: server.port, database, tls: 'disable' as const };
    await (await openRecord({ ...team, user: 'postgres' })).close();
    const admin = new pg.Client({ host: server.host, port: server.port, user: 'postgres', database });
    await admin.connect();
    await admin.query('create role ana login in role omni_reviewer');
    // A million entries written as an analyst's app writes them: one insert each, chained by the trigger.
    const ana = new pg.Client({ host: server.host, port: server.port, user: 'ana', database });
    await ana.connect();
    await ana.query(`
      do $$ begin
        for i in 1..${ENTRIES} loop
          insert into audit_entries (at, environment, interview_id, action, detail)
          values (to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'bench', 'i-' || (i % 5000),
            case i % 3 when 0 then 'opened' when 1 then 'played' else 'noted' end,
            json_build_object('positionSeconds', i % 97, 'text', 'entry ' || i));
        end loop;
      end $$`);
    await ana.end();
    await admin.query('vacuum analyze audit_entries');

    // The baseline: the bytes each entry's hash covers, built beforehand, hashed in a loop.
    const { rows } = await admin.query<{ line: string }>(`
      select concat_ws(E'\\n', 'omni-audit-v2', prev_hash, seq::text, to_json(at)::text, to_json(environment)::text,
        coalesce(to_json(interview_id)::text, 'null'), to_json(action)::text, to_json(actor)::text, detail::text) as line
      from audit_entries order by seq`);
    const lines = rows.map((r) => r.line);
    const hashStart = performance.now();
    for (const line of lines) createHash('sha256').update(line).digest('hex');
    const hashMs = performance.now() - hashStart;
    lines.length = 0;

    // The whole trail verified as a running app does on a team's server (on the chain walker's thread), then in main
    // a page at a time (as on the embedded engine); main's longest stall measured during each.
    const reader = await openRecord({ ...team, user: 'ana' });
    let verifyMs: number;
    let threadStallMs: number;
    let mainStallMs: number;
    try {
      const stalls = async (run: () => Promise<unknown>) => {
        const delay = monitorEventLoopDelay({ resolution: 5 });
        delay.enable();
        const started = performance.now();
        const result = (await run()) as { ok: boolean };
        const ms = performance.now() - started;
        delay.disable();
        if (!result.ok) throw new Error(`the bench's own trail does not verify: ${JSON.stringify(result)}`);
        return { ms, stall: delay.max / 1e6 };
      };
      const walker = walkInThread(reader.threadConnection!);
      const threaded = await stalls(() =>
        recordAuditTrail(reader.db, () => 'bench', undefined, undefined, walker).verify(),
      );
      verifyMs = threaded.ms;
      threadStallMs = threaded.stall;
      mainStallMs = (await stalls(() => recordAuditTrail(reader.db, () => 'bench').verify())).stall;
    } finally {
      await reader.close();
    }

    // The witness's look for changed rows, as the database runs it.
    const scans: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await admin.query(
        `select seq from audit_entries
         where age(xmin) <= age((pg_snapshot_xmin(pg_current_snapshot())::text::bigint % 4294967296)::text::xid)`,
      );
      scans.push(performance.now() - started);
    }
    scans.sort((a, b) => a - b);

    // A running app, its witness up to date; then the owner's change behind it.
    const running = await openRecord({ ...team, user: 'ana' });
    let seenAt: number | undefined;
    const app = recordForApp(running, {
      environment: () => 'bench',
      store: new MemoryJsonStore(),
      log: { info: () => undefined, warn: () => undefined, error: () => undefined } as never,
      onTrailBroken: () => (seenAt ??= performance.now()),
    });
    let tamperMs: number;
    try {
      await app.audit.verify();
      const changedAt = performance.now();
      await admin.query(`alter table audit_entries disable trigger audit_entries_append_only`);
      await admin.query(`update audit_entries set detail = '{"forged":true}' where seq = ${ENTRIES / 2}`);
      await admin.query(`alter table audit_entries enable trigger audit_entries_append_only`);
      while (seenAt === undefined && performance.now() - changedAt < 60_000)
        await new Promise((resolve) => setTimeout(resolve, 5));
      tamperMs = (seenAt ?? Number.POSITIVE_INFINITY) - changedAt;
    } finally {
      await app.stop();
      await running.close();
      await admin.end();
    }
    return {
      'audit-verify-1m-vs-sha256-ratio': Math.round((hashMs / verifyMs) * 100) / 100,
      'audit-verify-1m-ms': Math.round(verifyMs),
      'audit-verify-1m-main-stall-ms': Math.round(threadStallMs),
      'audit-verify-1m-in-main-stall-ms': Math.round(mainStallMs),
      'tamper-seen-ms': Math.round(tamperMs),
      'trail-scan-1m-ms': Math.round(scans[2]!),
    };
  } finally {
    await server.stop();
  }
}
