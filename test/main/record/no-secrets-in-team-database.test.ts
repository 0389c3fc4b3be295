import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContextHandle } from '../../../main/app-context';
import { openRecord } from '../../../main/record/open';
import { reviewService } from '../../../main/review/service';
import { settingsService } from '../../../main/settings/service';
import { startTestApp } from '../../helpers/app-context';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';

/**
 * README: secrets never reach a shared database. An analyst's day on a team's record (the demo's interviews imported
 * with their session tokens, shared sealed with the team key; an interview opened, noted, named and decided; a
 * verification's answer kept), then every row of every table is read back as the database's superuser and searched for
 * every secret this computer holds: the service's credentials, each session token, the team key, the database's
 * password.
 */
let server: TestPostgres;
let app: AppContextHandle;
let dir: string;
const database = 'no_secrets';

beforeAll(async () => {
  server = await startPostgres();
  await server.createDatabase(database);
  const team = { kind: 'team' as const, host: server.host, port: server.port, database, tls: 'disable' as const };
  await (await openRecord({ ...team, user: 'postgres' })).close();
  await server.asSuperuser(database, 'create role ana login in role omni_reviewer');
  dir = mkdtempSync(join(tmpdir(), 'omni-no-secrets-'));
  app = await startTestApp(dir, { recordEngine: { ...team, user: 'ana' } });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a team database after a day of work', () => {
  it('holds none of the secrets of the computer that worked on it', async () => {
    const ctx = app.context;
    const teamKey = randomBytes(32).toString('base64');
    const password = 'team-db-password-5e2f';
    await settingsService(ctx).saveTeamDatabase(
      { host: server.host, port: server.port, database, user: 'ana', tls: 'disable' },
      password,
      teamKey,
    );
    const review = reviewService(ctx);
    await review.addDemoSeeds();
    const seeds = (await fetch(`${app.demoUrl()!}/__demo/interviews`).then((r) => r.json())) as {
      interviewId: string;
      sessionToken: string;
    }[];
    const id = 'demo-clean-pass';
    await review.open(id);
    await review.saveDraft(id, 'notes', 'Cotejé la identificación');
    await review.sendText(id, 'notes');
    await review.saveDraft(id, 'name', 'Ana Cliente');
    await review.sendText(id, 'name');
    await review.decide(id, 'approve', 'Todo coincide', false);
    // The shared, sealed tokens are there (so the search below reads where they are kept).
    const secrets = [
      ...(await Promise.all(
        (['apiKey', 'integrationId', 'secret'] as const).map((name) => ctx.vault.getCredential('demo', name)),
      )),
      // As held (the demo issues each anew, dated to the second), and as the demo lists them.
      ...(await Promise.all(seeds.map((s) => ctx.vault.getSessionToken('demo', s.interviewId)))),
      ...seeds.map((s) => s.sessionToken),
      teamKey,
      Buffer.from(teamKey, 'base64').toString('hex'),
      password,
    ].filter((s): s is string => typeof s === 'string' && s.length > 0);
    expect(secrets.length).toBeGreaterThanOrEqual(seeds.length + 5);

    const superuser = new pg.Client({ host: server.host, port: server.port, user: 'postgres', database });
    await superuser.connect();
    try {
      const { rows: tables } = await superuser.query<{ name: string }>(
        `select quote_ident(table_schema) || '.' || quote_ident(table_name) as name from information_schema.tables
         where table_schema not in ('pg_catalog', 'information_schema') and table_type = 'BASE TABLE'`,
      );
      const dump: string[] = [];
      for (const { name } of tables) {
        const { rows } = await superuser.query<{ row: string }>(`select row_to_json(t)::text as row from ${name} t`);
        dump.push(...rows.map((r) => `${name} ${r.row}`));
      }
      const text = dump.join('\n');
      // The day's work is in it: the note, the decision, the sealed tokens.
      expect(text).toContain('Cotejé la identificación');
      expect(text).toMatch(/shared_session_tokens|session_tokens/);
      for (const secret of secrets) expect(text.includes(secret), `a secret in the team database`).toBe(false);
    } finally {
      await superuser.end();
    }
  });
});
