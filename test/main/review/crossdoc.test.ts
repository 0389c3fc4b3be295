import { describe, expect, it } from 'vitest';
import { crossDocRows } from '../../../main/review/crossdoc';

describe('crossDocRows', () => {
  it('reads known fields and keeps unknown shapes readable', () => {
    const rows = crossDocRows({
      fullName: { match: true, status: 'MATCH', score: 0.99, values: { frontId: 'ANA', curp: 'ANA' } },
      birthDate: { status: 'MISMATCH', values: { frontId: '1990', curp: '1991' } },
      odd: { weird: { nested: [1, 2] }, other: null },
      scalar: 'plain',
      address: { match: false, status: 'NOT_COMPARED', reason: 'no address on the back' },
      documentNumber: { match: false, score: 0 },
    });
    expect(rows.map((r) => [r.field, r.verdict])).toEqual([
      ['fullName', 'match'],
      ['birthDate', 'mismatch'],
      ['odd', 'unknown'],
      ['scalar', 'unknown'],
      // Not compared is not a mismatch, whatever `match` says.
      ['address', 'unknown'],
      ['documentNumber', 'mismatch'],
    ]);
    expect(rows[0]?.details).toEqual([
      ['frontId', 'ANA'],
      ['curp', 'ANA'],
    ]);
    expect(rows[2]?.details).toEqual([
      ['weird.nested', '[1,2]'],
      ['other', 'null'],
    ]);
    expect(rows[3]?.details).toEqual([['value', 'plain']]);
  });
});
