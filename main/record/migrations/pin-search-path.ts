import { type Kysely, sql } from 'kysely';

/**
 * As 0006 says: the rules' functions resolve names in the catalog and the record's own schema, never in a session's
 * temporary schema (a login may create temporary tables, and one named `claims` or `pg_roles` would otherwise stand in
 * for the real one). For the migrations from 0009 on; earlier ones keep their own copy, as released. One SQL block,
 * so the migrations' fingerprint (migrate.ts, read without a database) records it as it runs.
 */
export async function pinSearchPath(db: Kysely<unknown>, functions: readonly string[]): Promise<void> {
  const listed = functions.map((fn) => `'${fn}'`).join(', ');
  await sql
    .raw(
      `do $$
      declare
        fn text;
      begin
        foreach fn in array array[${listed}] loop
          execute format('alter function %s set search_path = pg_catalog, %I, pg_temp', fn, current_schema());
        end loop;
      end $$`,
    )
    .execute(db);
}
