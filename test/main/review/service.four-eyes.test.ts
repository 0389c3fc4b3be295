import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawIdvResponse } from '../../../common/omni';
import { MemoryVault } from '../../../main/auth/memory-vault';
import type { EnvironmentConfig, MainContext } from '../../../main/ports';
import { recordAuditTrail } from '../../../main/record/audit-records';
import { openRecord, reviewRecord, type OpenRecord } from '../../../main/record/index';
import { parseDecisionNote } from '../../../main/review/decision';
import { ReviewService } from '../../../main/review/service';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';

/** Four eyes through the review service, on a real server, with analysts ana and beto on their own logins. */
// A session token that names no interview (no interviewId claim): attachable to any of the tests' interviews.
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzZXNzaW9uIn0.c2lnbmF0dXJl';
const HIGH_RISK: RawIdvResponse = {
  checkResults: [],
  fraudRisk: { severity: 'HIGH', result: 0.91 } as RawIdvResponse['fraudRisk'],
};
const env: EnvironmentConfig = {
  id: 'production',
  kind: 'production',
  name: 'Production',
  baseUrl: 'http://127.0.0.1:1',
  authUrl: 'http://127.0.0.1:1',
  apiVersion: '1.0',
  tokenHeader: 'X',
};

let server: TestPostgres;
const opened: OpenRecord[] = [];
beforeAll(async () => {
  server = await startPostgres();
  await server.createDatabase('four_eyes');
  opened.push(await login('postgres'));
  await server.asSuperuser(
    'four_eyes',
    'create role ana login in role omni_reviewer; create role beto login in role omni_reviewer',
  );
}, 60_000);
afterAll(async () => {
  await Promise.all(opened.map((r) => r.close()));
  await server?.stop();
});

function login(user: string) {
  return openRecord({
    kind: 'team',
    host: server.host,
    port: server.port,
    user,
    database: 'four_eyes',
    tls: 'disable',
  });
}

/** One analyst's app: their own login, vault and service, the same team database. */
async function analyst(user: string, opts: { failNotesTimes?: number; checks?: RawIdvResponse } = {}) {
  const open = await login(user);
  opened.push(open);
  const sent: { notes: string; interviewId?: string; idempotencyKey?: string }[] = [];
  let failures = opts.failNotesTimes ?? 0;
  const omni = {
    async call(
      name: string,
      input: { body?: { notes: string } },
      o?: { interviewId?: string; idempotencyKey?: string },
    ) {
      if (name === 'getRawIdvResults') return opts.checks ?? HIGH_RISK;
      if (name === 'addConferenceNotes') {
        if (failures-- > 0)
          throw Object.assign(new Error('x'), {
            toIpcError: () => ({ code: 'OMNI_HTTP', httpStatus: 500, message: { en: '500', es: '500' } }),
          });
        sent.push({ notes: input.body!.notes, interviewId: o?.interviewId, idempotencyKey: o?.idempotencyKey });
        return { success: true, sessionStatus: 'Alive' };
      }
      throw new Error(`unexpected ${name}`);
    },
  };
  const audit = recordAuditTrail(open.db, () => env.id);
  const ctx = {
    omni: () => omni,
    vault: new MemoryVault(),
    record: reviewRecord(open),
    audit,
    environments: { active: () => env, list: () => [env] },
  } as unknown as MainContext;
  const service = new ReviewService(ctx, undefined, () => user);
  return { service, sent, audit, record: ctx.record };
}

describe('four eyes in the review service', () => {
  it('records a high-risk approval as proposed, sends nothing until another analyst confirms it, then once', async () => {
    const ana = await analyst('ana');
    const beto = await analyst('beto', { failNotesTimes: 1 });
    await ana.service.queue.add([{ interviewId: 'd-1', sessionToken: JWT }]);
    await beto.service.queue.add([{ interviewId: 'd-1', sessionToken: JWT }]);
    await ana.record.claims.claim('production', 'd-1');

    const proposed = await ana.service.decide('d-1', 'approve', 'Looks fine', true);
    expect(proposed).toMatchObject({ status: 'proposed', record: { status: 'proposed' } });
    expect(await beto.record.decisions.last('production', 'd-1')).toMatchObject({
      status: 'proposed',
      decidedBy: 'ana',
    });
    expect(proposed.sentAt).toBeUndefined();
    expect(ana.sent).toEqual([]);
    // Decided for now, and let go.
    expect((await ana.service.queue.require('d-1')).localState).toBe('decided');
    expect(await ana.record.claims.holders('production')).toEqual([]);

    await expect(ana.service.reviewDecision('d-1', 'confirmed', 'I checked it')).rejects.toMatchObject({
      data: { code: 'OWN_PROPOSAL' },
    });
    // Refused, her attempt leaves the interview as free as it was. While she holds it (her workspace open), beto is
    // refused before anything is recorded or sent.
    expect(await ana.record.claims.holders('production')).toEqual([]);
    await ana.record.claims.claim('production', 'd-1');
    await expect(beto.service.reviewDecision('d-1', 'confirmed', 'Selfie matches')).rejects.toMatchObject({
      data: { code: 'CLAIMED_BY_OTHER' },
    });
    await ana.record.claims.release('production', 'd-1');
    // The database first: the confirmation is recorded, then its note fails to go; it is kept, unsent, and the
    // retry sends the same note with the same key.
    await expect(beto.service.reviewDecision('d-1', 'confirmed', 'Selfie matches')).rejects.toThrow();
    expect((await beto.record.decisions.last('production', 'd-1'))?.status).toBe('confirmed');
    const unsent = await beto.record.writes.unsent('production', 'd-1', 'decision');
    expect(unsent).toBeDefined();
    expect(beto.sent).toHaveLength(0);

    expect(await beto.service.overview('d-1')).toMatchObject({ lastDecision: { noteUnsent: true } });
    const confirmed = await beto.service.sendDecisionNoteAgain('d-1');
    expect(confirmed).toMatchObject({
      status: 'confirmed',
      record: { decidedBy: 'ana', reviewedBy: 'beto', reviewReason: 'Selfie matches' },
    });
    expect(confirmed.sentAt).toBeDefined();
    expect(beto.sent).toHaveLength(1);
    expect(beto.sent[0]!.idempotencyKey).toBe(unsent!.idempotencyKey);
    expect(await beto.record.writes.unsent('production', 'd-1', 'decision')).toBeUndefined();
    expect(parseDecisionNote(beto.sent[0]!.notes)).toMatchObject({
      interviewId: 'd-1',
      decision: 'approve',
      reason: 'Looks fine',
      acknowledgedFindings: ['checkFraudRisk (HIGH, 0.91)'],
    });
    await expect(beto.service.reviewDecision('d-1', 'confirmed', 'Again')).rejects.toMatchObject({
      data: { code: 'NOTHING_TO_REVIEW' },
    });
    expect(beto.sent).toHaveLength(1);

    const trail = await beto.audit.list({ interviewId: 'd-1' });
    expect(trail.map((e) => [e.action, e.actor])).toEqual([
      ['proposed', 'ana'],
      // Ana's refused confirmation held it for that attempt alone.
      ['claimed', 'ana'],
      ['released', 'ana'],
      ['claimed', 'beto'],
      ['confirmed', 'beto'],
      // The note failed to go: the confirmation stands, the claim is let go; the retry holds it again.
      ['released', 'beto'],
      ['claimed', 'beto'],
      // "Again" held it once more, found nothing to review, and let go.
      ['claimed', 'beto'],
      ['released', 'beto'],
    ]);
    expect(await beto.audit.verify()).toEqual({ ok: true });
  });

  it('records as proposed an approval of an interview no check ran on: nothing to acknowledge, and nothing says low', async () => {
    const ana = await analyst('ana', { checks: { checkResults: [], fraudRisk: null } });
    await ana.service.queue.add([{ interviewId: 'no-checks', sessionToken: JWT }]);
    await ana.record.claims.claim('production', 'no-checks');
    const proposed = await ana.service.decide('no-checks', 'approve', 'Nothing ran, looks fine', false);
    expect(proposed).toMatchObject({ status: 'proposed', record: { status: 'proposed', acknowledgedFindings: [] } });
    expect(ana.sent).toEqual([]);
    expect((await ana.service.queue.require('no-checks')).risk).toBe('unassessed');
  });

  it('sends nothing for an overturned proposal and puts the interview back in the queue; a rejection is final', async () => {
    const ana = await analyst('ana');
    const beto = await analyst('beto');
    await ana.service.queue.add([
      { interviewId: 'd-2', sessionToken: JWT },
      { interviewId: 'd-3', sessionToken: JWT },
    ]);
    await ana.service.decide('d-2', 'approve', 'Looks fine', true);
    const overturned = await beto.service.reviewDecision('d-2', 'overturned', 'The ID photo is a screen');
    expect(overturned).toMatchObject({ status: 'overturned', record: { reviewedBy: 'beto' } });
    expect(overturned.sentAt).toBeUndefined();
    expect([...ana.sent, ...beto.sent]).toEqual([]);
    expect((await ana.service.queue.require('d-2')).localState).toBe('toReview');
    expect((await beto.audit.list({ interviewId: 'd-2' })).map((e) => e.action)).toEqual([
      'claimed',
      'proposed',
      'claimed',
      'overturned',
    ]);

    const rejected = await ana.service.decide('d-3', 'reject', 'Screen photo', false);
    expect(rejected.status).toBe('final');
    expect(ana.sent).toHaveLength(1);
  });
});
