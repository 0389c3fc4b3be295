import { type Migration, sql } from 'kysely';

export const reviewRecord: Migration = {
  async up(db) {
    await db.schema
      .createTable('queue_entries')
      .addColumn('environment', 'text', (c) => c.notNull())
      .addColumn('interview_id', 'text', (c) => c.notNull())
      .addColumn('added_at', 'timestamptz', (c) => c.notNull())
      .addColumn('local_state', 'text', (c) => c.notNull())
      .addColumn('label', 'text')
      .addColumn('label_es', 'text')
      .addColumn('session_status', 'text')
      .addColumn('session_status_seen_at', 'timestamptz')
      .addColumn('last_opened_at', 'timestamptz')
      .addPrimaryKeyConstraint('queue_entries_pk', ['environment', 'interview_id'])
      .execute();
    // The queue's order: oldest first, the id breaking ties.
    await db.schema
      .createIndex('queue_entries_order')
      .on('queue_entries')
      .columns(['environment', 'added_at', 'interview_id'])
      .execute();

    await db.schema
      .createTable('drafts')
      .addColumn('environment', 'text', (c) => c.notNull())
      .addColumn('interview_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      .addColumn('last_error', 'jsonb')
      .addPrimaryKeyConstraint('drafts_pk', ['environment', 'interview_id', 'kind'])
      .execute();

    await db.schema
      .createTable('decisions')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('environment', 'text', (c) => c.notNull())
      .addColumn('interview_id', 'text', (c) => c.notNull())
      .addColumn('decision', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('acknowledged_findings', 'jsonb', (c) => c.notNull())
      .addColumn('decided_at', 'timestamptz', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('decisions_by_interview')
      .on('decisions')
      .columns(['environment', 'interview_id', 'id'])
      .execute();

    // `at` is the exact text that was hashed; `detail` is json (not jsonb) so its text is kept as written.
    await db.schema
      .createTable('audit_entries')
      .addColumn('seq', 'integer', (c) => c.primaryKey())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('environment', 'text', (c) => c.notNull())
      .addColumn('interview_id', 'text')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('detail', 'json', (c) => c.notNull())
      .addColumn('prev_hash', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull().unique())
      .execute();
    await db.schema
      .createIndex('audit_entries_by_interview')
      .on('audit_entries')
      .columns(['interview_id', 'seq'])
      .execute();
    await db.schema
      .createIndex('audit_entries_last_recorded')
      .on('audit_entries')
      .columns(['environment', 'action', 'interview_id', 'seq'])
      .execute();
    // Append-only for every role, the owner included: privileges alone do not bind a table's owner.
    await sql`
        create function audit_entries_append_only() returns trigger language plpgsql as $$
        begin
          raise exception 'the audit trail is append-only: % is refused', tg_op using errcode = 'insufficient_privilege';
        end $$`.execute(db);
    await sql`
        create trigger audit_entries_append_only before update or delete on audit_entries
        for each row execute function audit_entries_append_only()`.execute(db);
    await sql`
        create trigger audit_entries_no_truncate before truncate on audit_entries
        for each statement execute function audit_entries_append_only()`.execute(db);
    await sql`revoke update, delete, truncate on audit_entries from public`.execute(db);

    // Facts about the record itself, such as when the JSON files of earlier versions were imported.
    await db.schema
      .createTable('record_meta')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'jsonb', (c) => c.notNull())
      .execute();
  },
};
