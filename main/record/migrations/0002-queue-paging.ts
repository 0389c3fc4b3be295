import { type Migration, sql } from 'kysely';

/**
 * The queue is read a page at a time (queue-records.ts): each order and the common filter get an index whose order
 * is the page's, so the first page (and any page after a cursor) is an index range scan.
 */
export const queuePaging: Migration = {
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
};
