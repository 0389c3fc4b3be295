import { CsvError } from '../errors';

/** CSV reading (RFC 4180: quoted fields, doubled quotes, CRLF or LF) and writing safe to open in a spreadsheet. */

/** The widest row read: a batch picks one column, and a file of separators alone would otherwise fill memory. */
export const MAX_CSV_COLUMNS = 1_000;

/** Parses CSV text into rows of fields. Accepts `,` or `;` (whichever the first line uses more) as separator. */
export function parseCsv(text: string): string[][] {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const firstLine = input.slice(0, input.search(/\r?\n|$/));
  const separator = count(firstLine, ';') > count(firstLine, ',') ? ';' : ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let i = 0;
  while (i < input.length) {
    const ch = input[i]!;
    if (quoted) {
      if (ch === '"') {
        if (input[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
      i++;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === separator) {
      row.push(field);
      field = '';
      if (row.length >= MAX_CSV_COLUMNS)
        throw new CsvError(`Line ${line} has more than ${MAX_CSV_COLUMNS} columns.`, line, 'tooManyColumns');
    } else if (ch === '\n' || ch === '\r') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      if (ch === '\r' && input[i + 1] === '\n') i++;
      line++;
    } else field += ch;
    i++;
  }
  if (quoted) throw new CsvError(`A quoted field opened before line ${line} is never closed.`, line);
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
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
