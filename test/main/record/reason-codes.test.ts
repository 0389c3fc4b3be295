import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { DecisionRecord } from '../../../common/ipc/interview';
import { reviewRecord } from '../../../main/record/index';
import { DEFAULT_REASON_CODES } from '../../../main/record/migrations/0007-reason-codes';
import { ENGINES, engineFactory } from '../../helpers/record-engines';

const decision = (over: Partial<DecisionRecord> = {}): DecisionRecord => ({
  decision: 'reject',
  reason: 'The selfie is a photo of a screen.',
  acknowledgedFindings: [],
  decidedAt: '2026-11-25T10:00:00.000Z',
  environment: 'production',
  status: 'final',
  ...over,
});

/** Reason codes on both engines: the team's list, each decision's code a column the database holds to that list. */
describe.each(ENGINES)('reason codes on the %s engine', (kind) => {
  const engines = engineFactory(kind);
  afterAll(() => engines.dispose());

  it('starts with the default codes of each kind, labelled in both languages', async () => {
    const record = reviewRecord(await engines.open());
    const codes = await record.teamSettings.reasonCodes();
    expect(codes.map((c) => `${c.decision}:${c.code}`).sort()).toEqual(
      DEFAULT_REASON_CODES.map((c) => `${c.decision}:${c.code}`).sort(),
    );
    expect(codes.every((c) => c.active && c.en.length > 0 && c.es.length > 0)).toBe(true);
    expect(codes.find((c) => c.code === 'document_tampered')).toMatchObject({
      decision: 'reject',
      en: 'Document tampered with',
      es: 'Documento alterado',
    });
  }, 60_000);

  it('stores a decision’s code as a column and reads it back', async () => {
    const open = await engines.open();
    const record = reviewRecord(open);
    await record.decisions.add('i1', decision({ reasonCode: 'document_tampered' }));
    await record.decisions.add('i2', decision({ decision: 'approve' }));
    const rows = await open.db
      .selectFrom('decisions')
      .select(['interview_id', 'decision', 'reason_code'])
      .orderBy('interview_id')
      .execute();
    expect(rows).toEqual([
      { interview_id: 'i1', decision: 'reject', reason_code: 'document_tampered' },
      { interview_id: 'i2', decision: 'approve', reason_code: null },
    ]);
    expect((await record.decisions.last('production', 'i1'))?.reasonCode).toBe('document_tampered');
    expect(await record.decisions.last('production', 'i2')).not.toHaveProperty('reasonCode');
  }, 60_000);

  it('refuses a code that is not the team’s, one of another kind of decision, and a retired one', async () => {
    const open = await engines.open();
    const record = reviewRecord(open);
    const refused = { data: { code: 'UNKNOWN_REASON_CODE' } };
    await expect(record.decisions.add('i1', decision({ reasonCode: 'looked_shifty' }))).rejects.toMatchObject(refused);
    // glare is a reason to ask for a new capture, not to reject.
    await expect(record.decisions.add('i2', decision({ reasonCode: 'glare' }))).rejects.toMatchObject(refused);
    // Written by hand, past the app: the database itself refuses.
    await expect(
      sql`insert into decisions (environment, interview_id, decision, reason, acknowledged_findings, decided_at,
          reason_code) values ('production', 'i3', 'reject', 'x', '[]', now(), 'made_up')`.execute(open.db),
    ).rejects.toThrow(/decisions_reason_code|not one of the team/);

    // Retired: the decision that used it keeps it; a new one may not use it.
    await record.decisions.add('i4', decision({ reasonCode: 'underage' }));
    const codes = await record.teamSettings.reasonCodes();
    await record.teamSettings.setReasonCodes(codes.filter((c) => c.code !== 'underage'));
    expect((await record.teamSettings.reasonCodes()).find((c) => c.code === 'underage')?.active).toBe(false);
    expect((await record.decisions.last('production', 'i4'))?.reasonCode).toBe('underage');
    await expect(record.decisions.add('i5', decision({ reasonCode: 'underage' }))).rejects.toMatchObject(refused);
    expect(await open.db.selectFrom('decisions').select('interview_id').execute()).toEqual([{ interview_id: 'i4' }]);

    // A decision's code is written once.
    await expect(
      sql`update decisions set reason_code = 'identity_mismatch' where interview_id = 'i4'`.execute(open.db),
    ).rejects.toThrow(/keeps the reason code|only a proposed decision changes/);
  }, 60_000);

  it('adds, relabels, orders and brings back codes; a code never leaves the list', async () => {
    const record = reviewRecord(await engines.open());
    const codes = await record.teamSettings.reasonCodes();
    const reject = codes.filter((c) => c.decision === 'reject');
    await record.teamSettings.setReasonCodes([
      { decision: 'reject', code: 'forged_selfie', en: 'Forged selfie', es: 'Selfie falsificada', active: true },
      { ...reject[0]!, en: 'Tampered document', es: 'Documento manipulado' },
    ]);
    const after = await record.teamSettings.reasonCodes();
    expect(after.filter((c) => c.active).map((c) => `${c.decision}:${c.code}:${c.en}`)).toEqual([
      'reject:forged_selfie:Forged selfie',
      `reject:${reject[0]!.code}:Tampered document`,
    ]);
    expect(after).toHaveLength(codes.length + 1);
    await record.decisions.add('i1', decision({ reasonCode: 'forged_selfie' }));

    await record.teamSettings.setReasonCodes(codes);
    const back = await record.teamSettings.reasonCodes();
    expect(back.filter((c) => c.active).map((c) => c.code)).toEqual(codes.map((c) => c.code));
    expect(back.find((c) => c.code === 'forged_selfie')?.active).toBe(false);
  }, 60_000);

  it('counts decisions per day and code, overturned proposals and other environments left out', async () => {
    const open = await engines.open();
    const record = reviewRecord(open);
    const day = (d: string, hour = 10) => `2026-11-${d}T${String(hour).padStart(2, '0')}:00:00.000Z`;
    await record.decisions.add('a1', decision({ reasonCode: 'document_tampered', decidedAt: day('24') }));
    await record.decisions.add('a2', decision({ reasonCode: 'document_tampered', decidedAt: day('25', 9) }));
    await record.decisions.add('a3', decision({ reasonCode: 'document_tampered', decidedAt: day('25', 23) }));
    await record.decisions.add('a4', decision({ reasonCode: 'sanctions_hit', decidedAt: day('25') }));
    await record.decisions.add(
      'a5',
      decision({ decision: 'requestNewCapture', reasonCode: 'glare', decidedAt: day('25') }),
    );
    await record.decisions.add('a6', decision({ decidedAt: day('25') }));
    await record.decisions.add(
      'a7',
      decision({ reasonCode: 'sanctions_hit', decidedAt: day('25'), environment: 'demo' }),
    );
    // A proposal counts while it waits; once overturned it was never a decision.
    await record.decisions.add(
      'a8',
      decision({ decision: 'approve', reasonCode: 'verified_manually', status: 'proposed', decidedAt: day('25') }),
    );
    await record.decisions.add(
      'a9',
      decision({ decision: 'approve', reasonCode: 'verified_manually', status: 'proposed', decidedAt: day('25') }),
    );
    // Overturned by someone else: written past the four-eyes trigger, which refuses one login reviewing its own.
    await open.db.transaction().execute(async (tx) => {
      await sql`set local session_replication_role = replica`.execute(tx);
      await sql`update decisions set status = 'overturned', reviewed_by = 'beto', review_reason = 'no'
        where interview_id = 'a9'`.execute(tx);
    });

    const counts = await record.overview.decisionsByCode('production', new Date(day('26')));
    expect(counts).toEqual([
      { day: '2026-11-25', decision: 'approve', code: 'verified_manually', count: 1 },
      { day: '2026-11-25', decision: 'reject', code: 'document_tampered', count: 2 },
      { day: '2026-11-25', decision: 'reject', code: 'sanctions_hit', count: 1 },
      { day: '2026-11-25', decision: 'reject', code: null, count: 1 },
      { day: '2026-11-25', decision: 'requestNewCapture', code: 'glare', count: 1 },
      { day: '2026-11-24', decision: 'reject', code: 'document_tampered', count: 1 },
    ]);
    // The proposal still waiting shows its code to whoever reviews it.
    expect(await record.overview.proposals('production')).toEqual([
      expect.objectContaining({ interviewId: 'a8', reasonCode: 'verified_manually' }),
    ]);
    // Fourteen days back, no further.
    expect(await record.overview.decisionsByCode('production', new Date('2026-12-10T00:00:00.000Z'))).toEqual([]);
  }, 60_000);
});
