import { z } from 'zod';
import { UNREAD_FIELDS } from '../../common/omni';
import type { BeyondSpecField, ServiceAnswer } from '../../common/views';
import { REDACTED, redact, redactText } from '../log';
import type { EndpointName } from './endpoints';
import { endpoints } from './endpoints';

/**
 * The answer of a call as it may reach the renderer: one step for every screen's raw view, whatever the endpoint.
 * It lists the fields the endpoint's contract does not name (kept because response objects are loose) and redacts
 * what the renderer must never hold: held secrets and tokens (main/log.ts), fields named like a secret, and the
 * query of every URL (a pre-signed URL's query is its key; main streams those as app media URLs).
 */
export function serviceAnswer(name: EndpointName, read: unknown): ServiceAnswer {
  const beyondSpec: BeyondSpecField[] = [];
  const body = redact(shorten(hideSecrets(name, read)));
  listBeyondSpec(endpoints[name].response as z.ZodType, body, [], beyondSpec);
  return { endpoint: name, body, beyondSpec };
}

/** Field names that may carry a key, token or password, on any answer. */
const SECRET_FIELD =
  /^(key|api[-_]?key|apikeyvalue|secret|client[-_]?secret|password|token|(access|refresh|server|session)[-_]?token|full[-_]?key|plain[-_]?key|raw[-_]?key)$/i;
/** Where a field name is a secret on one endpoint only (an API key record's `value` is the key itself). */
const SECRET_FIELDS_OF: Partial<Record<EndpointName, RegExp>> = { listApiKeys: /^value$/i };

/** Whether a field of this endpoint's answer may hold a secret: never passed to the renderer. */
export function isSecretField(name: EndpointName, field: string): boolean {
  return SECRET_FIELD.test(field) || SECRET_FIELDS_OF[name]?.test(field) === true;
}

const MASK_CHARS = /[*•…]/g;
/** The spec's masked form shows 12 characters (`demo-fin••••9b2e`); more, or a longer unmasked run, is not masked. */
const MAX_VISIBLE = 12;
const MAX_VISIBLE_RUN = 8;
const MIN_MASK_CHARS = 3;

/** Whether a key value really is masked: a mere `*` inside a full key, or a held secret inside, is not (red team 7). */
export function isMasked(value: string): boolean {
  const masks = value.match(MASK_CHARS)?.length ?? 0;
  const longestRun = Math.max(0, ...value.split(MASK_CHARS).map((run) => run.length));
  return (
    masks >= MIN_MASK_CHARS &&
    value.length - masks <= MAX_VISIBLE &&
    longestRun <= MAX_VISIBLE_RUN &&
    redactText(value) === value
  );
}

/** A key value that arrives unmasked is masked here: the UI must never show a full key (decisions.md §8). */
export function ensureMasked(value: string): string {
  if (isMasked(value)) return value;
  const plain = value.replace(MASK_CHARS, '');
  return plain.length <= 8 ? '••••' : `${plain.slice(0, 4)}••••${plain.slice(-4)}`;
}

/** A text this long is a file (a PDF, evidence in base64): the screen offers the file, the raw view its start. */
export const LONG_TEXT = 2048;
const LONG_TEXT_HEAD = 64;

/** Longer than any secret the app holds (a JWT, a key): what is read past the cut, so one across it is still seen. */
const SECRET_REACH = 8192;

/**
 * The head of a long text. Redacted with what follows it, then cut: cut first, a secret across the cut kept the part
 * before it (red team 9); redacting all of a 20 MB text cost seconds of main for every such answer.
 */
export function abbreviated(text: string): string {
  return `${redactText(text.slice(0, LONG_TEXT_HEAD + SECRET_REACH)).slice(0, LONG_TEXT_HEAD)}… (${text.length} characters)`;
}

/**
 * How deep the raw view follows an answer, and how many items of a list it shows. The spec's answers nest a few levels
 * and list tens of items; a field beyond it nested 5,000 deep ran every walk below out of stack and blanked the
 * checks and fraud-risk panels, and one of millions of items went to the renderer whole.
 */
export const RAW_VIEW_DEPTH = 64;
export const RAW_VIEW_ITEMS = 500;

function hideSecrets(name: EndpointName, value: unknown, depth = 0): unknown {
  if (depth >= RAW_VIEW_DEPTH && (Array.isArray(value) || isRecord(value)))
    return `… (nested deeper than ${RAW_VIEW_DEPTH} levels)`;
  if (Array.isArray(value)) {
    const shown = value.slice(0, RAW_VIEW_ITEMS).map((v) => hideSecrets(name, v, depth + 1));
    return value.length > RAW_VIEW_ITEMS ? [...shown, `… (${value.length - RAW_VIEW_ITEMS} more items)`] : shown;
  }
  if (!isRecord(value)) return typeof value === 'string' ? withoutUrlQuery(value) : value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v !== null && isSecretField(name, key)) out[key] = REDACTED;
    else if (key === 'maskedKey' && typeof v === 'string') out[key] = ensureMasked(v);
    else out[key] = hideSecrets(name, v, depth + 1);
  }
  return out;
}

/** `https://host/path?X-Amz-Signature=…` → `https://host/path?…`; credentials in the address are dropped too. */
export function withoutUrlQuery(text: string): string {
  if (!/^https?:\/\//i.test(text)) return text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  if (!url.search && !url.hash && !url.username && !url.password) return text;
  return `${url.protocol}//${url.host}${url.pathname}${url.search || url.hash ? '?…' : ''}`;
}

function shorten(value: unknown): unknown {
  if (typeof value === 'string') return value.length > LONG_TEXT ? abbreviated(value) : value;
  if (Array.isArray(value)) return value.map(shorten);
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v)]));
}

/** Walks the answer along its contract; a key a loose object's shape does not name is beyond the spec. */
function listBeyondSpec(schema: z.ZodType, value: unknown, path: string[], out: BeyondSpecField[]): void {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject && isRecord(value)) {
    const shape = inner.shape as Record<string, z.ZodType>;
    for (const [key, v] of Object.entries(value)) {
      if (key === UNREAD_FIELDS) continue;
      const field = shape[key];
      if (field) listBeyondSpec(field, v, [...path, key], out);
      else out.push({ path: [...path, key].join('.'), value: v });
    }
  } else if (inner instanceof z.ZodArray && Array.isArray(value))
    value.forEach((item, i) => listBeyondSpec(inner.element as z.ZodType, item, [...path, String(i)], out));
  else if (inner instanceof z.ZodRecord && isRecord(value))
    for (const [key, v] of Object.entries(value)) listBeyondSpec(inner.valueType as z.ZodType, v, [...path, key], out);
  else if (inner instanceof z.ZodUnion) {
    // The option of the value's kind: an object for an object (a cross-document entry), a list for a list.
    const option = (inner.options as z.ZodType[])
      .map(unwrap)
      .find((o) => (isRecord(value) ? o instanceof z.ZodObject : Array.isArray(value) && o instanceof z.ZodArray));
    if (option) listBeyondSpec(option, value, path, out);
  }
}

function unwrap(schema: z.ZodType): z.ZodType {
  let at = schema;
  for (let i = 0; i < 8; i++) {
    if (at instanceof z.ZodOptional || at instanceof z.ZodNullable) at = at.unwrap() as z.ZodType;
    else if (at instanceof z.ZodDefault || at instanceof z.ZodCatch || at instanceof z.ZodReadonly)
      at = at.def.innerType as z.ZodType;
    else if (at instanceof z.ZodPipe) at = at.def.in as z.ZodType;
    else break;
  }
  return at;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
