import { describe, expect, it } from 'vitest';
import { compareValues, diffChars, parseDate } from '../../../../renderer/features/interviews/crossdoc-diff';

const marked = (segments: { text: string; differs: boolean }[]) =>
  segments.map((s) => (s.differs ? `[${s.text}]` : s.text)).join('');

describe('cross-document values compared character by character', () => {
  it('marks the letters that differ, in both values', () => {
    const { a, b } = diffChars('BRUNO SALINAS ORTEGA', 'BRUNO SALINAS ORTIZ');
    expect(marked(a)).toBe('BRUNO SALINAS ORT[EGA]');
    expect(marked(b)).toBe('BRUNO SALINAS ORT[IZ]');
    expect(marked(diffChars('JOSE LUIS', 'JOSÉ LUIS').b)).toBe('JOS[É] LUIS');
    expect(marked(diffChars('ANA', 'ANA MARIA').b)).toBe('ANA[ MARIA]');
  });

  it('names the words that differ and which value holds them', () => {
    const c = compareValues([
      ['frontId', 'BRUNO SALINAS ORTEGA'],
      ['backId', 'BRUNO SALINAS ORTIZ'],
    ]);
    expect(c).toMatchObject({
      kind: 'text',
      values: [
        { source: 'frontId', words: ['ORTEGA'] },
        { source: 'backId', words: ['ORTIZ'] },
      ],
    });
    expect(
      compareValues([
        ['frontId', 'IDMEX1180934417'],
        ['backId', 'IDMEX1180934417'],
      ]),
    ).toBeNull();
    expect(compareValues([['frontId', 'X']])).toBeNull();
  });
});

describe('dates compared as dates', () => {
  it('reads ISO and day-first dates, and refuses what is no date', () => {
    expect(parseDate('1983-02-11')).toEqual({ year: 1983, month: 2, day: 11 });
    expect(parseDate('11/02/1983')).toEqual({ year: 1983, month: 2, day: 11 });
    expect(parseDate('1983-02-30')).toBeNull();
    expect(parseDate('IDMEX1180934417')).toBeNull();
  });

  it('marks the parts that differ and says when day and month are swapped', () => {
    const c = compareValues([
      ['frontId', '1983-02-11'],
      ['curp', '1983-11-02'],
    ]);
    expect(c).toMatchObject({
      kind: 'date',
      swapped: true,
      values: [{ parts: ['month', 'day'] }, { parts: ['month', 'day'] }],
    });
    if (c?.kind !== 'date') throw new Error('expected a date comparison');
    expect(marked(c.values[1]!.segments)).toBe('1983-[11]-[02]');
    const year = compareValues([
      ['frontId', '11/02/1983'],
      ['curp', '1984-02-11'],
    ]);
    expect(year).toMatchObject({ kind: 'date', swapped: false, values: [{ parts: ['year'] }, { parts: ['year'] }] });
    if (year?.kind !== 'date') throw new Error('expected a date comparison');
    expect(marked(year.values[0]!.segments)).toBe('11/02/[1983]');
  });

  it('calls the same date written two ways no difference', () => {
    expect(
      compareValues([
        ['frontId', '11/02/1983'],
        ['curp', '1983-02-11'],
      ]),
    ).toEqual({ kind: 'sameDate' });
  });
});
