import { describe, expect, it } from 'vitest';
import { RawIdvResponse } from '../../../common/omni';
import { readTolerantly } from '../../../main/omni/tolerant-read';
import { formatDecisionNote, openHighFindings, parseDecisionNote, riskLevelOf } from '../../../main/review/decision';

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

  it('names the reason code with its label in the service’s words, and whether the applicant may resubmit', () => {
    const base = { reason: 'Glare over the photo', acknowledgedFindings: [], decidedAt: '2026-01-01T00:00:00.000Z' };
    const capture = formatDecisionNote(
      'demo-clean-pass',
      { ...base, decision: 'requestNewCapture', reasonCode: 'glare', environment: 'demo', status: 'final' },
      'Glare on the document',
    );
    expect(capture.split('\n').slice(1, 5)).toEqual([
      'Decision: REQUEST NEW CAPTURE',
      'Outcome: RESUBMIT (the applicant is asked for a new capture)',
      'Reason code: glare (Glare on the document)',
      'Reason: Glare over the photo',
    ]);
    expect(parseDecisionNote(capture)).toMatchObject({
      outcome: 'resubmit',
      reasonCode: { code: 'glare', label: 'Glare on the document' },
    });
    const reject = formatDecisionNote('demo-clean-pass', {
      ...base,
      decision: 'reject',
      environment: 'demo',
      status: 'final',
    });
    expect(reject).toContain('Outcome: FINAL (the case is closed)');
    expect(reject).not.toContain('Reason code');
    expect(parseDecisionNote(reject)).not.toHaveProperty('reasonCode');
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

  it('counts what it cannot rank against approving: a severity in another case, newer than the spec, or unreadable', () => {
    const fraudRisk = {
      name: 'checkFraudRisk',
      severity: 'HIGH',
      version: '1',
      result: 0.97,
      topNFraudFeatures: [],
      topNLegitFeatures: [],
      topNFraudCodes: [],
      topNLegitCodes: [],
    };
    // As the service sent it, then with one severity null: the tolerant reader sets that check aside (and with it
    // the others of the list it could not keep), which had filed a 0.97 fraud risk as low and approved it alone.
    const answer = (severity: unknown, fraud: unknown = fraudRisk) =>
      readTolerantly(RawIdvResponse, {
        checkResults: [
          { name: 'deepFraudCheck', severity, version: '1', result: 0.93 },
          { name: 'liveness', severity: 'low', version: '1', result: 0.1 },
        ],
        fraudRisk: fraud,
      }).data as RawIdvResponse;
    expect(openHighFindings(answer('HIGH'))).toEqual(['deepFraudCheck (HIGH, 0.93)', 'checkFraudRisk (HIGH, 0.97)']);
    expect(openHighFindings(answer('critical', null))).toEqual(['deepFraudCheck (critical, 0.93)']);
    expect(openHighFindings(answer(null, null))).toEqual(['deepFraudCheck (not readable)']);
    expect(riskLevelOf(answer(null, null))).toBe('high');
    expect(openHighFindings(answer('low', { ...fraudRisk, severity: null }))).toEqual([
      'checkFraudRisk (not readable)',
    ]);
    expect(riskLevelOf(answer('LOW', { ...fraudRisk, severity: 'Medium' }))).toBe('medium');
  });
});

describe('riskLevelOf', () => {
  const check = (severity: string) => ({ name: `c-${severity}`, severity, version: '1', result: 0.2 });
  const fraud = (severity: string) => ({
    name: 'checkFraudRisk',
    severity,
    version: '1',
    result: 0.5,
    responseText: '',
    responseCategory: '',
    topNFraudFeatures: [],
    topNLegitFeatures: [],
    topNFraudCodes: [],
    topNLegitCodes: [],
  });
  /** Checks of these severities that did not run, and no fraud risk. */
  const notRun = (...severities: string[]) =>
    riskLevelOf({
      checkResults: severities.map((severity) => ({ ...check(severity), result: null })),
      fraudRisk: null,
    } as RawIdvResponse);
  const of = (checks: string[], fraudSeverity?: string) =>
    riskLevelOf({
      checkResults: checks.map(check),
      fraudRisk: fraudSeverity ? fraud(fraudSeverity) : null,
    } as RawIdvResponse);

  it('files what an approval must acknowledge as high, medium findings as medium, the rest as low', () => {
    expect(of(['low', 'high'])).toBe('high');
    expect(of(['low'], 'HIGH')).toBe('high');
    expect(of(['low', 'medium'], 'LOW')).toBe('medium');
    expect(of(['low'], 'MEDIUM')).toBe('medium');
    expect(of(['low'], 'LOW')).toBe('low');
  });

  it('files an interview no check ran on as unassessed, not low, whatever a low fraud score says', () => {
    expect(of([])).toBe('unassessed');
    expect(of([], 'LOW')).toBe('unassessed');
    expect(notRun('low')).toBe('unassessed');
    // A medium fraud score or a medium check that did not run says nothing of the identity: still unassessed.
    expect(of([], 'MEDIUM')).toBe('unassessed');
    expect(notRun('medium')).toBe('unassessed');
    // What an approval must acknowledge still decides.
    expect(of([], 'HIGH')).toBe('high');
  });

  it('keeps a fraud-risk severity newer than the spec as sent, unless a high finding decides', () => {
    expect(of(['low'], 'CRITICAL')).toBe('CRITICAL');
    expect(of(['medium'], 'CRITICAL')).toBe('CRITICAL');
    expect(of(['high'], 'CRITICAL')).toBe('high');
  });
});
