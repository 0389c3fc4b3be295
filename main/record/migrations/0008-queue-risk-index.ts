import { type Migration, sql } from 'kysely';

/**
 * The queue's sort by risk (queue-records.ts, `riskRank`) reads a page through an index in its order, as the other
 * sorts do, instead of reading the whole view and sorting it. The expression is the query's, character for
 * character: PostgreSQL uses an expression index only for the same expression. One index for the views of every
 * state, one for a single state's (the usual "to review").
 */
const RISK_RANK = sql`(case when risk is null then 4 when risk = 'high' then 0 when risk = 'medium' then 1 when risk = 'low' then 2 else 3 end)`;

export const queueRiskIndex: Migration = {
  async up(db) {
    await sql`create index queue_entries_risk_sort on queue_entries
      (environment, ${RISK_RANK}, added_at, interview_id)`.execute(db);
    await sql`create index queue_entries_state_risk_sort on queue_entries
      (environment, local_state, ${RISK_RANK}, added_at, interview_id)`.execute(db);
  },
};
