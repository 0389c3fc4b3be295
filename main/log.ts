/**
 * The one redaction step: every log line and every serialized error passes through `redact`, which replaces each
 * secret currently held (vault values, server and session tokens) with `[redacted]`.
 */

export const REDACTED = '[redacted]';

/** Anything that holds secrets (the vault, the token manager) registers itself here. */
export interface SecretSource {
  knownSecrets(): Iterable<string>;
}

const sources = new Set<WeakRef<SecretSource>>();

/** Weakly held, so a discarded vault or client does not keep its secrets alive. */
export function registerSecretSource(source: SecretSource): void {
  sources.add(new WeakRef(source));
}

/** Secrets shorter than this are not matched: replacing "a" everywhere would garble text and reveal nothing. */
const MIN_SECRET_LENGTH = 4;
/** Compact JWTs are redacted even when no source knows them (a token pasted into an error body): read in these runs. */
const BASE64URL_DOTTED = /[A-Za-z0-9_.-]+/g;

export function currentSecrets(extra: Iterable<string> = []): string[] {
  const all = new Set<string>();
  for (const ref of sources) {
    const source = ref.deref();
    if (!source) {
      sources.delete(ref);
      continue;
    }
    for (const s of source.knownSecrets()) if (s.length >= MIN_SECRET_LENGTH) all.add(s);
  }
  for (const s of extra) if (s.length >= MIN_SECRET_LENGTH) all.add(s);
  // Longest first, so a secret containing another is replaced whole.
  return [...all].sort((a, b) => b.length - a.length);
}

/**
 * A secret in any of the ways a service's words may echo it: as sent, URL-encoded, in hex, in base64 (alone, or at any
 * of the three alignments inside a longer base64 text: basic auth, a JWT's payload), in another case, or most of it
 * (three quarters of it in a row, as in "unknown key demo-fin-admin-4c1f9b2e…"; less would take words a secret shares
 * with plain text, such as an organization's name). Case is ignored in every form: a service that upper-cased a key
 * had shown it whole.
 */
export function redactText(text: string, secrets: readonly string[] = currentSecrets()): string {
  if (secrets.length > 0 && text.length >= MIN_SECRET_LENGTH) {
    const forms = secretForms(secrets);
    // Escaped as a page, a URL or a program would write it (`&#45;`, `%2D`, `\u002d`), or with invisible or look-alike
    // characters in it: read as a person would, and the whole text withheld if a secret is there (red team 18).
    const plain = ENCODED.test(text) ? readAsWritten(text) : text;
    if (plain !== text && hiddenRanges(asciiLower(plain), forms).length > 0) return REDACTED;
    // Base64 wrapped in lines (MIME at 76 columns, PEM at 64): no line holds most of a secret's encoded form.
    const unwrapped = text.includes('\n') ? text.replace(WRAPPED_LINE_BREAK, '') : text;
    if (unwrapped !== text && hiddenRanges(asciiLower(unwrapped), forms).length > 0) return REDACTED;
    const hidden = hiddenRanges(asciiLower(text), forms);
    if (hidden.length > 0) {
      let out = '';
      let at = 0;
      for (const [from, to] of hidden) {
        out += text.slice(at, from) + REDACTED;
        at = to;
      }
      text = out + text.slice(at);
    }
  }
  return withoutJwts(text);
}

/**
 * Every compact JWT (`eyJ…` header, payload and signature joined by dots) redacted, reading each run of base64url
 * and dots once: a pattern over the whole text took quadratic time on `-eyJ` repeated (red team 19).
 */
function withoutJwts(text: string): string {
  if (!text.includes('eyJ')) return text;
  return text.replace(BASE64URL_DOTTED, (run) => {
    if (!run.includes('eyJ') || !run.includes('.')) return run;
    const parts = run.split('.');
    let out = '';
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      // A header starts the part or follows a '-' (a word boundary there, as `\b` had it).
      const start = part.startsWith('eyJ') ? 0 : part.indexOf('-eyJ') + 1;
      const header = start > 0 || part.startsWith('eyJ') ? part.slice(start) : '';
      const payload = parts[i + 1];
      if (header.length >= 8 && payload !== undefined && payload.length >= 5 && i + 2 < parts.length) {
        out += `${i > 0 ? '.' : ''}${part.slice(0, start)}${REDACTED}`;
        i += 2;
      } else out += `${i > 0 ? '.' : ''}${part}`;
    }
    return out;
  });
}

/** A line break between two lines of base64 (a line of 16 such characters at least before it). */
const WRAPPED_LINE_BREAK = /(?<=[A-Za-z0-9+/_-]{16})\r?\n(?=[A-Za-z0-9+/=_-])/g;

/** What may hide a secret's characters from a plain match: an escape, an invisible character, a look-alike hyphen. */
const ENCODED =
  /[%&\\\p{Cf}\u034f\ufe00-\ufe0f\u115f\u1160\u3164\uffa0\u2010-\u2015\u2212\ufe58\ufe63\uff01-\uff5e\u0370-\u03ff\u0400-\u052f]/u;
/** Greek and Cyrillic letters drawn as Latin ones: a key echoed with one of them reads as the key (red team 19). */
const LOOKALIKES: Record<string, string> = Object.fromEntries(
  [...'аАвВеЕкКмМнНоОрРсСтТуухХіІјЈѕЅԁԛԝαΑβΒεΕηΗιΙκΚμΜνΝοΟρΡτΤυΥχΧζΖ'].map((c, i) => [
    c,
    'aABBeEKKMMHHoOpPcCTTyyxXiIjJsSdqwaABBeEnHiIKKMMvNoOpPTTuYxXZZ'[i] ?? c,
  ]),
);
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  hyphen: '-',
  dash: '-',
  ndash: '-',
  mdash: '-',
  minus: '-',
};

/** The text with its escapes decoded (twice, for an escaped escape), invisible characters out, hyphens plain. */
function readAsWritten(text: string): string {
  let out = text;
  for (let round = 0; round < 2; round++)
    out = out
      .replace(/&#(x[0-9a-f]+|[0-9]+);?/gi, (whole, code: string) => fromCode(whole, code))
      .replace(/&([a-z]{2,6});/gi, (whole, name: string) => NAMED_ENTITIES[name.toLowerCase()] ?? whole)
      .replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
      .replace(
        /\\u\{([0-9a-f]{1,6})\}|\\u([0-9a-f]{4})|\\x([0-9a-f]{2})/gi,
        (whole, a?: string, b?: string, c?: string) => fromCode(whole, `x${a ?? b ?? c}`),
      );
  return out
    .normalize('NFKC')
    .replace(/[\u0370-\u03ff\u0400-\u052f]/g, (c) => LOOKALIKES[c] ?? c)
    .replace(/[\p{Cf}\u034f\ufe00-\ufe0f\u115f\u1160\u3164\uffa0]/gu, '')
    .replace(/[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]/g, '-');
}

function fromCode(whole: string, code: string): string {
  const point = code[0] === 'x' || code[0] === 'X' ? Number.parseInt(code.slice(1), 16) : Number.parseInt(code, 10);
  return Number.isSafeInteger(point) && point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : whole;
}

/** Most of a secret: three quarters of it in a row, and never fewer than this many characters, is redacted. */
const PART_OF_SECRET = 12;
const partNeeded = (secret: string) => Math.max(PART_OF_SECRET, Math.ceil(secret.length * 0.75));
/** A base64 form shorter than this is not matched (its characters are too few to be the secret's). */
const MIN_ENCODED_LENGTH = 8;

/** Lower case for ASCII letters only, so every index stays where it was. */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * The forms of the secrets held now, kept up to date as secrets come and go: each secret's forms are indexed once when
 * it appears and taken out when it goes. (Built again whole at every change, a set of thirty tokens cost 175 ms, and a
 * process running many shells, as the tests do, changed it at every attach.)
 */
interface SecretForms {
  secrets: Set<string>;
  /**
   * Forms matched whole: the rarer encodings (hex, base64url) and any form too short to be found by part
   * (`PART_OF_SECRET` characters or fewer), with how many secrets have each.
   */
  whole: Map<string, number>;
  /** Every `PART_OF_SECRET`-character run of the longer forms, and where it starts in which form. */
  runs: Map<string, [form: string, offset: number][]>;
}

const held: SecretForms = { secrets: new Set(), whole: new Map(), runs: new Map() };

/**
 * A secret as it may be echoed, lower-cased: found by part as sent, URL-encoded and in base64 at each alignment (a
 * basic-auth header cut short); whole in hex and base64url. Indexing every form by part cost 4.6 ms a token.
 */
function formsOf(secret: string): { byPart: string[]; whole: string[] } {
  const lower = (forms: string[]) =>
    [...new Set(forms.map(asciiLower))].filter((form) => form.length >= MIN_SECRET_LENGTH);
  const { standard, url } = base64Forms(secret);
  return {
    byPart: lower([secret, encodeURIComponent(secret), ...standard]),
    whole: lower([Buffer.from(secret, 'utf8').toString('hex'), ...url]),
  };
}

function secretForms(secrets: readonly string[]): SecretForms {
  if (secrets.length === held.secrets.size && secrets.every((s) => held.secrets.has(s))) return held;
  const wanted = new Set(secrets);
  for (const secret of held.secrets)
    if (!wanted.has(secret)) {
      held.secrets.delete(secret);
      indexSecret(secret, -1);
    }
  for (const secret of wanted)
    if (!held.secrets.has(secret)) {
      held.secrets.add(secret);
      indexSecret(secret, 1);
    }
  return held;
}

/**
 * How much of each end of a long secret is indexed by its runs: the index holds an entry per character indexed, and a
 * token of 3 MB indexed whole ran main out of memory at its first redaction (red team 17). Most of a secret (what is
 * redacted) holds a run of its start or of its end, and the match grows from there along the whole secret, so a
 * gateway's cut echo of a 16 KB token is still found (red team 18).
 */
const INDEXED_END = 4 * 1024;

function indexSecret(secret: string, change: 1 | -1): void {
  const { byPart, whole } = formsOf(secret);
  for (const form of byPart) indexForm(form, change, form.length <= PART_OF_SECRET);
  for (const form of whole) indexForm(form, change, true);
}

/** Adds (`1`) or takes out (`-1`) one form: whole, or each of its runs. */
function indexForm(form: string, change: 1 | -1, whole: boolean): void {
  if (whole) {
    const count = (held.whole.get(form) ?? 0) + change;
    if (count > 0) held.whole.set(form, count);
    else held.whole.delete(form);
    return;
  }
  for (let offset = 0; offset + PART_OF_SECRET <= form.length; offset++) {
    // A long form's middle is skipped: its ends are indexed (INDEXED_END).
    if (offset === INDEXED_END && form.length - PART_OF_SECRET - INDEXED_END > offset)
      offset = form.length - PART_OF_SECRET - INDEXED_END;
    const run = form.slice(offset, offset + PART_OF_SECRET);
    const places = held.runs.get(run) ?? [];
    // A run the form holds again (a repetitive secret, which a hostile server may give as its token) is kept once:
    // every place of it would be grown at every place of the text.
    if (change === 1) {
      if (!places.some(([f]) => f === form)) places.push([form, offset]);
    } else {
      const at = places.findIndex(([f, o]) => f === form && o === offset);
      if (at !== -1) places.splice(at, 1);
    }
    if (places.length > 0) held.runs.set(run, places);
    else held.runs.delete(run);
  }
}

/** The secret's base64 and base64url characters that do not depend on the bytes around it, at each alignment. */
function base64Forms(secret: string): { standard: string[]; url: string[] } {
  const bytes = Buffer.from(secret, 'utf8');
  const standard: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes, Buffer.alloc(2)]).toString('base64');
    const core = encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
    if (core.length >= MIN_ENCODED_LENGTH) standard.push(core);
  }
  return { standard, url: standard.map((core) => core.replace(/\+/g, '-').replace(/\//g, '_')) };
}

/** Where `text` (lower-cased) holds a form of a secret, merged and in order. */
function hiddenRanges(text: string, forms: SecretForms): [number, number][] {
  const ranges: [number, number][] = [];
  for (const form of forms.whole.keys())
    // Found again only after the last find: a repetitive form ('a' × 16,384) would be compared at every place.
    for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + form.length))
      ranges.push([at, at + form.length]);
  // A longer form, whole or most of it: a first run of it found, then grown both ways as far as the text matches.
  // What a growth covered is not looked at again (each place inside it would grow the same stretch: quadratic in a long
  // secret's echo).
  if (forms.runs.size > 0)
    for (let at = 0; at + PART_OF_SECRET <= text.length; at++) {
      let covered = at;
      for (const [secret, offset] of forms.runs.get(text.slice(at, at + PART_OF_SECRET)) ?? []) {
        let [from, inSecret] = [at, offset];
        while (from > 0 && inSecret > 0 && text[from - 1] === secret[inSecret - 1])
          [from, inSecret] = [from - 1, inSecret - 1];
        let [to, end] = [at + PART_OF_SECRET, offset + PART_OF_SECRET];
        while (to < text.length && end < secret.length && text[to] === secret[end]) [to, end] = [to + 1, end + 1];
        if (to - from >= partNeeded(secret)) ranges.push([from, to]);
        // Matched or not: a later start inside this stretch grows along the same characters to the same end (an echo
        // just under the share needed was grown again from each of its places, red team 19).
        covered = Math.max(covered, to - PART_OF_SECRET);
      }
      at = covered;
    }
  if (ranges.length === 0) return ranges;
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [ranges[0]!];
  for (const [from, to] of ranges.slice(1)) {
    const previous = merged[merged.length - 1]!;
    if (from <= previous[1]) previous[1] = Math.max(previous[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

/** Deep copy with every string redacted; errors become plain objects with their message and stack redacted. */
export function redact<T>(value: T, secrets: readonly string[] = currentSecrets()): T {
  return redactValue(value, secrets, new WeakMap()) as T;
}

function redactValue(value: unknown, secrets: readonly string[], seen: WeakMap<object, unknown>): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return seen.get(value);
  if (value instanceof Error) {
    const out: Record<string, unknown> = { name: value.name, message: redactText(value.message, secrets) };
    seen.set(value, out);
    if (value.stack) out.stack = redactText(value.stack, secrets);
    for (const [k, v] of Object.entries(value)) out[redactText(k, secrets)] = redactValue(v, secrets, seen);
    if (value.cause !== undefined) out.cause = redactValue(value.cause, secrets, seen);
    return out;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const v of value) out.push(redactValue(v, secrets, seen));
    return out;
  }
  if (value instanceof Uint8Array) return `<${value.byteLength} bytes>`;
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  // A name is redacted too: a service may key an object by the very secret (`{"errors": {"<key>": "revoked"}}`).
  for (const [k, v] of Object.entries(value)) out[redactText(k, secrets)] = redactValue(v, secrets, seen);
  return out;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

export interface LoggerOptions {
  /** Where finished lines go; stderr by default. Tests pass a collector. */
  sink?: (line: string) => void;
  level?: LogLevel;
  now?: () => Date;
}

/** JSON-lines logger; every line is redacted as a whole after serialization, so nothing slips through a field. */
export function createLogger(opts: LoggerOptions = {}, bound: Record<string, unknown> = {}): Logger {
  const sink = opts.sink ?? ((line: string) => process.stderr.write(line + '\n'));
  const min = LEVELS[opts.level ?? 'info'];
  const now = opts.now ?? (() => new Date());
  const write = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (LEVELS[level] < min) return;
    const secrets = currentSecrets();
    const record = redact({ time: now().toISOString(), level, message, ...bound, ...fields }, secrets);
    sink(redactText(safeStringify(record), secrets));
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger(opts, { ...bound, ...fields }),
  };
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  } catch {
    return JSON.stringify({ message: 'unserializable log record' });
  }
}

/** The app-wide logger. */
export const log: Logger = createLogger({ level: process.env.OMNI_LOG_LEVEL === 'debug' ? 'debug' : 'info' });
