import { CsvError } from '../errors';

/** CSV reading (RFC 4180: quoted fields, doubled quotes, CRLF or LF) and writing safe to open in a spreadsheet. */

/** The widest row read: a batch picks one column, and a file of separators alone would otherwise fill memory. */
export const MAX_CSV_COLUMNS = 1_000;

/**
 * Parses CSV text into rows of fields, blank rows left out. Accepts `,` or `;` (whichever the first line uses more) as
 * separator. With `maxRows`, it stops at the first row past it and returns maxRows + 1 rows: a caller refusing a file
 * over its limit learns so at once, without reading (and holding) the rest of a 20 MB file.
 */
export function parseCsv(text: string, maxRows = Infinity): string[][] {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const firstLine = input.slice(0, input.search(/\r?\n|$/));
  const sep = count(firstLine, ';') > count(firstLine, ',') ? SEMICOLON : COMMA;
  const end = input.length;
  const rows: string[][] = [];
  let row: string[] = [];
  let line = 1;
  let i = 0;
  while (i < end) {
    // One field: quoted segments and plain text up to a separator or line end. Slices, not `field += ch`: a long
    // field built a character at a time is a cons-string many times its size.
    let field = '';
    for (;;) {
      if (field === '' && input.charCodeAt(i) === QUOTE) {
        i++;
        // The closing quote is the first one not doubled; the field is found whole, then its doubled quotes undone
        // in one pass (one piece per `""` made a 20 MB field cost minutes: red team 9).
        let close = i;
        for (;;) {
          close = input.indexOf('"', close);
          if (close < 0) {
            const last = line + newlines(input, i, end);
            throw new CsvError(`A quoted field opened before line ${last} is never closed.`, last);
          }
          if (input.charCodeAt(close + 1) !== QUOTE) break;
          close += 2;
        }
        const quoted = input.slice(i, close);
        line += newlines(input, i, close);
        field += quoted.includes('"') ? quoted.replaceAll('""', '"') : quoted;
        i = close + 1;
        continue;
      }
      let j = i;
      for (; j < end; j++) {
        const c = input.charCodeAt(j);
        if (c === sep || c === LF || c === CR) break;
      }
      field += input.slice(i, j);
      i = j;
      break;
    }
    row.push(field);
    if (i >= end) break;
    const c = input.charCodeAt(i);
    i++;
    if (c === sep) {
      if (row.length >= MAX_CSV_COLUMNS)
        throw new CsvError(`Line ${line} has more than ${MAX_CSV_COLUMNS} columns.`, line, 'tooManyColumns');
      // A separator at the very end still opens one last (empty) field.
      if (i >= end) row.push('');
      continue;
    }
    if (c === CR && input.charCodeAt(i) === LF) i++;
    line++;
    if (row.some((f) => f.trim() !== '')) rows.push(row);
    row = [];
    if (rows.length > maxRows) return rows;
  }
  if (row.some((f) => f.trim() !== '')) rows.push(row);
  return rows;
}

const COMMA = 0x2c;
const SEMICOLON = 0x3b;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/** Line ends in [from, to) only: an unbounded search ran to the file's next line end for every quote pair. */
function newlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) if (text.charCodeAt(k) === LF) n++;
  return n;
}

function count(text: string, ch: string): number {
  let n = 0;
  for (const c of text) if (c === ch) n++;
  return n;
}

/**
 * Spreadsheets run cells that start with = + - @ (or tab / CR) as formulas; such text values are prefixed with
 * an apostrophe so an exported file cannot execute anything when opened.
 */
function neutralize(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export type CsvCell = string | number | boolean | null | undefined;

export function toCsvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? neutralize(value) : String(value);
  return /[",\r\n;]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV text with a header row, CRLF line ends and a BOM so spreadsheets read UTF-8 accents correctly. */
export function toCsv(header: string[], rows: CsvCell[][]): string {
  const lines = [header, ...rows].map((r) => r.map(toCsvField).join(','));
  return `\ufeff${lines.join('\r\n')}\r\n`;
}
