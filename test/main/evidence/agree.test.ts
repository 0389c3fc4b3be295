import { describe, expect, it } from 'vitest';
import { agreementChecks, readProvedEntry, type ProvedEntry } from '../../../main/evidence/agree';

const exported = {
  exportEntry: 9,
  exportedAt: '2026-11-27T10:00:00.000Z',
  exportedBy: 'ana',
  purpose: 'CNBV',
  environment: { id: 'production' },
};
const exportEntry: ProvedEntry = {
  seq: 9,
  at: exported.exportedAt,
  environment: 'production',
  action: 'downloaded',
  detail: { what: 'evidenceFile', purpose: 'CNBV', by: 'ana' },
};
const proposed: ProvedEntry = {
  seq: 3,
  at: 'x',
  environment: 'production',
  action: 'proposed',
  detail: { decision: 'approve', reasonCode: 'KNOWN', reason: 'Known customer', by: 'ana' },
};
const confirmed: ProvedEntry = {
  seq: 5,
  at: 'y',
  environment: 'production',
  action: 'confirmed',
  detail: { decision: 'approve', reason: 'Checked again', by: 'beto' },
};
const decisionsJson = (decisions: unknown[]) => Buffer.from(JSON.stringify({ interviewId: 'i', decisions }));
const approval = {
  decision: 'approve',
  reasonCode: 'KNOWN',
  reason: 'Known customer',
  status: 'confirmed',
  reviewReason: 'Checked again',
};

describe('the readable parts of an evidence file against its proved entries', () => {
  it('reads an entry from the text its hash covers, either version', () => {
    const v2 = ['omni-audit-v2', '0'.repeat(64), '3', '"x"', '"demo"', '"i"', '"proposed"', '"ana"', '{"reason":"a"}'];
    expect(readProvedEntry(3, v2.join('\n'))).toEqual({
      seq: 3,
      at: 'x',
      environment: 'demo',
      action: 'proposed',
      detail: { reason: 'a' },
    });
    expect(readProvedEntry(2, '{"action":"noted","at":"t","detail":{"text":"n"},"seq":2}')).toMatchObject({
      action: 'noted',
      detail: { text: 'n' },
    });
    expect(readProvedEntry(1, 'not an entry')).toBeUndefined();
  });

  it('agrees with a proposal and its confirmation as the database wrote them', () => {
    expect(
      agreementChecks(decisionsJson([approval]), exported, [proposed, confirmed, exportEntry]).map((c) => c.outcome),
    ).toEqual(['ok', 'ok']);
  });

  it('fails a confirmation left out or changed, and a decision no entry proves is not confirmed', () => {
    const changed = agreementChecks(decisionsJson([{ ...approval, reviewReason: 'Other words' }]), exported, [
      proposed,
      confirmed,
    ]);
    expect(changed).toEqual([
      expect.objectContaining({
        part: 'decisions.json',
        outcome: 'failed',
        message: expect.objectContaining({ en: expect.stringContaining('#5 (confirmed)') }),
      }),
    ]);
    const legacy = agreementChecks(
      decisionsJson([{ decision: 'reject', reason: 'Old', status: 'final' }]),
      exported,
      [],
    );
    expect(legacy).toEqual([expect.objectContaining({ part: 'decisions.json', outcome: 'notOnTrail' })]);
  });

  it('counts a decision removed on the trail, another environment’s, and the demo’s reset ones as history', () => {
    const decided = (seq: number, environment: string): ProvedEntry => ({
      seq,
      at: 'z',
      environment,
      action: 'decided',
      detail: { decision: 'reject', reason: 'Old' },
    });
    const removed: ProvedEntry = { seq: 4, at: 'r', environment: 'production', action: 'decisionRemoved', detail: {} };
    const none = decisionsJson([]);
    expect(agreementChecks(none, exported, [decided(2, 'production'), removed]).map((c) => c.outcome)).toEqual(['ok']);
    expect(agreementChecks(none, exported, [decided(2, 'staging')]).map((c) => c.outcome)).toEqual(['ok']);
    expect(
      agreementChecks(none, { ...exported, environment: { id: 'demo' } }, [decided(2, 'demo')]).map((c) => c.outcome),
    ).toEqual(['ok']);
    // Decided after the removal, and left out: failed.
    expect(agreementChecks(none, exported, [removed, decided(6, 'production')]).map((c) => c.outcome)).toEqual([
      'failed',
    ]);
  });

  it('matches decisions to entries in one pass over each, not one over the entries per decision', () => {
    // Every read of an entry's fields is counted: a crafted file of 100,000 entries and as many decisions that match
    // none had the matching read the entries once per decision (two minutes of the main process, red team 17A).
    let reads = 0;
    const counted = (entry: ProvedEntry): ProvedEntry =>
      new Proxy(entry, {
        get: (target, key) => {
          reads++;
          return target[key as keyof ProvedEntry];
        },
      });
    const n = 2_000;
    const entries = Array.from({ length: n }, (_, i) =>
      counted({
        seq: 100 + i,
        at: 'x',
        environment: 'production',
        action: 'decided',
        detail: { decision: 'a', reason: `r${i}` },
      }),
    );
    const unmatched = decisionsJson(
      Array.from({ length: n }, () => ({ decision: 'b', reason: 'none', status: 'final' })),
    );
    const checks = agreementChecks(unmatched, exported, entries);
    expect(checks.filter((c) => c.outcome === 'notOnTrail')).toHaveLength(5);
    expect(checks.filter((c) => c.outcome === 'failed')).toHaveLength(5);
    expect(reads).toBeLessThan(20 * n);
    // The same first-unused-entry order as before: two like decisions take the two like entries in turn.
    const twice = [proposed, { ...proposed, seq: 4 }];
    const both = decisionsJson([
      { ...approval, status: 'final' },
      { ...approval, status: 'final' },
    ]);
    expect(agreementChecks(both, exported, twice).map((c) => c.outcome)).toEqual(['ok']);
    expect(agreementChecks(both, exported, [proposed]).map((c) => c.outcome)).toEqual(['notOnTrail']);
  });

  it('fails export.json when it names another exporter, time or purpose than the export entry', () => {
    for (const change of [{ exportedBy: 'beto' }, { exportedAt: '2026-01-01T00:00:00.000Z' }, { purpose: 'Other' }])
      expect(agreementChecks(undefined, { ...exported, ...change }, [exportEntry])).toEqual([
        expect.objectContaining({ part: 'export.json', outcome: 'failed' }),
      ]);
    expect(agreementChecks(Buffer.from('[]'), exported, [exportEntry]).map((c) => [c.part, c.outcome])).toEqual([
      ['export.json', 'ok'],
      ['decisions.json', 'failed'],
    ]);
  });
});
