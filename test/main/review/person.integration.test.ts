import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAuditTrail } from '../../../main/record/audit-records';
import { ChangeFeed } from '../../../main/record/change-feed';
import { reviewRecord } from '../../../main/record/index';
import { openRecord, type OpenRecord } from '../../../main/record/open';
import type { MainContext } from '../../../main/ports';
import { osAccount } from '../../../main/review/person';
import { TeamDesk } from '../../../main/review/team-desk';

/**
 * One identity: on this computer's record the database's one user ("postgres") is the person at the computer, on
 * every screen the team desk feeds, while the trail keeps what it hashed.
 */
let dir: string;
let open: OpenRecord;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'omni-person-'));
  open = await openRecord({ kind: 'embedded', dataDir: join(dir, 'record') });
}, 60_000);

afterAll(async () => {
  await open?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('who a person is on this computer’s record', () => {
  it('is the OS account on the Team screen, its claims and its trail, never "postgres"', async () => {
    const record = reviewRecord(open);
    const audit = recordAuditTrail(open.db, () => 'demo');
    const ctx = {
      record,
      environments: { active: () => ({ id: 'demo' }) },
      audit,
      changes: new ChangeFeed(),
    } as unknown as MainContext;
    const desk = new TeamDesk(ctx);
    const me = osAccount() ?? 'this computer';
    expect((await desk.status()).user).toBe(me);
    await record.queue.put('demo', [{ interviewId: 'p1', addedAt: new Date().toISOString(), localState: 'toReview' }]);
    expect(await desk.claim('p1')).toMatchObject({ holder: me, mine: true });
    expect((await desk.holders()).map((h) => h.holder)).toEqual([me]);
    const trail = await desk.audit({ limit: 10 });
    expect(trail.entries.map((e) => e.actor)).toEqual([me]);
    expect(JSON.stringify(await desk.audit({ reviewer: me, limit: 10 }))).not.toContain('postgres');
    // The trail itself keeps the login it hashed, so its chain verifies.
    expect((await audit.list()).map((e) => e.actor)).toEqual(['postgres']);
    expect(await audit.verify()).toEqual({ ok: true });
  });
});
