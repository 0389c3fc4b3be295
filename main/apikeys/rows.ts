import { UNREAD_FIELDS, unreadFieldsOf, type ApiKeyRecord } from '../../common/omni';
import type { ApiKeyRow, CellValue } from '../../common/ipc/apikeys';

/** Field names that could carry a full key or another secret: never passed to the renderer. */
const SECRET_FIELD = /^(key|api[-_]?key|apikeyvalue|secret|token|value|full[-_]?key|plain[-_]?key|raw[-_]?key)$/i;
const MASK_CHARS = /[*•…]/;

/** A key value that arrives unmasked is masked here: the UI must never show a full key (decisions.md §8). */
export function ensureMasked(value: string): string {
  if (MASK_CHARS.test(value)) return value;
  return value.length <= 8 ? '••••' : `${value.slice(0, 4)}••••${value.slice(-4)}`;
}

function cell(value: unknown): CellValue {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value;
  if (value === undefined) return null;
  return JSON.stringify(value);
}

export function toApiKeyRows(records: ApiKeyRecord[]): { keys: ApiKeyRow[]; extraColumns: string[] } {
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
    for (const [field, value] of Object.entries(rest)) if (!SECRET_FIELD.test(field)) show(field, cell(value));
    // Fields the service sent in a shape the spec does not describe: shown raw in a column of their own, flagged.
    const unread = Object.entries(unreadFieldsOf(record)).filter(([field]) => !SECRET_FIELD.test(field));
    for (const [field, value] of unread) {
      const raw = cell(value);
      show(field, field === 'maskedKey' && raw !== null ? ensureMasked(String(raw)) : raw);
    }
    const row: ApiKeyRow = { id, extra };
    if (unread.length > 0) row.unread = unread.map(([field]) => field);
    if (name !== undefined) row.name = name;
    if (maskedKey !== undefined) row.maskedKey = ensureMasked(maskedKey);
    if (createdAt !== undefined) row.createdAt = createdAt;
    if (enabled !== undefined) row.enabled = enabled;
    return row;
  });
  return { keys, extraColumns };
}
