import { afterAll, beforeAll, expect, it } from 'vitest';
import { recordAuditTrail } from '../../../main/record/audit-records';
import { openRecord, type OpenRecord } from '../../../main/record/open';
import { TeamOverviewRecords } from '../../../main/record/team-overview-records';
import { engineFactory } from '../../helpers/record-engines';

const engines = engineFactory('embedded');
let record: OpenRecord;
beforeAll(async () => {
  record = await openRecord(await engines.fresh());
}, 60_000);
afterAll(async () => {
  await record?.close();
  await engines.dispose();
});

it("an audit search answers as many of the newest matches as fit in 8 MB of details, and says how many matched (red team 15: a reviewer's 256 KiB entries made its 1,000 a 261 MB answer)", async () => {
  const trail = recordAuditTrail(record.db, () => 'production');
  for (let i = 0; i < 40; i++)
    await trail.append({ interviewId: `big-${i}`, action: 'opened', detail: { what: 'x'.repeat(250_000) } });
  const { entries, matched } = await new TeamOverviewRecords(record.db).searchAudit({ action: 'opened', limit: 200 });
  expect(matched).toBe(40);
  expect(entries.length).toBeGreaterThan(0);
  expect(entries.length).toBeLessThan(40);
  expect(JSON.stringify(entries).length).toBeLessThanOrEqual(8 * 1024 * 1024 + 300_000);
  expect(entries[0]!.interviewId).toBe('big-39');
  expect(entries.map((e) => e.seq)).toEqual([...entries.map((e) => e.seq)].sort((a, b) => b - a));
});
