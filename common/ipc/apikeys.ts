import { z } from 'zod';
import type { ServiceAnswer } from '../views';
import { channel, says } from './define';

/** API keys audit: the organization's keys (masked) and a CSV export of the rows the user sees. */

export type CellValue = string | number | boolean | null;

export interface ApiKeyRow {
  id: string;
  name?: string;
  /** Always masked; main masks a value that arrives unmasked rather than ever showing a full key. */
  maskedKey?: string;
  createdAt?: string;
  enabled?: boolean;
  /** Fields the service returns beyond the known ones (decisions.md §8), flattened for display. */
  extra: Record<string, CellValue>;
  /** Names of `extra` fields the service sent in a shape the spec does not describe: shown raw, flagged. */
  unread?: string[];
}

export interface ApiKeyListView {
  keys: ApiKeyRow[];
  /** Names of the `extra` fields present in any row, in first-seen order. */
  extraColumns: string[];
  /** Records the service sent that could not be read as keys (in the raw view, not in the rows). */
  unreadRecords: number;
  /** Whether an organization reference was sent (honoured only for a super administrator). */
  organizationRequested: boolean;
  fetchedAt: string;
  /** The list as the service sent it (a page wrapper's counts aside), secret fields redacted. */
  answer: ServiceAnswer;
}

export interface SavedFileView {
  /** false when the user cancelled the save dialog. */
  saved: boolean;
  savedTo?: string;
  /** Web shell: a one-time URL the renderer follows to download the file. */
  downloadUrl?: string;
  rows: number;
}

const Cell = z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]);

export const apikeys = {
  list: channel<ApiKeyListView>()(z.object({ organization: z.string().trim().min(1).max(512).optional() }).strict()),
  /** Rows exactly as shown (filtered and sorted); main writes the CSV so cells are escaped one way. */
  exportCsv: channel<SavedFileView>()(
    z
      .object({
        columns: z.array(z.string().trim().min(1).max(200)).min(1).max(100),
        rows: z.array(z.array(Cell).max(100)).max(200_000),
      })
      .strict()
      .refine((v) => v.rows.every((r) => r.length === v.columns.length), {
        message: says('Every row needs one value per column', 'Cada fila necesita un valor por columna'),
        path: ['rows'],
      }),
  ),
};
