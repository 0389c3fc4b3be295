/**
 * Keeps the caller's own text out of redaction when an error crosses IPC. Redaction hides stored secrets, so an error
 * that echoed a guess would come back "[redacted]" exactly when the guess is a secret: an oracle (red team 7). An echo
 * of a whole input string is set aside before redaction and put back after it, as it was, whatever it is: the caller
 * sent it, and the answer no longer depends on whether it is a secret. A partial echo (a run of one, cut or changed)
 * cannot be put back without telling how it lines up with a secret, so it is replaced by a fixed placeholder.
 */

/** What stands, in an error, for part of the caller's text. */
export const ECHO = '[…]';

/** Redaction ignores secrets shorter than this, so shorter input cannot make an oracle. */
const MIN_ECHO = 4;
/** Redaction hides runs of this many characters of a secret; a run this long shared with the input is masked. */
const RUN = 12;
/** Of each input string, the runs looked for are those of its first and last characters. */
const RUN_HEAD = 4096;
const RUN_TAIL = 256;
/** Longer input strings are looked for by their head and tail only. */
const WHOLE_MAX = 64 * 1024;
/** Marks an echo set aside: private-use characters, in no secret and in no message. */
const OPEN = '\uE000';
const CLOSE = '\uE001';
const MARKED = /\uE000(\d+)\uE001/g;

const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
const isWordChar = (c: string | undefined) => c !== undefined && /[a-z0-9]/.test(c);

/**
 * What to look for of an IPC input (already parsed, so plain data of bounded depth), as redaction would match it:
 * each string whole (and as a URL would carry it), and the runs of its head and tail. A string longer than
 * `WHOLE_MAX` (a photo's base64, a CSV file) is looked for by its head and tail only: no message quotes it whole,
 * and lower-casing and encoding 20 MB of it took over a second of main on every refusal.
 */
function needlesOf(input: unknown): { whole: string[]; runs: Set<string> } {
  const whole = new Set<string>();
  const runs = new Set<string>();
  // Runs of the input's words only: a secret is one word, and runs of a sentence (a decision's reason) would mask the
  // same words in the app's own messages ("…the session token…").
  const addRuns = (text: string) => {
    for (const word of text.split(/\s+/))
      for (let at = 0; at + RUN <= word.length; at++) runs.add(word.slice(at, at + RUN));
  };
  const walk = (value: unknown) => {
    if (typeof value === 'string') {
      if (value.length < MIN_ECHO) return;
      const head = asciiLower(value.slice(0, RUN_HEAD));
      const tail = asciiLower(value.slice(Math.max(RUN_HEAD - RUN + 1, value.length - RUN_TAIL)));
      addRuns(head);
      if (value.length > RUN_HEAD) addRuns(tail);
      if (value.length > WHOLE_MAX) return;
      whole.add(asciiLower(value));
      // A service may echo it in a URL path.
      const encoded = asciiLower(encodeURIComponent(value));
      whole.add(encoded);
      addRuns(encoded.slice(0, RUN_HEAD));
    } else if (value && typeof value === 'object') for (const item of Object.values(value)) walk(item);
  };
  walk(input);
  return { whole: [...whole], runs };
}

/** One text with whole echoes marked (their text kept in `kept`) and partial ones masked. */
function shieldText(text: string, needles: string[], runs: Set<string>, kept: string[]): string {
  const lowered = asciiLower(text);
  const ranges: { from: number; to: number; whole: boolean }[] = [];
  // Whole needles. A short one counts only as a word of its own ("demo" in "demonstration" is not its echo).
  for (const needle of needles)
    for (let at = lowered.indexOf(needle); at !== -1; at = lowered.indexOf(needle, at + 1)) {
      const to = at + needle.length;
      if (needle.length < RUN && (isWordChar(lowered[at - 1]) || isWordChar(lowered[to]))) continue;
      ranges.push({ from: at, to, whole: true });
    }
  if (runs.size > 0)
    for (let at = 0; at + RUN <= lowered.length; at++)
      if (runs.has(lowered.slice(at, at + RUN))) ranges.push({ from: at, to: at + RUN, whole: false });
  if (ranges.length === 0) return text;
  // Overlapping places merge; a merged place is whole only if every part of it is one whole echo.
  ranges.sort((a, b) => a.from - b.from || b.to - a.to);
  const merged: { from: number; to: number; whole: boolean }[] = [];
  for (const r of ranges) {
    const last = merged.at(-1);
    if (last && r.from < last.to) {
      if (r.to > last.to) [last.to, last.whole] = [r.to, false];
    } else merged.push({ ...r });
  }
  let out = '';
  let at = 0;
  for (const { from, to, whole } of merged) {
    out += text.slice(at, from);
    if (whole) {
      kept.push(text.slice(from, to));
      out += `${OPEN}${kept.length - 1}${CLOSE}`;
    } else out += ECHO;
    at = to;
  }
  return out + text.slice(at);
}

const isPlain = (value: object) => {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** An error that serializes itself (ReviewError, OmniError…): handled as a copy, so its own redaction sees no echo. */
const serializesItself = (value: object) =>
  typeof (value as { toIpcError?: unknown }).toIpcError === 'function' && !isPlain(value);

/** Every string in `value` through `map`: plain objects, arrays and self-serializing errors copied, the rest kept. */
function mapStrings<T>(value: T, map: (text: string) => string): T {
  const copies = new Map<object, unknown>();
  const copy = (v: unknown): unknown => {
    if (typeof v === 'string') return map(v);
    if (!v || typeof v !== 'object') return v;
    if (copies.has(v)) return copies.get(v);
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      copies.set(v, out);
      for (const item of v) out.push(copy(item));
      return out;
    }
    if (!isPlain(v) && !serializesItself(v)) return v;
    const out = Object.create(Object.getPrototypeOf(v) as object | null) as object;
    copies.set(v, out);
    for (const key of Reflect.ownKeys(v)) {
      const d = Object.getOwnPropertyDescriptor(v, key)!;
      Object.defineProperty(out, key, 'value' in d ? { ...d, value: copy(d.value) } : d);
    }
    return out;
  };
  return copy(value) as T;
}

/**
 * For one call: `hide` sets the caller's text aside in an error (or its serialized data) before redaction, `restore`
 * puts the whole echoes back after it.
 */
export function echoShield(input: unknown) {
  const { whole: needles, runs } = needlesOf(input);
  const kept: string[] = [];
  return {
    hide: <T>(value: T): T =>
      needles.length === 0 && runs.size === 0 ? value : mapStrings(value, (t) => shieldText(t, needles, runs, kept)),
    restore: <T>(value: T): T =>
      kept.length === 0
        ? value
        : mapStrings(value, (t) =>
            t.replace(MARKED, (_, n: string) => kept[Number(n)] ?? ECHO).replace(/[\uE000\uE001]/g, ''),
          ),
  };
}
