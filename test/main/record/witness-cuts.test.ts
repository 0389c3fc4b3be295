import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordLinkView } from '../../../common/ipc/app';
import type { TeamChangesView } from '../../../common/ipc/team';
import { RESYNC_NOTICE } from '../../../common/team-review';
import { handlers } from '../../../main/ipc/handlers/index';
import { createLogger } from '../../../main/log';
import { createRouter } from '../../../main/ipc/router';
import { startTestApp } from '../../helpers/app-context';
import { startTeamPostgres, TEAM_DATABASE, type TestPostgres } from '../../helpers/postgres';
import { APP_URL, callThrough } from '../../helpers/router-calls';

/**
 * README: "If the owner rewrites history anyway, every running app sees it … entries changed, removed or re-chained
 * … a re-chained or cut history at its next look". row-owners.test.ts attacks a re-chain and one changed entry; here
 * the owner cuts the trail instead: its last entries removed, removed and written again past the old head, or the
 * whole table emptied and refilled to the same head, each in one transaction with the triggers off, as only the owner
 * may. A running app (an analyst's, started as the web shell starts main) raises its alarm each time: the screens are
 * told to read again and the record's link says the trail was rewritten.
 */
let server: TestPostgres;
let owner: pg.Client;
const database = TEAM_DATABASE;
const dirs: string[] = [];

beforeAll(async () => {
  ({ server, owner } = await startTeamPostgres());
}, 60_000);

afterAll(async () => {
  await owner?.end().catch(() => undefined);
  await server?.stop();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const head = async () =>
  Number((await owner.query<{ m: string }>('select max(seq) as m from audit_entries')).rows[0]!.m);

/** Entries as the owner writes them by hand: the database still numbers, dates and chains them. */
const written = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `insert into audit_entries (at, environment, interview_id, action, detail)
        values ('x', 'production', 'c1', 'opened', '{"again": ${i}}');`,
  ).join('\n');
const appendOnlyOff = 'alter table audit_entries disable trigger audit_entries_append_only;';
const appendOnlyOn = 'alter table audit_entries enable trigger audit_entries_append_only;';

/**
 * An analyst's app running on the team database, its trail verified at the head; then the owner's attack, in one
 * transaction of its own session. Resolves with the heads before and after, once the running app has raised its alarm.
 */
async function attackWhileRunning(user: string, attack: (head: number) => string) {
  const dir = mkdtempSync(join(tmpdir(), 'omni-witness-cuts-'));
  dirs.push(dir);
  const logged: { level: string; message: string }[] = [];
  const app = await startTestApp(dir, {
    log: createLogger({ sink: (line) => logged.push(JSON.parse(line) as { level: string; message: string }) }),
    recordEngine: {
      kind: 'team',
      host: server.host,
      port: server.port,
      user,
      database,
      password: `change-me-${user}`,
      tls: 'disable',
    },
  });
  const router = createRouter({ handlers, context: app.context, appUrl: APP_URL });
  const call = <T>(channel: string, input: unknown) => callThrough<T>(router, channel, input);
  try {
    for (const i of [1, 2, 3]) await app.context.audit.append({ interviewId: 'c1', action: 'opened', detail: { i } });
    expect(await app.context.audit.verify()).toEqual({ ok: true });
    expect((await call<RecordLinkView>('app.recordLink', {})).trail).toBeUndefined();
    const { cursor } = await call<TeamChangesView>('team.changes', { after: 0, waitMs: 0 });

    const before = await head();
    await owner.query(`begin;\n${attack(before)}\ncommit;`);
    const after = await head();

    // The running app sees it by itself (no verify asked of it): the link every screen reads says so…
    await expect
      .poll(async () => (await call<RecordLinkView>('app.recordLink', {})).trail, { timeout: 5_000, interval: 20 })
      .toMatchObject({ ok: false, rewritten: true });
    // …and the screens were told to read again, which is how each shows the alarm at once.
    const { notices } = await call<TeamChangesView>('team.changes', { after: cursor, waitMs: 0 });
    expect(notices).toContainEqual(RESYNC_NOTICE);
    // …and its log says why, once.
    expect(logged.filter((line) => line.level === 'error').map((line) => line.message)).toEqual([
      'The audit trail no longer verifies: it was changed behind this app',
    ]);
    // Never called intact again, whatever is asked.
    expect(await app.context.audit.verify()).toMatchObject({ ok: false, rewritten: true });
    return { before, after };
  } finally {
    await app.close();
  }
}

describe('the owner cuts the trail behind a running app', () => {
  it('removes its last entries: the running app raises its alarm', async () => {
    const { before, after } = await attackWhileRunning(
      'ana',
      (h) => `${appendOnlyOff} delete from audit_entries where seq > ${h - 2}; ${appendOnlyOn}`,
    );
    expect(after).toBe(before - 2);
  });

  it('removes its last entries and writes past the old head in the same transaction: the alarm too', async () => {
    const { before, after } = await attackWhileRunning(
      'beto',
      (h) => `${appendOnlyOff} delete from audit_entries where seq > ${h - 2}; ${appendOnlyOn} ${written(3)}`,
    );
    expect(after).toBe(before + 1);
  });

  it('empties it (TRUNCATE) and refills it to the same head in the same transaction: the alarm too', async () => {
    const { before, after } = await attackWhileRunning(
      'sofia',
      (h) => `alter table audit_entries disable trigger user; truncate audit_entries;
        alter table audit_entries enable trigger user; ${written(h)}`,
    );
    expect(after).toBe(before);
  });
});
