import { describe, expect, it } from 'vitest';
import { parseCsv, toCsv } from '../../../main/validation/csv';
import { CsvError } from '../../../main/errors';

describe('CSV', () => {
  it('parses quotes, doubled quotes, CRLF, a BOM, blank lines and semicolon files', () => {
    expect(parseCsv('\ufeffrfc,name\r\n"GODE561231GR8","Pérez, ""Juan"""\r\n\r\nXAXX010101000,x\n')).toEqual([
      ['rfc', 'name'],
      ['GODE561231GR8', 'Pérez, "Juan"'],
      ['XAXX010101000', 'x'],
    ]);
    expect(parseCsv('curp;nota\nAAAA;b;c')).toEqual([
      ['curp', 'nota'],
      ['AAAA', 'b', 'c'],
    ]);
    expect(parseCsv('"multi\nline",2')).toEqual([['multi\nline', '2']]);
  });

  it('stops one row past maxRows, so a 10,000,000-line file is not read whole', () => {
    // The quote left open at the end would be an error: a parse that stops does not get there.
    const rows = parseCsv(`${'a\n'.repeat(10_000_000)}"never closed`, 100_000);
    expect(rows).toHaveLength(100_001);
    // Blank rows are not counted; fields keep their quotes, separators and line ends as before.
    expect(parseCsv('\n\n"x\ny",1\n\n,\n2\n3\n', 2)).toEqual([['x\ny', '1'], ['2'], ['3']]);
  });

  it('reports an unclosed quote with its line', () => {
    expect(() => parseCsv('a\n"b,c\n')).toThrow(CsvError);
  });

  it('writes escaped fields and neutralizes spreadsheet formulas', () => {
    const text = toCsv(
      ['a', 'b'],
      [
        ['=HYPERLINK("x")', 'x,y'],
        [null, 3],
        ['-1', true],
      ],
    );
    expect(text).toBe('\ufeffa,b\r\n"\'=HYPERLINK(""x"")","x,y"\r\n,3\r\n\'-1,true\r\n');
    expect(parseCsv(text)).toEqual([
      ['a', 'b'],
      ['\'=HYPERLINK("x")', 'x,y'],
      ['', '3'],
      ["'-1", 'true'],
    ]);
  });
});

describe('parseCsv: quoted fields found whole', () => {
  it('undoes doubled quotes across lines and counts the lines they span for later errors', () => {
    const text = 'RFC,NOTE\n"A""B","x\n""y""\nz"\n"C",""""\n"unclosed';
    expect(() => parseCsv(text)).toThrow(/before line 6 is never closed/);
    expect(parseCsv(text.slice(0, text.lastIndexOf('\n')))).toEqual([
      ['RFC', 'NOTE'],
      ['A"B', 'x\n"y"\nz'],
      ['C', '"'],
    ]);
  });
});
