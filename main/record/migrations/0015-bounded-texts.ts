import { type Migration, sql } from 'kysely';

/**
 * Texts no longer than the app takes them (common/ipc: a decision's reason and a review's 4,000 characters, a draft
 * 20,000), held by the database for every login: a reviewer with psql filed 2,400 proposals with reasons of 250 KB,
 * and the supervisor's Team overview read 600 MB and could not be sent to the screen (red team 15). What is sent to
 * the service and the sealed tokens get room for the app's largest. `not valid`: rows written before stay.
 */
const LIMITS: [table: string, column: string, characters: number][] = [
  ['decisions', 'reason', 4000],
  ['decisions', 'review_reason', 4000],
  ['drafts', 'text', 20_000],
  ['service_writes', 'body', 32_768],
  ['shared_session_tokens', 'sealed', 32_768],
];

export const boundedTexts: Migration = {
  async up(db) {
    for (const [table, column, characters] of LIMITS)
      await sql
        .raw(
          `alter table ${table} add constraint ${table}_${column}_length
           check (${column} is null or length(${column}) <= ${characters}) not valid`,
        )
        .execute(db);
    // The service's answer to a write, as the app keeps it (redacted, long texts cut): 256 KiB at most, as an audit
    // entry's detail. Its writer settles it, so a reviewer set 100 MB answers on his own writes, and an evidence export
    // of that interview read 2.4 GB (red team 16).
    await sql
      .raw(
        `alter table service_writes add constraint service_writes_answer_length
         check (answer is null or octet_length(answer::text) <= 262144) not valid`,
      )
      .execute(db);
  },
};
