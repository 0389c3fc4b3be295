import { describe, expect, it } from 'vitest';
import { parseImport, splitCsvLine } from '../../../main/review/import';

// A session token that names no interview (no interviewId claim): attachable to any of the tests' interviews.
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzZXNzaW9uIn0.c2lnbmF0dXJl';

describe('parseImport', () => {
  it('reads a pasted list with ids separated by lines, commas and spaces', () => {
    const r = parseImport('demo-a\ndemo-b, demo-c  demo-d\n\n# comment\n');
    expect(r.items.map((i) => i.interviewId)).toEqual(['demo-a', 'demo-b', 'demo-c', 'demo-d']);
    expect(r.problems).toEqual([]);
  });

  it('attaches a JWT-shaped token written after the id on the same line', () => {
    const r = parseImport(`demo-a ${JWT}\ndemo-b`);
    expect(r.items).toEqual([{ interviewId: 'demo-a', sessionToken: JWT }, { interviewId: 'demo-b' }]);
  });

  it('reports bad lines by number without dropping the good ones', () => {
    const r = parseImport('good-1\nbad/id\ngood-2');
    expect(r.items.map((i) => i.interviewId)).toEqual(['good-1', 'good-2']);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]?.line).toBe(2);
    expect(r.problems[0]?.message.es).toContain('no es un id');
  });

  it('reads a CSV with a header in any column order, quoted cells and semicolons', () => {
    const csv = '\uFEFFlabel;sessionToken;interviewId\r\n"Cliente; uno";' + JWT + ';demo-x\r\nsolo;;demo-y\r\n';
    const r = parseImport(csv);
    expect(r.items).toEqual([{ interviewId: 'demo-x', sessionToken: JWT }, { interviewId: 'demo-y' }]);
  });

  it('reads a headerless CSV as id then token when told it is CSV', () => {
    const r = parseImport(`demo-1,${JWT}\ndemo-2`, 'csv');
    expect(r.items).toEqual([{ interviewId: 'demo-1', sessionToken: JWT }, { interviewId: 'demo-2' }]);
  });

  it('never echoes an invalid token back in a problem', () => {
    const r = parseImport('interviewId,token\ndemo-1,"bad token with spaces"', 'csv');
    expect(r.items).toEqual([{ interviewId: 'demo-1' }]);
    expect(JSON.stringify(r.problems)).not.toContain('bad token');
  });

  it('keeps one item per id, the later token winning', () => {
    const r = parseImport(`interviewId,token\na1,${JWT}\na1,\na2,x`, 'csv');
    expect(r.items[0]).toEqual({ interviewId: 'a1', sessionToken: JWT });
    expect(r.items).toHaveLength(2);
  });

  it('splits quoted CSV cells with doubled quotes', () => {
    expect(splitCsvLine('"a ""b"", c",d', ',')).toEqual(['a "b", c', 'd']);
  });
});
