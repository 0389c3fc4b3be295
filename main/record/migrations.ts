import { createHash } from 'node:crypto';
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { ReviewError } from '../errors';
import { rowOwners } from './migration-row-owners';
import { teamReview } from './migration-team-review';

/**
 * The review record's schema, version by version. Run at every start on either engine (embedded PGlite or a team's
 * PostgreSQL); Kysely's migrator takes a lock, so two analysts starting at once migrate once. Never edit a released
 * migration: add the next one.
 */
const MIGRATIONS: Record<string, Migration> = {
  '0001-review-record': {
    async up(db) {
      await db.schema
        .createTable('queue_entries')
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('interview_id', 'text', (c) => c.notNull())
        .addColumn('added_at', 'timestamptz', (c) => c.notNull())
        .addColumn('local_state', 'text', (c) => c.notNull())
        .addColumn('label', 'text')
        .addColumn('label_es', 'text')
        .addColumn('session_status', 'text')
        .addColumn('session_status_seen_at', 'timestamptz')
        .addColumn('last_opened_at', 'timestamptz')
        .addPrimaryKeyConstraint('queue_entries_pk', ['environment', 'interview_id'])
        .execute();
      // The queue's order: oldest first, the id breaking ties.
      await db.schema
        .createIndex('queue_entries_order')
        .on('queue_entries')
        .columns(['environment', 'added_at', 'interview_id'])
        .execute();

      await db.schema
        .createTable('drafts')
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('interview_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
        .addColumn('last_error', 'jsonb')
        .addPrimaryKeyConstraint('drafts_pk', ['environment', 'interview_id', 'kind'])
        .execute();

      await db.schema
        .createTable('decisions')
        .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('interview_id', 'text', (c) => c.notNull())
        .addColumn('decision', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('acknowledged_findings', 'jsonb', (c) => c.notNull())
        .addColumn('decided_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('decisions_by_interview')
        .on('decisions')
        .columns(['environment', 'interview_id', 'id'])
        .execute();

      // `at` is the exact text that was hashed; `detail` is json (not jsonb) so its text is kept as written.
      await db.schema
        .createTable('audit_entries')
        .addColumn('seq', 'integer', (c) => c.primaryKey())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('interview_id', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('detail', 'json', (c) => c.notNull())
        .addColumn('prev_hash', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .execute();
      await db.schema
        .createIndex('audit_entries_by_interview')
        .on('audit_entries')
        .columns(['interview_id', 'seq'])
        .execute();
      await db.schema
        .createIndex('audit_entries_last_recorded')
        .on('audit_entries')
        .columns(['environment', 'action', 'interview_id', 'seq'])
        .execute();
      // Append-only for every role, the owner included: privileges alone do not bind a table's owner.
      await sql`
        create function audit_entries_append_only() returns trigger language plpgsql as $$
        begin
          raise exception 'the audit trail is append-only: % is refused', tg_op using errcode = 'insufficient_privilege';
        end $$`.execute(db);
      await sql`
        create trigger audit_entries_append_only before update or delete on audit_entries
        for each row execute function audit_entries_append_only()`.execute(db);
      await sql`
        create trigger audit_entries_no_truncate before truncate on audit_entries
        for each statement execute function audit_entries_append_only()`.execute(db);
      await sql`revoke update, delete, truncate on audit_entries from public`.execute(db);

      // Facts about the record itself, such as when the JSON files of earlier versions were imported.
      await db.schema
        .createTable('record_meta')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'jsonb', (c) => c.notNull())
        .execute();
    },
  },
  // The queue is read a page at a time (queue-records.ts): each order and the common filter get an index whose
  // order is the page's, so the first page (and any page after a cursor) is an index range scan.
  '0002-queue-paging': {
    async up(db) {
      await db.schema
        .createIndex('queue_entries_state_order')
        .on('queue_entries')
        .columns(['environment', 'local_state', 'added_at', 'interview_id'])
        .execute();
      // Never-seen statuses last: the same expressions as the status order's sort key.
      await sql`
        create index queue_entries_status_order on queue_entries
        (environment, (session_status is null), coalesce(session_status, ''), interview_id)`.execute(db);
    },
  },
  '0003-team-review': teamReview,
  // Session tokens shared with the team, sealed with the team key (shared-session-tokens.ts): never in clear here.
  '0004-shared-session-tokens': {
    async up(db) {
      await db.schema
        .createTable('shared_session_tokens')
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('interview_id', 'text', (c) => c.notNull())
        .addColumn('sealed', 'text', (c) => c.notNull())
        .addColumn('sealed_by', 'text', (c) => c.notNull().defaultTo(sql`current_user`))
        .addColumn('sealed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('shared_session_tokens_pk', ['environment', 'interview_id'])
        .execute();
      // Every member may share and read sealed tokens; without the team key they are noise.
      await sql`
        do $$ begin
          if exists (select 1 from pg_roles where rolname = 'omni_reviewer') then
            grant select, insert, update, delete on shared_session_tokens to omni_reviewer;
          end if;
        end $$`.execute(db);
    },
  },
  // The queue's views filter by risk too: what the interview's checks were last read with. Indexed in the queue's
  // order, so a risk view's first page is a range scan even where no statistics say how rare a level is (PGlite
  // keeps none): without it, 85 ms at 100,000 interviews.
  '0005-queue-risk': {
    async up(db) {
      await db.schema.alterTable('queue_entries').addColumn('risk', 'text').execute();
      await db.schema
        .createIndex('queue_entries_risk_order')
        .on('queue_entries')
        .columns(['environment', 'risk', 'added_at', 'interview_id'])
        .execute();
    },
  },
  // Every row's owner set by the database, claims that bind, four eyes from readings, the chain computed here.
  '0006-row-owners': rowOwners,
};

/**
 * Every migration's name, hashed: what a copy of an empty database is kept under (engines.ts). The last name alone
 * would not do: a migration merged in before it (another branch's) changes the schema, not the last name.
 */
export const SCHEMA_FINGERPRINT = createHash('sha256')
  .update(Object.keys(MIGRATIONS).join('\n'))
  .digest('hex')
  .slice(0, 12);

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/**
 * Brings the database to this version's schema. A database already migrated by a newer version of the app is
 * refused before anything is written: this version does not know what the newer one changed.
 */
export async function migrateToLatest(db: Kysely<unknown>): Promise<void> {
  const applied = await appliedMigrations(db);
  const unknown = applied.filter((name) => !(name in MIGRATIONS));
  if (unknown.length > 0) throw databaseNewerThanApp(unknown.at(-1)!);
  // A step missing between applied ones (one merged in before them: the steps are independent) is applied too.
  const { error, results } = await new Migrator({ db, provider, allowUnorderedMigrations: true }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    // A reviewer's login may not change the schema: the owner's must bring a team database up to date first.
    if ((error as { code?: unknown }).code === '42501') throw needsOwner(failed);
    throw new ReviewError(
      'RECORD_MIGRATION_FAILED',
      {
        en: `The review database could not be brought up to date${failed ? ` (step ${failed})` : ''}.`,
        es: `No se pudo actualizar la base de datos de revisión${failed ? ` (paso ${failed})` : ''}.`,
      },
      {
        en: 'Nothing was changed. Check that the database user may create tables, then start again.',
        es: 'No se cambió nada. Revisa que el usuario de la base de datos pueda crear tablas y vuelve a iniciar.',
      },
      { details: { reason: error instanceof Error ? error.message : String(error) } },
    );
  }
}

async function appliedMigrations(db: Kysely<unknown>): Promise<string[]> {
  const { rows } = await sql<{ exists: boolean }>`select to_regclass('kysely_migration') is not null as exists`.execute(
    db,
  );
  if (!rows[0]?.exists) return [];
  const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return applied.rows.map((r) => r.name);
}

function needsOwner(step: string | undefined): ReviewError {
  return new ReviewError(
    'RECORD_NEEDS_OWNER',
    {
      en: `The team database needs this version's update${step ? ` (step ${step})` : ''}, which only the login that owns it may make.`,
      es: `La base de datos del equipo necesita la actualización de esta versión${step ? ` (paso ${step})` : ''}, y solo puede hacerla el usuario dueño de la base.`,
    },
    {
      en: 'Ask whoever set up the team database to start this version once with the owner’s login, then start again. Nothing was changed.',
      es: 'Pide a quien preparó la base de datos del equipo que inicie esta versión una vez con el usuario dueño y vuelve a iniciar. No se cambió nada.',
    },
  );
}

function databaseNewerThanApp(latest: string): ReviewError {
  return new ReviewError(
    'RECORD_NEWER_THAN_APP',
    {
      en: `The review database was set up by a newer version of Omni Reviewer (schema ${latest}).`,
      es: `La base de datos de revisión la preparó una versión más nueva de Omni Reviewer (esquema ${latest}).`,
    },
    {
      en: 'Install the newest version of the app. Nothing was written to the database.',
      es: 'Instala la versión más reciente de la aplicación. No se escribió nada en la base de datos.',
    },
  );
}
