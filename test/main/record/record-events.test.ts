import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { RecordNotice } from '../../../common/team-review';
import { NOTICE_CHANNEL, listenOnPool } from '../../../main/record/record-events';

/** A pool that opens one connection, on which the test plays the server's notifications. */
function poolWithConnection() {
  const pool = new EventEmitter();
  const client = Object.assign(new EventEmitter(), { query: async () => ({ rows: [] }) });
  return { pool: pool as unknown as pg.Pool, open: () => pool.emit('connect', client), client };
}

describe("the record's notices as heard", () => {
  it("passes the record's notices on and drops what any login may notify that is not one (red team 12)", () => {
    const { pool, open, client } = poolWithConnection();
    const events = listenOnPool(pool);
    const heard: RecordNotice[] = [];
    events.subscribe((notice) => heard.push(notice));
    open();
    const real: RecordNotice = {
      table: 'decisions',
      environment: 'demo',
      interviewId: 'iv-1',
      kind: 'final',
      by: 'ana',
    };
    const junk = [
      'null',
      '42',
      '"x"',
      '[]',
      '{}',
      'not json',
      JSON.stringify({ ...real, kind: 'deleted-everything' }),
      JSON.stringify({ ...real, table: 'audit_entries' }),
      JSON.stringify({ ...real, interviewId: 'x'.repeat(129) }),
      JSON.stringify({ ...real, environment: 7 }),
    ];
    for (const payload of [...junk, JSON.stringify(real)])
      client.emit('notification', { channel: NOTICE_CHANNEL, payload, processId: 1 });
    client.emit('notification', { channel: 'another', payload: JSON.stringify(real), processId: 1 });
    expect(heard).toEqual([real]);
  });
});
