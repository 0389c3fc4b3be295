import { describe, expect, it } from 'vitest';
import { formatDecisionNote, openHighFindings, parseDecisionNote } from '../../../main/review/decision';

describe('decision note', () => {
  it('round-trips through the readable and machine parts', () => {
    const record = {
      decision: 'reject' as const,
      reason: 'Selfie replayed: ñandú "quoted"\nsecond line',
      acknowledgedFindings: [],
      decidedAt: '2026-01-01T00:00:00.000Z',
      environment: 'demo',
    };
    const note = formatDecisionNote('demo-fraud-high', { ...record, status: 'final' });
    expect(note).toContain('Decision: REJECT');
    expect(parseDecisionNote(note)).toMatchObject({ interviewId: 'demo-fraud-high', ...record });
    expect(parseDecisionNote('just a note')).toBeNull();
  });

  it('lists high checks (also those that did not run) and a HIGH fraud risk as open findings', () => {
    const findings = openHighFindings({
      checkResults: [
        { name: 'a', severity: 'high', version: '1', result: 0.9 },
        { name: 'b', severity: 'high', version: '1', result: null },
        { name: 'c', severity: 'medium', version: '1', result: 0.5 },
      ],
      fraudRisk: {
        name: 'checkFraudRisk',
        severity: 'HIGH',
        version: '1',
        result: 0.87,
        topNFraudFeatures: [],
        topNLegitFeatures: [],
        topNFraudCodes: [],
        topNLegitCodes: [],
      },
    });
    expect(findings).toEqual(['a (high, 0.9)', 'b (high, did not run)', 'checkFraudRisk (HIGH, 0.87)']);
    expect(openHighFindings({ checkResults: [], fraudRisk: null })).toEqual([]);
  });
});
