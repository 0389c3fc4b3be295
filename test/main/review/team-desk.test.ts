import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionRecord } from '../../../common/ipc/interview';
import { recordAuditTrail } from '../../../main/record/audit-records';
import { ChangeFeed } from '../../../main/record/change-feed';
import { reviewRecord } from '../../../main/record/index';
import { openRecord, type OpenRecord } from '../../../main/record/open';
import type { MainContext } from '../../../main/ports';
import { TeamDesk } from '../../../main/review/team-desk';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';

/**
 * The team desk (what the Team screen and the queue's claims call) on a real PostgreSQL server, each analyst with
 * their own login and their own app: reviewers ana and beto, supervisor sofia.
 */
let server: TestPostgres;
const database = 'team_desk';
const opened: OpenRecord[] = [];
const desks = {} as Record<'ana' | 'beto' | 'sofia', { desk: TeamDesk; changes: ChangeFeed; open: OpenRecord }>;

async function appOf(user: string) {
  const open = await openRecord({ kind: 'team', host: server.host, port: server.port, user, database, tls: 'disable' });
  opened.push(open);
  const changes = new ChangeFeed();
  open.events.subscribe((n) => changes.push(n));
  const ctx = {
    record: { ...reviewRecord(open) },
    environments: { active: () => ({ id: 'demo' }) },
    audit: recordAuditTrail(open.db, () => 'demo'),
    changes,
  } as unknown as MainContext;
  return { desk: new TeamDesk(ctx), changes, open };
}

beforeAll(async () => {
  server = await startPostgres();
  await server.createDatabase(database);
  const owner = await openRecord({
    kind: 'team',
    host: server.host,
    port: server.port,
    user: 'postgres',
    database,
    tls: 'disable',
  });
  await server.asSuperuser(
    database,
    `
    create role ana login in role omni_reviewer;
    create role beto login in role omni_reviewer;
    create role sofia login in role omni_supervisor;`,
  );
  // Three interviews waiting, the oldest two days ago: past a 24 h target.
  const day = 86_400_000;
  await reviewRecord(owner).queue.put('demo', [
    { interviewId: 'old', addedAt: new Date(Date.now() - 2 * day).toISOString(), localState: 'toReview' },
    { interviewId: 'mid', addedAt: new Date(Date.now() - 3_600_000).toISOString(), localState: 'toReview' },
    { interviewId: 'new', addedAt: new Date(Date.now() - 60_000).toISOString(), localState: 'toReview' },
  ]);
  await owner.close();
  desks.ana = await appOf('ana');
  desks.beto = await appOf('beto');
  desks.sofia = await appOf('sofia');
}, 60_000);

afterAll(async () => {
  for (const d of Object.values(desks)) d.changes.close();
  await Promise.all(opened.map((o) => o.close()));
  await server?.stop();
});

const proposal: DecisionRecord = {
  decision: 'approve',
  reason: 'Everything matches',
  acknowledgedFindings: ['checkFraudRisk (HIGH, 0.91)'],
  decidedAt: new Date().toISOString(),
  environment: 'demo',
  status: 'proposed',
};

describe('the team desk', () => {
  it('says who is who, and keeps the supervisor view to supervisors', async () => {
    expect(await desks.ana.desk.status()).toMatchObject({ engine: 'team', user: 'ana', roles: ['reviewer'] });
    expect((await desks.sofia.desk.status()).roles).toEqual(expect.arrayContaining(['reviewer', 'supervisor']));
    await expect(desks.ana.desk.overview()).rejects.toMatchObject({ data: { code: 'SUPERVISORS_ONLY' } });
    await expect(desks.ana.desk.audit({ limit: 10 })).rejects.toMatchObject({ data: { code: 'SUPERVISORS_ONLY' } });
  });

  it("takes the oldest for one analyst and the next for another, and tells the other analyst's screen at once", async () => {
    const poll = desks.beto.desk.changes(0, 10_000);
    const started = performance.now();
    const anas = await desks.ana.desk.takeNext();
    expect(anas).toMatchObject({ interviewId: 'old', holder: 'ana', mine: true });
    const heard = await poll;
    expect(performance.now() - started).toBeLessThan(500);
    expect(heard.notices).toContainEqual(expect.objectContaining({ table: 'claims', interviewId: 'old', by: 'ana' }));

    const betos = await desks.beto.desk.takeNext();
    expect(betos).toMatchObject({ interviewId: 'mid', holder: 'beto' });
    expect((await desks.beto.desk.holders()).map((h) => [h.interviewId, h.holder, h.mine])).toEqual([
      ['old', 'ana', false],
      ['mid', 'beto', true],
    ]);
    await expect(desks.beto.desk.claim('old')).rejects.toMatchObject({ data: { code: 'CLAIMED_BY_OTHER' } });
    // Beto cannot release what Ana holds; Ana renews hers by claiming it again.
    expect(await desks.beto.desk.release('old')).toEqual({ released: false });
    expect((await desks.ana.desk.claim('old')).mine).toBe(true);
  });

  it('gives the supervisor queue age, holders, proposals, decisions per day, members and the searchable trail', async () => {
    await reviewRecord(desks.ana.open).decisions.add('old', proposal);

    const overview = await desks.sofia.desk.overview();
    expect(overview.waiting).toMatchObject({ count: 3, pastTarget: 1 });
    expect(overview.holders.map((h) => h.holder).sort()).toEqual(['ana', 'beto']);
    expect(overview.proposals).toEqual([
      expect.objectContaining({ interviewId: 'old', decision: 'approve', proposedBy: 'ana' }),
    ]);
    expect(overview.decisionsByDay).toEqual([
      expect.objectContaining({ reviewer: 'ana', status: 'proposed', count: 1 }),
    ]);
    expect(overview.members.map((m) => m.user).sort()).toEqual(['ana', 'beto', 'sofia']);
    expect(overview.decisionsByCode).toEqual([expect.objectContaining({ decision: 'approve', code: null, count: 1 })]);
    expect(overview.reasonCodes.length).toBeGreaterThan(0);

    const handed = await desks.sofia.desk.reassign('mid', 'ana');
    expect(handed).toMatchObject({ interviewId: 'mid', holder: 'ana', mine: false });
    await expect(desks.ana.desk.reassign('old', 'beto')).rejects.toMatchObject({ data: { code: 'SUPERVISORS_ONLY' } });

    const byAna = await desks.sofia.desk.audit({ reviewer: 'ana', action: 'claimed', limit: 50 });
    expect(byAna.chain).toEqual({ ok: true });
    expect(byAna.entries.length).toBeGreaterThan(0);
    expect(byAna.entries.every((e) => e.actor === 'ana' && e.action === 'claimed')).toBe(true);
    const handover = await desks.sofia.desk.audit({ interviewId: 'mi', limit: 50 });
    expect(handover.entries.map((e) => [e.action, e.actor])).toContainEqual(['reassigned', 'sofia']);
  });

  it('lets supervisors change the team rules, and reviewers not', async () => {
    const rules = { fourEyes: 'all-approvals', targetHours: 8, leaseMinutes: 30 } as const;
    await expect(desks.beto.desk.saveSettings(rules)).rejects.toMatchObject({ data: { code: 'SUPERVISORS_ONLY' } });
    expect(await desks.sofia.desk.saveSettings(rules)).toEqual(rules);
    expect((await desks.beto.desk.status()).settings).toEqual(rules);
  });

  it('lets supervisors change the reason codes (audited as a change of the rules), and reviewers not', async () => {
    const codes = await desks.beto.desk.reasonCodes();
    const added = { decision: 'reject', code: 'forged_selfie', en: 'Forged selfie', es: 'Selfie falsa', active: true };
    await expect(desks.beto.desk.saveReasonCodes([...codes, added as never])).rejects.toMatchObject({
      data: { code: 'SUPERVISORS_ONLY' },
    });
    const saved = await desks.sofia.desk.saveReasonCodes([...codes, added as never]);
    expect(saved.filter((c) => c.decision === 'reject').map((c) => c.code)).toContain('forged_selfie');
    expect(await desks.beto.desk.reasonCodes()).toEqual(saved);
    const changed = await desks.sofia.desk.audit({ action: 'teamSettingsChanged', limit: 5 });
    expect(changed.entries[0]).toMatchObject({
      actor: 'sofia',
      detail: { reasonCodes: expect.stringContaining('reject:forged_selfie') },
    });
  });
});
