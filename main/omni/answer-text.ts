import { RAW_VIEW_DEPTH } from './answer';

/**
 * What the service (or whatever answered in its place) sent, read so that no answer costs more than its size: JSON
 * nested deeper than any walk of it can follow is cut where it passes RAW_VIEW_DEPTH, and a page's words are read in
 * one pass over its first 64 KiB (red team 17: a field nested 10,000 deep blanked the interview; 200 KB of `<a<a…`
 * held main's thread 7 s, since each unclosed tag was scanned to the end of the text).
 */

export const TOO_DEEP = `… (nested deeper than ${RAW_VIEW_DEPTH} levels)`;

/**
 * Items and fields an answer may hold in all. The service's answers hold hundreds; reading a million checks of `{}`
 * (3 MB) against the contract took 22 s and 3 GB in issues alone (red team 19).
 */
export const MAX_ANSWER_ENTRIES = 300_000;

/** An answer of more entries than any of the service's: not read further (the client says it is too large). */
export class TooManyEntries extends Error {}

/** JSON.parse (which nests as deep as the text does), then every object or list past the depth cut, without recursion. */
export function parseAnswer(text: string): unknown {
  const root: unknown = JSON.parse(text);
  const pending: { holder: Record<string, unknown> | unknown[]; depth: number }[] = [];
  if (typeof root === 'object' && root !== null) pending.push({ holder: root as Record<string, unknown>, depth: 1 });
  let entries = 0;
  while (pending.length > 0) {
    const { holder, depth } = pending.pop()!;
    const keys = Object.keys(holder);
    entries += keys.length;
    if (entries > MAX_ANSWER_ENTRIES) throw new TooManyEntries(`more than ${MAX_ANSWER_ENTRIES} items and fields`);
    for (const key of keys) {
      const value = (holder as Record<string, unknown>)[key];
      if (typeof value !== 'object' || value === null) continue;
      if (depth >= RAW_VIEW_DEPTH) (holder as Record<string, unknown>)[key] = TOO_DEEP;
      else pending.push({ holder: value as Record<string, unknown>, depth: depth + 1 });
    }
  }
  return root;
}

/** How much of a page its words are read from: a title and a few sentences are near its start. */
const PAGE_READ = 64 * 1024;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * A page's or a message's characters as a reader sees them: HTML entities and JSON `\uXXXX` escapes decoded, so a
 * secret echoed as `ak&#45;live…` or `ak\u002dlive…` is the secret the redaction looks for.
 */
export function decodedWords(text: string): string {
  return text
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,6});/g, (whole, name: string) => {
      const code =
        name[0] !== '#'
          ? undefined
          : name[1] === 'x' || name[1] === 'X'
            ? Number.parseInt(name.slice(2), 16)
            : Number.parseInt(name.slice(1), 10);
      if (code === undefined) return NAMED[name.toLowerCase()] ?? whole;
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    });
}

/** The words of a page (its title, then its text) that answered in place of the service, shortened. */
export function pageWords(page: string): string {
  const text = page.slice(0, PAGE_READ);
  const lower = text.toLowerCase();
  const titleAt = lower.indexOf('<title');
  const titleOpen = titleAt === -1 ? -1 : lower.indexOf('>', titleAt);
  const titleClose = titleOpen === -1 ? -1 : lower.indexOf('</title>', titleOpen);
  const title = titleClose === -1 ? undefined : decodedWords(text.slice(titleOpen + 1, titleClose));
  // Each heading, paragraph or line of the page reads as a sentence of its own. Every pattern stops at the next `<`,
  // so the whole is one pass.
  const body = decodedWords(
    withoutBlocks(text, lower)
      .replace(/<\/(h\d|p|div|li|td|center)>|<br\s*\/?>|<hr[^<>]*>/gi, '\n')
      .replace(/<[^<>]*>?/g, ' '),
  )
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .map((line, i, all) => (i < all.length - 1 && !/[.:!?]$/.test(line) ? `${line}.` : line))
    .join(' ');
  const words = title?.trim() && !body.startsWith(title.trim()) ? `${title.trim()}: ${body}` : body;
  return words.length > 200 ? `${words.slice(0, 199)}…` : words;
}

/** The text without its script, style and head blocks (one not closed runs to the end): found by indexOf. */
function withoutBlocks(text: string, lower: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = /<(script|style|head)\b/g;
    open.lastIndex = from;
    const found = open.exec(lower);
    if (!found) return out + text.slice(from);
    out += `${text.slice(from, found.index)} `;
    const close = lower.indexOf(`</${found[1]}`, found.index);
    if (close === -1) return out;
    const end = lower.indexOf('>', close);
    from = end === -1 ? text.length : end + 1;
  }
}
