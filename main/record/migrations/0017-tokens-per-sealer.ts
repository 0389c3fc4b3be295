import { type Migration, sql } from 'kysely';

/**
 * A sealed session token per interview and sealer (red team 18, left for later): one per interview let a reviewer
 * seal junk for an interview nobody had shared yet, and the analyst who imported it could then not share hers (the
 * row was beto's, only his to replace), so the team could not open it. Each login now shares its own; readers try
 * their own first, then the one of whoever put the interview in the queue, then the newest.
 */
export const tokensPerSealer: Migration = {
  async up(db) {
    await sql`alter table shared_session_tokens drop constraint shared_session_tokens_pk`.execute(db);
    await sql`
      alter table shared_session_tokens
      add constraint shared_session_tokens_pk primary key (environment, interview_id, sealed_by)`.execute(db);
  },
};
