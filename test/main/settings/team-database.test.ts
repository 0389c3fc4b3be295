import { startTestApp } from '../../helpers/app-context';
import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeamDatabaseInput } from '../../../common/ipc/settings';
import { MemoryVault } from '../../../main/auth/memory-vault';
import { recordAuditTrail } from '../../../main/record/audit-records';
import type { RecordEngine } from '../../../main/record/engines';
import { openRecord, reviewRecord } from '../../../main/record/index';
import { reviewService } from '../../../main/review/service';
import { teamDatabaseSettings } from '../../../main/settings/team-database';
import { MemoryJsonStore } from '../../helpers/fake-safe-storage';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';

let server: TestPostgres;
const dataDir = mkdtempSync(join(tmpdir(), 'omni-team-db-'));
beforeAll(async () => {
  server = await startPostgres();
  await server.createDatabase('team');
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const address = () => ({
  host: server.host,
  port: server.port,
  database: 'team',
  user: server.user,
  tls: 'disable' as const,
});

describe('the team database in Settings', () => {
  it('keeps the address in the settings and the password in the vault only, and tests the server', async () => {
    const store = new MemoryJsonStore();
    const vault = new MemoryVault();
    const team = teamDatabaseSettings({ store, vault });
    await expect(team.test()).rejects.toMatchObject({ data: { code: 'TEAM_DATABASE_NOT_SET' } });
    expect(() => team.choose('team')).toThrow(/No team database/);

    const teamKey = 'k3JbY1cF0m5dQ9l2yT8xV7wZ4aR6sN0pE1hG3jU5iO8=';
    await team.save(address(), 'contraseña-secreta', teamKey);
    const view = await team.view('embedded');
    expect(view).toEqual({
      inUse: 'embedded',
      chosen: 'embedded',
      config: { ...address(), caSet: false },
      passwordSet: true,
      teamKeySet: true,
    });
    expect(JSON.stringify(view) + store.dump()).not.toContain('contraseña-secreta');
    expect(JSON.stringify(view) + store.dump()).not.toContain(teamKey);
    expect(await team.teamKey()).toBe(teamKey);
    const tested = await team.test();
    expect(tested.user).toBe('postgres');
    expect(Number.parseInt(tested.serverVersion, 10)).toBeGreaterThanOrEqual(14);

    team.choose('team');
    expect((await team.view('embedded')).chosen).toBe('team');
  });

  it('names what is wrong: no such database, nothing listening', async () => {
    const team = teamDatabaseSettings({ store: new MemoryJsonStore(), vault: new MemoryVault() });
    await team.save({ ...address(), database: 'missing' });
    await expect(team.test()).rejects.toMatchObject({
      data: { code: 'TEAM_DATABASE_UNREACHABLE', message: { en: expect.stringContaining('no database by that name') } },
    });
    await team.save({ ...address(), port: 1 });
    await expect(team.test()).rejects.toMatchObject({
      data: { message: { es: expect.stringContaining('Nada respondió') } },
    });
  });

  it('refuses a server on another machine without verified TLS, where the address is typed', () => {
    const remote = { ...address(), host: 'db.example.mx' };
    expect(TeamDatabaseInput.safeParse(remote).success).toBe(false);
    expect(TeamDatabaseInput.safeParse({ ...remote, tls: 'verify-full' }).success).toBe(true);
    expect(TeamDatabaseInput.safeParse({ ...address(), host: 'db;drop' }).success).toBe(false);
  });

  it('a start with the team database chosen keeps the record there; unreachable, it works on this computer and says so', async () => {
    const store = new MemoryJsonStore();
    const vault = new MemoryVault();
    const team = teamDatabaseSettings({ store, vault });
    await team.save(address());
    team.choose('team');
    const start = (dir: string) => startTestApp(join(dataDir, dir), { store, vault });
    const app = await start('reachable');
    try {
      expect(app.context.record.engine).toBe('team');
      await reviewService(app.context).queue.add([{ interviewId: 'shared-1' }]);
      const client = new pg.Client({ host: server.host, port: server.port, user: server.user, database: 'team' });
      await client.connect();
      const { rows } = await client.query('select interview_id from queue_entries');
      await client.end();
      expect(rows).toEqual([{ interview_id: 'shared-1' }]);
    } finally {
      await app.close();
    }

    await team.save({ ...address(), port: 1 });
    const away = await start('away');
    try {
      expect(away.context.record.engine).toBe('embedded');
      expect(away.context.record.startProblem?.en).toMatch(/Nothing answered/);
      expect((await team.view(away.context.record.engine, away.context.record.startProblem)).chosen).toBe('team');
    } finally {
      await away.close();
    }
  }, 60_000);
});

describe('docs/team-database.sql, as an administrator runs it', () => {
  it('is the SQL the README shows, word for word', () => {
    const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');
    const shown = /```sql\n([\s\S]*?)\n\s*```/.exec(readme)?.[1];
    const unindented = shown?.replace(/^ {3}/gm, '');
    const file = readFileSync(fileURLToPath(new URL('../../../docs/team-database.sql', import.meta.url)), 'utf8');
    expect(unindented?.trim()).toBe(file.trim());
  });

  // A server of its own: the roles are the cluster's, and the file makes them, as on a new server.
  let fresh: TestPostgres;
  beforeAll(async () => {
    fresh = await startPostgres();
  }, 60_000);
  afterAll(() => fresh?.stop());

  it('lets the owner make the schema and the analysts work in it with their roles, but not change the audit trail', async () => {
    const server = fresh;
    server.psql(fileURLToPath(new URL('../../../docs/team-database.sql', import.meta.url)));

    const as = (user: string, password: string): RecordEngine => ({
      kind: 'team',
      host: server.host,
      port: server.port,
      database: 'omni_review',
      user,
      password,
      tls: 'disable',
    });
    const owner = await openRecord(as('omni_owner', 'change-me-owner'));
    await owner.close();
    const ana = await openRecord(as('ana', 'change-me-ana'));
    const sofia = await openRecord(as('sofia', 'change-me-sofia'));
    try {
      const record = reviewRecord(ana);
      expect(await record.teamSettings.whoAmI()).toEqual({ user: 'ana', roles: ['reviewer'] });
      expect(await reviewRecord(sofia).teamSettings.whoAmI()).toEqual({
        user: 'sofia',
        roles: ['reviewer', 'supervisor'],
      });
      await record.queue.put('production', [
        { interviewId: 'team-1', addedAt: '2026-11-25T10:00:00.000Z', localState: 'toReview' },
      ]);
      expect(await record.claims.takeNext('production')).toMatchObject({ interviewId: 'team-1', holder: 'ana' });
      expect(await reviewRecord(sofia).claims.reassign('production', 'team-1', 'beto')).toMatchObject({
        holder: 'beto',
      });
      const approval = {
        decision: 'approve' as const,
        reason: 'OK',
        acknowledgedFindings: [],
        decidedAt: '2026-11-25T10:01:00.000Z',
        environment: 'production',
        status: 'final' as const,
      };
      // Beto holds it now: ana's decision is refused by the database, naming him.
      await expect(record.decisions.add('team-1', approval)).rejects.toMatchObject({
        data: { code: 'CLAIMED_BY_OTHER', details: { holder: 'beto' } },
      });
      await reviewRecord(sofia).claims.reassign('production', 'team-1', 'ana');
      await record.readings.add('production', 'team-1', 'low', []);
      await record.decisions.add('team-1', approval);
      const audit = recordAuditTrail(ana.db, () => 'production');
      // The decision's entry is the database's (migration 0013), in ana's name; hers to append is anything else.
      expect((await audit.latest())?.action).toBe('decided');
      expect((await audit.latest())?.actor).toBe('ana');
      await audit.append({ interviewId: 'team-1', action: 'opened', detail: {} });
      await expect(sql`delete from audit_entries`.execute(ana.db)).rejects.toThrow(/append-only|permission denied/);
      await expect(sql`create table mine (a int)`.execute(ana.db)).rejects.toThrow(/permission denied/);
    } finally {
      await ana.close();
      await sofia.close();
    }
  }, 60_000);
});
