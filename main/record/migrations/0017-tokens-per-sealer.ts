import { type Migration, sql } from 'kysely';
import { pinSearchPath } from './pin-search-path';

/**
 * A sealed session token per interview and sealer (red team 18, left for later): one per interview let a reviewer
 * seal junk for an interview nobody had shared yet, and the analyst who imported it could then not share hers (the
 * row was beto's, only his to replace), so the team could not open it. Each login now shares its own; readers try
 * their own first, then the one of whoever put the interview in the queue, then the newest. Every member holds the
 * team key, so one may still share a wrong token (red team 21): when it was sealed is the database's clock's, and each
 * token shared, replaced or removed is on the trail in its sealer's name, by the database.
 */
export const tokensPerSealer: Migration = {
  async up(db) {
    await sql`alter table shared_session_tokens drop constraint shared_session_tokens_pk`.execute(db);
    await sql`
      alter table shared_session_tokens
      add constraint shared_session_tokens_pk primary key (environment, interview_id, sealed_by)`.execute(db);
    await sql`
      create function shared_session_tokens_stamp() returns trigger language plpgsql as $$
      begin
        if not omni_superuser() then new.sealed_at := clock_timestamp(); end if;
        return new;
      end $$`.execute(db);
    await sql`
      create trigger shared_session_tokens_stamp before insert or update on shared_session_tokens
      for each row execute function shared_session_tokens_stamp()`.execute(db);
    await sql`
      create function shared_session_tokens_on_trail() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          perform omni_trail(old.environment, old.interview_id, 'tokenUnshared', case when old.sealed_by <> current_user
            then json_build_object('of', old.sealed_by) else '{}'::json end);
        else
          perform omni_trail(new.environment, new.interview_id, 'tokenShared', '{}'::json);
        end if;
        return null;
      end $$`.execute(db);
    await sql`
      create trigger shared_session_tokens_on_trail after insert or update or delete on shared_session_tokens
      for each row execute function shared_session_tokens_on_trail()`.execute(db);
    await pinSearchPath(db, ['shared_session_tokens_stamp()', 'shared_session_tokens_on_trail()']);
  },
};
