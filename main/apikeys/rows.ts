import { UNREAD_FIELDS, unreadFieldsOf, type ApiKeyRecord } from '../../common/omni';
import { UNREAD_ITEMS } from '../omni/tolerant-read';
import type { ApiKeyRow, CellValue } from '../../common/ipc/apikeys';
import type { ServiceAnswer } from '../../common/views';
import { ensureMasked, isSecretField, RAW_VIEW_DEPTH, serviceAnswer } from '../omni/answer';
import { REDACTED, redact } from '../log';

/**
 * A key record's field that may hold a key: the shared secret names, plus any name that ends in one (`secretKey`,
 * `privateKey`, `apiSecret`, `keyValue`, `credential`): a key list is where a service puts keys under names of its own.
 */
const KEY_NAME = /(key|secret|token|password|passphrase|credential)s?([-_]?(value|data|material|plain|raw|full))?$/i;
const MASKED_NAME = /^masked[-_]?key$/i;

const isMaskedField = (field: string) => MASKED_NAME.test(field);
const isKeyField = (field: string) =>
  !isMaskedField(field) && (isSecretField('listApiKeys', field) || KEY_NAME.test(field));

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every string under a `maskedKey`, whatever its shape (a list, an object), masked. */
function maskAll(value: unknown, depth: number): unknown {
  if (depth >= RAW_VIEW_DEPTH) return '••••';
  if (typeof value === 'string') return ensureMasked(value);
  if (Array.isArray(value)) return value.map((v) => maskAll(v, depth + 1));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskAll(v, depth + 1)]));
  return value;
}

/** A key list with every key-like field redacted and every `maskedKey` masked, at any depth, unread fields included. */
function scrub(value: unknown, depth = 0): unknown {
  if ((Array.isArray(value) || isRecord(value)) && depth >= RAW_VIEW_DEPTH)
    return `… (nested deeper than ${RAW_VIEW_DEPTH} levels)`;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [field, v] of Object.entries(value))
    out[field] =
      v !== null && isKeyField(field) ? REDACTED : isMaskedField(field) ? maskAll(v, depth + 1) : scrub(v, depth + 1);
  return out;
}

/**
 * The list as it may reach the renderer, raw view included: key fields redacted, `maskedKey` masked and every string
 * passed through `redact` (a service that echoes the held key in `name` or `prefix`).
 */
function scrubApiKeys<T>(records: T): T {
  return redact(scrub(records)) as T;
}

function cell(value: unknown): CellValue {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value;
  if (value === undefined) return null;
  return JSON.stringify(value);
}

/** The rows and the raw view of one listing, both from the scrubbed list (scrubbed once: a list may be 10,000 keys). */
export function apiKeyList(raw: ApiKeyRecord[]): {
  keys: ApiKeyRow[];
  extraColumns: string[];
  unreadRecords: number;
  answer: ServiceAnswer;
} {
  const records = scrubApiKeys(raw);
  // Records the reader set aside (no id, say): not rows, but counted on the screen and kept in the raw view, so an
  // audit of the keys never silently misses one.
  const setAside = unreadFieldsOf(raw)[UNREAD_ITEMS];
  const unread = Array.isArray(setAside) ? (scrubApiKeys(setAside) as unknown[]) : [];
  return {
    ...rowsOf(records),
    unreadRecords: unread.length,
    answer: serviceAnswer('listApiKeys', unread.length > 0 ? [...records, ...unread] : records),
  };
}

export function toApiKeyRows(raw: ApiKeyRecord[]): { keys: ApiKeyRow[]; extraColumns: string[] } {
  return rowsOf(scrubApiKeys(raw));
}

/** Cells come from the scrubbed list only, so an object cell never stringifies a key. */
function rowsOf(records: ApiKeyRecord[]): { keys: ApiKeyRow[]; extraColumns: string[] } {
  const extraColumns: string[] = [];
  const seen = new Set<string>();
  const keys = records.map((record) => {
    const { id, name, maskedKey, createdAt, enabled, [UNREAD_FIELDS]: _unread, ...rest } = record;
    const extra: Record<string, CellValue> = {};
    const show = (field: string, value: CellValue) => {
      extra[field] = value;
      if (!seen.has(field)) {
        seen.add(field);
        extraColumns.push(field);
      }
    };
    for (const [field, value] of Object.entries(rest)) if (!isKeyField(field)) show(field, cell(value));
    // Fields the service sent in a shape the spec does not describe: shown raw in a column of their own, flagged.
    const unread = Object.entries(unreadFieldsOf(record)).filter(([field]) => !isKeyField(field));
    for (const [field, value] of unread) show(field, cell(value));
    const row: ApiKeyRow = { id, extra };
    if (unread.length > 0) row.unread = unread.map(([field]) => field);
    if (name !== undefined) row.name = name;
    if (maskedKey !== undefined) row.maskedKey = maskedKey;
    if (createdAt !== undefined) row.createdAt = createdAt;
    if (enabled !== undefined) row.enabled = enabled;
    return row;
  });
  return { keys, extraColumns };
}
