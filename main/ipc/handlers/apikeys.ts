import type { ApiKeyRecord } from '../../../common/omni';
import { toCsv } from '../../validation/csv';
import type { ApiKeyRow, CellValue } from '../../../common/ipc/apikeys';
import type { DomainHandlers } from '../router';

/** Field names that could carry a full key or another secret: never passed to the renderer. */
const SECRET_FIELD = /^(key|api[-_]?key|apikeyvalue|secret|token|value|full[-_]?key|plain[-_]?key|raw[-_]?key)$/i;
const MASK_CHARS = /[*•…]/;

/** A key value that arrives unmasked is masked here: the UI must never show a full key (decisions.md §8). */
export function ensureMasked(value: string): string {
  if (MASK_CHARS.test(value)) return value;
  return value.length <= 8 ? '••••' : `${value.slice(0, 4)}••••${value.slice(-4)}`;
}

function cell(value: unknown): CellValue {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value === undefined) return null;
  return JSON.stringify(value);
}

export function toApiKeyRows(records: ApiKeyRecord[]): { keys: ApiKeyRow[]; extraColumns: string[] } {
  const extraColumns: string[] = [];
  const seen = new Set<string>();
  const keys = records.map((record) => {
    const { id, name, maskedKey, createdAt, enabled, ...rest } = record;
    const extra: Record<string, CellValue> = {};
    for (const [field, value] of Object.entries(rest)) {
      if (SECRET_FIELD.test(field)) continue;
      extra[field] = cell(value);
      if (!seen.has(field)) {
        seen.add(field);
        extraColumns.push(field);
      }
    }
    const row: ApiKeyRow = { id, extra };
    if (name !== undefined) row.name = name;
    if (maskedKey !== undefined) row.maskedKey = ensureMasked(maskedKey);
    if (createdAt !== undefined) row.createdAt = createdAt;
    if (enabled !== undefined) row.enabled = enabled;
    return row;
  });
  return { keys, extraColumns };
}

export const apikeysHandlers: DomainHandlers<'apikeys'> = {
  list: async ({ organization }, ctx) => {
    const records = await ctx.omni().call('listApiKeys', { query: organization ? { apiKey: organization } : {} });
    return { ...toApiKeyRows(records), organizationRequested: organization !== undefined, fetchedAt: new Date().toISOString() };
  },
  exportCsv: async ({ columns, rows }, ctx) => {
    const csv = toCsv(columns, rows);
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
    const saved = await ctx.files.save({ suggestedName: `api-keys-${stamp}.csv`, data: new TextEncoder().encode(csv), mimeType: 'text/csv' });
    if (!saved) return { saved: false, rows: rows.length };
    await ctx.audit.append({ action: 'downloaded', detail: { what: 'apiKeysCsv', rows: rows.length } });
    return { saved: true, rows: rows.length, ...saved };
  },
};
