import { UNREAD_FIELDS, unreadFieldsOf, type ApiKeyRecord } from '../../common/omni';
import type { ApiKeyRow, CellValue } from '../../common/ipc/apikeys';
import { ensureMasked, isSecretField } from '../omni/answer';

const isSecret = (field: string) => isSecretField('listApiKeys', field);

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
    for (const [field, value] of Object.entries(rest)) if (!isSecret(field)) show(field, cell(value));
    // Fields the service sent in a shape the spec does not describe: shown raw in a column of their own, flagged.
    const unread = Object.entries(unreadFieldsOf(record)).filter(([field]) => !isSecret(field));
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
