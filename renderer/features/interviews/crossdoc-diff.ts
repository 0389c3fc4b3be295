/**
 * Where compared cross-document values differ, so the eye need not find the letters: each value against the first
 * one, character by character (the longest common subsequence), and dates as dates (same day written two ways is
 * no difference; day and month swapped is said so). Pure: no React, no IPC.
 */

export interface Segment {
  text: string;
  differs: boolean;
}

/** Longer values are shown unmarked: the table is O(n·m) and nobody compares paragraphs letter by letter. */
const MAX_CHARS = 300;

/** The two strings cut into runs that both share (in order) and runs only one has. */
export function diffChars(a: string, b: string): { a: Segment[]; b: Segment[] } {
  const x = [...a];
  const y = [...b];
  if (x.length > MAX_CHARS || y.length > MAX_CHARS)
    return { a: [{ text: a, differs: a !== b }], b: [{ text: b, differs: a !== b }] };
  // lcs[i][j]: length of the longest common subsequence of x[i..] and y[j..].
  const lcs = Array.from({ length: x.length + 1 }, () => new Array<number>(y.length + 1).fill(0));
  for (let i = x.length - 1; i >= 0; i--)
    for (let j = y.length - 1; j >= 0; j--)
      lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const outA: Segment[] = [];
  const outB: Segment[] = [];
  const push = (out: Segment[], ch: string, differs: boolean) => {
    const last = out.at(-1);
    if (last && last.differs === differs) last.text += ch;
    else out.push({ text: ch, differs });
  };
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      push(outA, x[i]!, false);
      push(outB, y[j]!, false);
      i++;
      j++;
    } else if (j < y.length && (i >= x.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) push(outB, y[j++]!, true);
    else push(outA, x[i++]!, true);
  }
  return { a: outA, b: outB };
}

export interface DateParts {
  year: number;
  month: number;
  day: number;
}

/** ISO (1983-02-11, 1983/02/11) or day first as written in Mexico (11/02/1983, 11-02-1983, 11.02.1983). */
export function parseDate(value: string): DateParts | null {
  const v = value.trim();
  const iso = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ].*)?$/.exec(v);
  const dayFirst = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(v);
  const [year, month, day] = iso
    ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
    : dayFirst
      ? [Number(dayFirst[3]), Number(dayFirst[2]), Number(dayFirst[1])]
      : [NaN, NaN, NaN];
  if (!Number.isInteger(year) || month < 1 || month > 12 || day < 1) return null;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return { year, month, day };
}

export type DatePart = 'year' | 'month' | 'day';

export type Comparison =
  /** Text: each value's runs against the first value's, and the words that differ. */
  | { kind: 'text'; values: { source: string; segments: Segment[]; words: string[] }[] }
  /** Dates: which parts differ from the first value's; `swapped` when day and month trade places. */
  | {
      kind: 'date';
      values: { source: string; segments: Segment[]; parts: DatePart[] }[];
      swapped: boolean;
    }
  /** Every value is the same date, written differently: not a difference. */
  | { kind: 'sameDate' };

/** The whole words of `value` that hold a marked run (what a summary can name). */
function wordsMarked(segments: Segment[]): string[] {
  const text = segments.map((s) => s.text).join('');
  const marked = new Set<number>();
  let at = 0;
  for (const s of segments) {
    if (s.differs) for (let k = 0; k < s.text.length; k++) marked.add(at + k);
    at += s.text.length;
  }
  const words: string[] = [];
  for (const m of text.matchAll(/\S+/g)) {
    const start = m.index;
    if ([...Array(m[0].length).keys()].some((k) => marked.has(start + k))) words.push(m[0]);
  }
  return words;
}

/** Runs of a date as written, its year, month and day marked where they differ from the reference's. */
function dateSegments(value: string, differs: DatePart[]): Segment[] {
  const out: Segment[] = [];
  // Numbers in the order written; each is the year, month or day by its value's place in the format.
  const iso = /^\d{4}/.test(value.trim());
  const order: DatePart[] = iso ? ['year', 'month', 'day'] : ['day', 'month', 'year'];
  let part = 0;
  for (const m of value.matchAll(/\d+|\D+/g)) {
    const isNumber = /^\d/.test(m[0]) && part < 3;
    const which = isNumber ? order[part++]! : null;
    out.push({ text: m[0], differs: which !== null && differs.includes(which) });
  }
  return out;
}

/**
 * The comparison of one field's values (source, value), each against the first; null when there is nothing to
 * compare (fewer than two values) or nothing differs.
 */
export function compareValues(values: [string, string][]): Comparison | null {
  if (values.length < 2) return null;
  const [reference, ...others] = values;
  const dates = values.map(([, v]) => parseDate(v));
  if (dates.every((d) => d !== null)) {
    const ref = dates[0]!;
    const differing = dates.map((d) => (['year', 'month', 'day'] as const).filter((p) => d![p] !== ref[p]));
    if (differing.every((d) => d.length === 0))
      return values.every(([, v]) => v === reference![1]) ? null : { kind: 'sameDate' };
    const all = new Set(differing.flat());
    return {
      kind: 'date',
      values: values.map(([source, v], i) => ({
        source,
        segments: dateSegments(v, i === 0 ? [...all] : differing[i]!),
        parts: i === 0 ? [...all] : differing[i]!,
      })),
      swapped: dates.slice(1).some((d) => d!.day === ref.month && d!.month === ref.day && d!.year === ref.year),
    };
  }
  if (others.every(([, v]) => v === reference![1])) return null;
  // The reference is marked where any other value differs from it; each other value where it differs from it.
  const marks = others.map(([, v]) => diffChars(reference![1], v));
  const refMarked = new Set<number>();
  for (const { a } of marks) {
    let at = 0;
    for (const s of a) {
      const length = [...s.text].length;
      if (s.differs) for (let k = 0; k < length; k++) refMarked.add(at + k);
      at += length;
    }
  }
  const refSegments: Segment[] = [];
  [...reference![1]].forEach((ch, k) => {
    const differs = refMarked.has(k);
    const last = refSegments.at(-1);
    if (last && last.differs === differs) last.text += ch;
    else refSegments.push({ text: ch, differs });
  });
  return {
    kind: 'text',
    values: [
      { source: reference![0], segments: refSegments, words: wordsMarked(refSegments) },
      ...others.map(([source], i) => ({ source, segments: marks[i]!.b, words: wordsMarked(marks[i]!.b) })),
    ],
  };
}
