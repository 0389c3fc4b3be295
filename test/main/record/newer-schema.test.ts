import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAuditTrail } from '../../../main/record/audit-records';
import { startEmbedded, type RecordEngine } from '../../../main/record/engines';
import { openRecord } from '../../../main/record/open';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';

/**
 * README: "a database set up by a newer version of the app is refused, never written". A newer version's step in
 * `kysely_migration` that this version does not know: every start on that record (the owner's, an analyst's, this
 * computer's) is refused with RECORD_NEWER_THAN_APP, and the record is as it was, down to its transaction counter.
 */
const NEWER = '9999-from-a-newer-version';

/**
 * What a write would change: the schema's objects, the steps on file, the trail's head, every table's rows, and the
 * next transaction id (any transaction that writes takes one; reads take none).
 */
const FINGERPRINT = `select
  (select count(*) from pg_class where relnamespace = 'public'::regnamespace)::int as classes,
  (select count(*) from pg_proc where pronamespace = 'public'::regnamespace)::int as procs,
  (select count(*) from pg_trigger t join pg_class c on c.oid = t.tgrelid
    where c.relnamespace = 'public'::regnamespace)::int as triggers,
  (select string_agg(name || ' ' || timestamp, ',' order by name) from kysely_migration) as migrations,
  (select max(seq) from audit_entries)::int as head,
  (select sum((xpath('/row/n/text()', query_to_xml(format('select count(*) as n from %I.%I', schemaname, tablename),
    false, true, '')))[1]::text::bigint) from pg_tables where schemaname = 'public')::int as rows,
  pg_snapshot_xmax(pg_current_snapshot())::text as next_xid`;

async function fingerprint(connection: pg.ClientConfig): Promise<Record<string, unknown>> {
  const client = new pg.Client(connection);
  await client.connect();
  try {
    return (await client.query(FINGERPRINT)).rows[0] as Record<string, unknown>;
  } finally {
    await client.end();
  }
}

const refusal = {
  data: {
    code: 'RECORD_NEWER_THAN_APP',
    message: { en: expect.stringContaining(`newer version of Omni Reviewer (schema ${NEWER})`) },
    advice: { en: expect.stringContaining('Nothing was written') },
  },
};

describe('a team database set up by a newer version', () => {
  let server: TestPostgres;
  const database = 'omni_review';
  const as = (user: string): RecordEngine => ({
    kind: 'team',
    host: server.host,
    port: server.port,
    user,
    database,
    password: `change-me-${user.replace('omni_', '')}`,
    tls: 'disable',
  });
  const superuser = () => ({ host: server.host, port: server.port, user: server.user, database });

  beforeAll(async () => {
    server = await startPostgres();
    // Nothing but the starts below may take a transaction id meanwhile: no autovacuum's ANALYZE.
    await server.asSuperuser('postgres', 'alter system set autovacuum = off');
    await server.asSuperuser('postgres', 'select pg_reload_conf()');
    server.psql(join(import.meta.dirname, '../../../docs/team-database.sql'));
    // The owner migrates, as README says; a few entries on the trail, then a newer version's step.
    const first = await openRecord(as('omni_owner'));
    const trail = recordAuditTrail(first.db, () => 'production');
    for (const id of ['n1', 'n2']) await trail.append({ interviewId: id, action: 'opened', detail: {} });
    await first.close();
    await server.asSuperuser(
      database,
      `insert into kysely_migration (name, timestamp) values ('${NEWER}', '2030-01-01T00:00:00.000Z')`,
    );
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('is refused for the owner and for an analyst, and nothing is written', async () => {
    const before = await fingerprint(superuser());
    expect(before).toMatchObject({ head: 2, migrations: expect.stringContaining(NEWER) });

    await expect(openRecord(as('omni_owner'))).rejects.toMatchObject(refusal);
    await expect(openRecord(as('ana'))).rejects.toMatchObject(refusal);

    expect(await fingerprint(superuser())).toEqual(before);
  });
});

describe('this computer’s record set up by a newer version', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'omni-newer-schema-'));
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('is refused, and nothing is written', async () => {
    const first = await openRecord({ kind: 'embedded', dataDir });
    const trail = recordAuditTrail(first.db, () => 'production');
    for (const id of ['n1', 'n2']) await trail.append({ interviewId: id, action: 'opened', detail: {} });
    await trail.append({ interviewId: 'n1', action: 'opened', detail: {} });
    await first.close();
    // The newer version's step, written with the engine alone (PGlite on its socket), as that version left it.
    const newer = await startEmbedded(dataDir);
    try {
      const client = new pg.Client(newer.connection);
      await client.connect();
      await client.query(`insert into kysely_migration (name, timestamp) values ($1, '2030-01-01T00:00:00.000Z')`, [
        NEWER,
      ]);
      await client.end();
    } finally {
      await newer.stop();
    }
    const look = async () => {
      const engine = await startEmbedded(dataDir);
      try {
        return await fingerprint(engine.connection);
      } finally {
        await engine.stop();
      }
    };
    const before = await look();
    expect(before).toMatchObject({ head: 3, migrations: expect.stringContaining(NEWER) });

    await expect(openRecord({ kind: 'embedded', dataDir })).rejects.toMatchObject(refusal);

    expect(await look()).toEqual(before);
  });
});
