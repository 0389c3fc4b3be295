import { type Migration, sql } from 'kysely';

/**
 * Session tokens shared with the team, sealed with the team key (shared-session-tokens.ts): never in clear here.
 */
export const sharedSessionTokens: Migration = {
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
};
