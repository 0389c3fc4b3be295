import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openRecord } from '../../../main/record/open';
import { ENGINES, engineFactory } from '../../helpers/record-engines';

describe.each(ENGINES)('the record schema on the %s engine', (kind) => {
  const engines = engineFactory(kind);
  afterAll(() => engines.dispose());

  const queueIndexes = async (db: Awaited<ReturnType<typeof openRecord>>['db']) =>
    (
      await sql<{ indexname: string }>`
        select indexname from pg_indexes where tablename = 'queue_entries' order by indexname`.execute(db)
    ).rows.map((r) => r.indexname);

  it('brings a record of the first schema (an installation before paging) up to the queue-paging indexes', async () => {
    const engine = await engines.fresh();
    let record = await openRecord(engine);
    // As a version without 0002 left it: its indexes absent, its step not applied (0003 and 0004 are; 0005 and 0008,
    // which came later still, are not).
    await sql`drop index queue_entries_state_order`.execute(record.db);
    await sql`drop index queue_entries_status_order`.execute(record.db);
    await sql`alter table queue_entries drop column risk`.execute(record.db);
    await sql`delete from kysely_migration where name in ('0002-queue-paging', '0005-queue-risk', '0008-queue-risk-index')`.execute(
      record.db,
    );
    expect(await queueIndexes(record.db)).toEqual(['queue_entries_order', 'queue_entries_pk']);
    await record.close();

    record = await openRecord(engine);
    try {
      expect(await queueIndexes(record.db)).toEqual([
        'queue_entries_order',
        'queue_entries_pk',
        'queue_entries_risk_order',
        'queue_entries_risk_sort',
        'queue_entries_state_order',
        'queue_entries_state_risk_sort',
        'queue_entries_status_order',
      ]);
    } finally {
      await record.close();
    }
  }, 60_000);
});
