import { type Migration, sql } from 'kysely';

/**
 * Interview ids as the app takes them (`InterviewId` in common/ipc/queue.ts: a letter or digit, then letters, digits
 * and `. _ : -`, 128 at most), held by the database too: the app checks them where they enter, but a login with psql
 * filed decisions on `=HYPERLINK(…)`, `../../x` and 5,000-character ids, which then reached a period's batch, its
 * index and its file names (red team 12). `not valid`: rows written before are left as they are; every new or
 * changed row is checked.
 */
export const INTERVIEW_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$';
const TABLES = [
  'queue_entries',
  'drafts',
  'decisions',
  'claims',
  'risk_readings',
  'service_writes',
  'shared_session_tokens',
];

export const interviewIds: Migration = {
  async up(db) {
    for (const table of TABLES)
      await sql
        .raw(
          `alter table ${table} add constraint ${table}_interview_id_shape
           check (interview_id ~ '${INTERVIEW_ID_PATTERN}') not valid`,
        )
        .execute(db);
    // The trail too (red team 14: entries on such ids reached its search and exports); an entry about no interview
    // has none.
    await sql
      .raw(
        `alter table audit_entries add constraint audit_entries_interview_id_shape
         check (interview_id is null or interview_id ~ '${INTERVIEW_ID_PATTERN}') not valid`,
      )
      .execute(db);
  },
};
