import { createHash } from 'node:crypto';
import {
  DummyDriver,
  Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from 'kysely';
import { ReviewError } from '../errors';
import { MIGRATIONS } from './migrations';

/**
 * What a copy of an empty database is kept under (engines.ts): each migration's name and the SQL it runs, hashed. The
 * last name alone would not do: a migration merged in before it (another branch's), or one edited while unreleased,
 * changes the schema, not the last name. The SQL is read by running the migrations on a driver that only records.
 */
export async function migrationsFingerprint(migrations: Record<string, Migration>): Promise<string> {
  const hash = createHash('sha256');
  const db = new Kysely<unknown>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => void hash.update(`${event.query.sql}\n${JSON.stringify(event.query.parameters)}\n`),
  });
  for (const [name, migration] of Object.entries(migrations)) {
    hash.update(`-- ${name}\n`);
    await migration.up(db);
  }
  await db.destroy();
  return hash.digest('hex').slice(0, 12);
}

let schemaFingerprint: Promise<string> | undefined;

/** This version's schema, fingerprinted once per process. */
export function currentSchemaFingerprint(): Promise<string> {
  return (schemaFingerprint ??= migrationsFingerprint(MIGRATIONS));
}

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/**
 * Brings the database to this version's schema. A database already migrated by a newer version of the app is
 * refused before anything is written: this version does not know what the newer one changed.
 */
export async function migrateToLatest(db: Kysely<unknown>): Promise<void> {
  const applied = await appliedMigrations(db);
  const unknown = applied.filter((name) => !(name in MIGRATIONS));
  if (unknown.length > 0) throw databaseNewerThanApp(unknown.at(-1)!);
  // Up to date: the migrator's lock is not taken at all (any login can hold it, and every app's start waited on it).
  if (Object.keys(MIGRATIONS).every((name) => applied.includes(name))) return;
  // A step missing between applied ones (one merged in before them: the steps are independent) is applied too.
  const { error, results } = await new Migrator({ db, provider, allowUnorderedMigrations: true }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    // A reviewer's login may not change the schema: the owner's must bring a team database up to date first.
    if ((error as { code?: unknown }).code === '42501') throw needsOwner(failed);
    if ((error as { constraint?: unknown }).constraint === 'omni_temporary_revoked') throw temporaryGranted(error);
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

/** Migration 0011 stops where every login may still make temporary objects (and so forge the database's entries). */
function temporaryGranted(error: unknown): ReviewError {
  const database = String((error as { detail?: unknown }).detail ?? '');
  const command = `REVOKE TEMPORARY ON DATABASE ${database} FROM PUBLIC`;
  return new ReviewError(
    'RECORD_TEMPORARY_GRANTED',
    {
      en: `Every login of the team database ${database} may create temporary tables, with which it could write entries only the database may write; this version does not start on it.`,
      es: `Cada usuario de la base de datos del equipo ${database} puede crear tablas temporales, con las que podría escribir entradas que solo la base de datos escribe; esta versión no inicia sobre ella.`,
    },
    {
      en: `Ask whoever administers the server to run, as the database's owner, ${command}; then start again. Nothing else was changed.`,
      es: `Pide a quien administra el servidor que ejecute, como dueño de la base de datos, ${command}; luego vuelve a iniciar. No se cambió nada más.`,
    },
  );
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
