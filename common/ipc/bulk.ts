import { z } from 'zod';
import { channel, type IpcErrorData } from './define';
import { InterviewId, QueueQuery } from './queue';
import { Login } from './team';

/**
 * Bulk actions on rows selected in the queue. Each is done interview by interview through the same code as the
 * single action (and, on a team database, the same rules the database enforces), each audited on its interview;
 * what was refused comes back per row with the reason, and the rest is done.
 */

/** Rows per bulk call: the screen sends a large selection in parts so it can show progress between them. */
export const BULK_MAX = 5_000;

const Ids = z
  .array(InterviewId)
  .min(1, 'Select at least one interview')
  .max(BULK_MAX)
  .refine((ids) => new Set(ids).size === ids.length, 'An interview is listed twice');

/** One row that was not done, and why, in the words of the refusal (the database's, told in the analyst's). */
export interface BulkRefusal {
  interviewId: string;
  code: string;
  message: IpcErrorData['message'];
  advice?: IpcErrorData['advice'];
}

export interface BulkResult {
  done: string[];
  refused: BulkRefusal[];
  /**
   * Why the action stopped before the rest of the rows (a rate limit, the service or the record away): every row
   * after would meet it too. The rows in `done` and `refused` were handled; the others were not tried.
   */
  stoppedBy?: IpcErrorData;
}

export interface BulkExportResult extends BulkResult {
  saved: boolean;
  savedTo?: string;
  /** Web shell: a one-time URL the renderer follows to download the file. */
  downloadUrl?: string;
}

export const BulkLanguage = z.enum(['en', 'es']);

export const bulk = {
  /** The ids of every row of a view of the queue (its filters, search and order), for "select all in this view". */
  viewIds: channel<{ ids: string[]; more: boolean }>()(QueueQuery.extend({}).strict()),
  /** Lets go of each claim; a supervisor's lets go of anyone's. */
  release: channel<BulkResult>()(z.object({ ids: Ids }).strict()),
  /** Supervisors: hands each interview to another member. */
  handOver: channel<BulkResult>()(z.object({ ids: Ids, to: Login }).strict()),
  /** Takes each entry off the work list (its token, drafts and trail stay); undone with `restore`. */
  remove: channel<BulkResult>()(z.object({ ids: Ids }).strict()),
  /** Puts back entries removed in this run. */
  restore: channel<BulkResult>()(z.object({ ids: Ids }).strict()),
  /**
   * Reads each interview's ID-validation checks from the service and files the reading (who read what, when), so
   * the queue's risk column, filter and order have it without opening each one.
   */
  readRisk: channel<BulkResult>()(z.object({ ids: Ids }).strict()),
  /** The rows as a CSV file with headers in the screen's language, saved where the analyst chooses. */
  exportCsv: channel<BulkExportResult>()(z.object({ ids: Ids, language: BulkLanguage }).strict()),
};
