import { type Migration, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { emptyDatabaseCopy } from '../../../main/record/engines';
import { currentSchemaFingerprint, migrationsFingerprint } from '../../../main/record/migrate';
import { MIGRATIONS } from '../../../main/record/migrations';

/** The empty-database copy is kept under the migrations' content, so a changed migration never reuses an old copy. */
describe('the schema fingerprint', () => {
  const withStep = (name: string, statement: string): Record<string, Migration> => ({
    ...MIGRATIONS,
    [name]: { up: async (db) => void (await sql.raw(statement).execute(db)) },
  });

  it('is the same for the same migrations, and names the empty-database copy', async () => {
    const fingerprint = await migrationsFingerprint(MIGRATIONS);
    expect(fingerprint).toMatch(/^[0-9a-f]{12}$/);
    expect(await currentSchemaFingerprint()).toBe(fingerprint);
    expect(await emptyDatabaseCopy()).toContain(`-schema-${fingerprint}-empty`);
  });

  it('changes with a migration’s SQL under the same name, and with a name', async () => {
    const base = await migrationsFingerprint(withStep('0099-test', 'create table t (a int)'));
    expect(await migrationsFingerprint(withStep('0099-test', 'create table t (a bigint)'))).not.toBe(base);
    expect(await migrationsFingerprint(withStep('0098-test', 'create table t (a int)'))).not.toBe(base);
    expect(await migrationsFingerprint(withStep('0099-test', 'create table t (a int)'))).toBe(base);
  });
});
