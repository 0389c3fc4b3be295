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
/** Compact JWTs are redacted even when no source knows them (e.g. a token pasted into an error body). */
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;

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

export function redactText(text: string, secrets: readonly string[] = currentSecrets()): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
  // Also URL-encoded and base64 forms, which is how a secret travels in query strings and basic auth.
  for (const s of secrets) {
    const encoded = encodeURIComponent(s);
    if (encoded !== s && out.includes(encoded)) out = out.split(encoded).join(REDACTED);
  }
  return out.replace(JWT, REDACTED);
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
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v, secrets, seen);
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
  for (const [k, v] of Object.entries(value)) out[k] = redactValue(v, secrets, seen);
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
