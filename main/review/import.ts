import { InterviewId, SessionToken, type ImportProblem } from '../../common/ipc/queue';
import { otherInterviewOfToken } from '../../common/session-token';
import { tokenOfOtherInterview } from './errors';

export interface ImportItem {
  interviewId: string;
  sessionToken?: string;
}

export interface ParsedImport {
  items: ImportItem[];
  problems: ImportProblem[];
}

const JWT_SHAPE = /^[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*$/;
const ID_HEADER = /^(interview[ _-]?id|interviewid|id|interview|entrevista)$/i;
const TOKEN_HEADER = /^(session[ _-]?token|sessiontoken|token)$/i;

/**
 * Reads a pasted list or CSV text. List: one interview per line, or several separated by commas, semicolons or
 * spaces; a line of exactly an id and a JWT-shaped word attaches that token. CSV: a header naming the id and
 * (optionally) token columns, or no header with the id first and the token second. Bad lines are reported,
 * good ones kept; a later line for the same id wins.
 */
export function parseImport(text: string, format: 'auto' | 'csv' | 'list' = 'auto'): ParsedImport {
  const clean = text.replace(/^\uFEFF/, '');
  const lines = clean.split(/\r\n|\n|\r/);
  const chosen = format === 'auto' ? detectFormat(lines) : format;
  const result = chosen === 'csv' ? parseCsv(lines) : parseList(lines);
  return { items: dedupe(result.items), problems: result.problems };
}

function detectFormat(lines: string[]): 'csv' | 'list' {
  const first = lines.find((l) => l.trim() !== '');
  if (!first) return 'list';
  const delimiter = detectDelimiter(first);
  const cells = splitCsvLine(first, delimiter).map((c) => c.trim());
  return cells.some((c) => ID_HEADER.test(c)) ? 'csv' : 'list';
}

function parseList(lines: string[]): ParsedImport {
  const items: ImportItem[] = [];
  const problems: ImportProblem[] = [];
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const words = line.split(/[\s,;]+/).filter(Boolean);
    const [first, second] = words;
    if (words.length === 2 && first && second && JWT_SHAPE.test(second) && !JWT_SHAPE.test(first)) {
      pushItem(items, problems, index + 1, line, first, second);
      return;
    }
    for (const word of words) pushItem(items, problems, index + 1, line, word, undefined);
  });
  return { items, problems };
}

function parseCsv(lines: string[]): ParsedImport {
  const items: ImportItem[] = [];
  const problems: ImportProblem[] = [];
  const firstIndex = lines.findIndex((l) => l.trim() !== '');
  if (firstIndex < 0) return { items, problems };
  const delimiter = detectDelimiter(lines[firstIndex] ?? '');
  const headerCells = splitCsvLine(lines[firstIndex] ?? '', delimiter).map((c) => c.trim());
  const idColumn = headerCells.findIndex((c) => ID_HEADER.test(c));
  const hasHeader = idColumn >= 0;
  const tokenColumn = hasHeader ? headerCells.findIndex((c) => TOKEN_HEADER.test(c)) : 1;
  const idCol = hasHeader ? idColumn : 0;
  for (let i = hasHeader ? firstIndex + 1 : firstIndex; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    if (raw.trim() === '') continue;
    const cells = splitCsvLine(raw, delimiter).map((c) => c.trim());
    const id = cells[idCol] ?? '';
    const token = tokenColumn >= 0 ? cells[tokenColumn] : undefined;
    pushItem(items, problems, i + 1, raw, id, token === '' ? undefined : token);
  }
  return { items, problems };
}

function pushItem(
  items: ImportItem[],
  problems: ImportProblem[],
  line: number,
  text: string,
  id: string,
  token: string | undefined,
) {
  const idResult = InterviewId.safeParse(id);
  if (!idResult.success) {
    problems.push({
      line,
      text: text.slice(0, 200),
      message: id
        ? {
            en: `"${id.slice(0, 60)}" is not an interview id (letters, digits and . _ : - only).`,
            es: `"${id.slice(0, 60)}" no es un id de entrevista (solo letras, dígitos y . _ : -).`,
          }
        : { en: 'This line has no interview id.', es: 'Esta línea no tiene id de entrevista.' },
    });
    return;
  }
  if (token !== undefined) {
    const tokenResult = SessionToken.safeParse(token);
    if (!tokenResult.success) {
      // Never echo a token back, even a malformed one.
      problems.push({
        line,
        text: idResult.data,
        message: {
          en: 'The session token on this line is not valid; the interview was added without it.',
          es: 'El token de sesión de esta línea no es válido; la entrevista se agregó sin él.',
        },
      });
      items.push({ interviewId: idResult.data });
      return;
    }
    const other = otherInterviewOfToken(tokenResult.data, idResult.data);
    if (other !== undefined) {
      // The service would file this interview's notes and decision on the token's own interview.
      const refused = tokenOfOtherInterview(idResult.data, other, 'attach');
      problems.push({
        line,
        text: idResult.data,
        message: {
          en: `${refused.data.message.en} The interview was added without it.`,
          es: `${refused.data.message.es} La entrevista se agregó sin él.`,
        },
      });
      items.push({ interviewId: idResult.data });
      return;
    }
    items.push({ interviewId: idResult.data, sessionToken: tokenResult.data });
    return;
  }
  items.push({ interviewId: idResult.data });
}

function dedupe(items: ImportItem[]): ImportItem[] {
  const byId = new Map<string, ImportItem>();
  for (const item of items) {
    const previous = byId.get(item.interviewId);
    byId.set(item.interviewId, {
      interviewId: item.interviewId,
      sessionToken: item.sessionToken ?? previous?.sessionToken,
    });
  }
  return [...byId.values()].map((i) => (i.sessionToken ? i : { interviewId: i.interviewId }));
}

function detectDelimiter(line: string): string {
  const counts = [',', ';', '\t'].map((d) => [d, line.split(d).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  const best = counts[0];
  return best && best[1] > 0 ? best[0] : ',';
}

/** RFC 4180 cells of one line: quoted cells may hold the delimiter and doubled quotes. */
export function splitCsvLine(line: string, delimiter: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"') {
        if (line[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else cell += ch;
    } else if (ch === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (ch === delimiter) {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}
