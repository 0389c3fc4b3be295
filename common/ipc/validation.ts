import { z } from 'zod';
import type { AddCurpResponse, ValidateRfcResponse } from '../omni/validation';
import type { SavedFileView } from './apikeys';
import type { ServiceAnswer } from '../views';
import { channel, says } from './define';
import { InterviewId } from './queue';

/** RFC and CURP validation, one at a time or a CSV column in a batch. */

export type Bilingual = { en: string; es: string };
export type CurpGroup = 1 | 2 | 3;

export interface RfcResultView {
  rfc: string;
  /** Every field the service returned, known or not, redacted and shortened as `answer.body` is (the same value). */
  response: ValidateRfcResponse;
  answer: ServiceAnswer;
  validatedAt: string;
}

/** A CURP failure from the catalog: what happened, the group's advice, and whether retrying can help. */
export interface CurpFailureView {
  code: string;
  group?: CurpGroup;
  message: Bilingual;
  advice: Bilingual;
  retryable: boolean;
}

export interface CurpResultView {
  curp: string;
  valid: boolean;
  /** Redacted and shortened as `answer.body` is (the same value). */
  response: AddCurpResponse;
  answer: ServiceAnswer;
  failure?: CurpFailureView;
  validatedAt: string;
}

export type BatchKind = 'rfc' | 'curp';

export interface CsvColumnView {
  index: number;
  header: string;
  /** First few values, for the user to recognise the column. */
  sample: string[];
  /** Share of sampled values that pass the local RFC / CURP check. */
  rfcShare: number;
  curpShare: number;
}

export interface BatchPreviewView {
  hasHeader: boolean;
  rows: number;
  columns: CsvColumnView[];
  /** Best guess of the column and kind to validate. */
  suggested?: { column: number; kind: BatchKind };
}

export type BatchRowStatus = 'valid' | 'invalid' | 'error';

export interface BatchRowView {
  /** Completion order; the renderer asks for rows after the last one it has. */
  seq: number;
  /** Line of the CSV file the value came from (1-based, header included). */
  line: number;
  value: string;
  status: BatchRowStatus;
  /** `local`: refused by the format check, never sent. */
  source: 'local' | 'service';
  code?: string;
  group?: CurpGroup;
  message: Bilingual;
  advice?: Bilingual;
  /** What the local check noticed but left to the service (an RFC check digit that does not match). */
  warning?: Bilingual;
  attempts: number;
  /** What the service answered for a row that needs attention (kept for those only: a batch may be 100,000 rows). */
  answer?: ServiceAnswer;
}

export type BatchState = 'running' | 'pausing' | 'paused' | 'cancelled' | 'done';

export interface BatchJobView {
  jobId: string;
  kind: BatchKind;
  state: BatchState;
  total: number;
  done: number;
  counts: Record<BatchRowStatus, number>;
  retries: number;
  rowsPerSecond: number;
  secondsLeft: number | null;
  startedAt: string;
  finishedAt?: string;
  /** Rows finished after `afterSeq` of the request, in completion order. */
  rows: BatchRowView[];
  lastSeq: number;
  /** Set when the batch stopped itself (e.g. a daily or monthly provider limit that every further row would hit). */
  stoppedBecause?: Bilingual;
}

const MAX_CSV_CHARS = 20_000_000;
const JobId = z.uuid();

export const validation = {
  validateRfc: channel<RfcResultView>()(z.object({ rfc: z.string().trim().min(1).max(20) }).strict()),
  /** Sent with the interview's session token (add CURP writes the CURP to that interview). */
  addCurp: channel<CurpResultView>()(
    z.object({ interviewId: InterviewId, curp: z.string().trim().min(1).max(30) }).strict(),
  ),
  batchPreview: channel<BatchPreviewView>()(z.object({ csvText: z.string().min(1).max(MAX_CSV_CHARS) }).strict()),
  batchStart: channel<BatchJobView>()(
    z
      .object({
        csvText: z.string().min(1).max(MAX_CSV_CHARS),
        kind: z.enum(['rfc', 'curp']),
        column: z.number().int().min(0).max(1000),
        hasHeader: z.boolean(),
        interviewId: InterviewId.optional(),
        concurrency: z.number().int().min(1).max(8).default(4),
      })
      .strict()
      .refine((v) => v.kind === 'rfc' || v.interviewId !== undefined, {
        message: says('CURP validation needs an interview', 'La validación de CURP necesita una entrevista'),
        path: ['interviewId'],
      }),
  ),
  batchStatus: channel<BatchJobView>()(
    z.object({ jobId: JobId, afterSeq: z.number().int().min(0).default(0) }).strict(),
  ),
  batchPause: channel<BatchJobView>()(z.object({ jobId: JobId }).strict()),
  batchResume: channel<BatchJobView>()(z.object({ jobId: JobId }).strict()),
  batchCancel: channel<BatchJobView>()(z.object({ jobId: JobId }).strict()),
  batchExport: channel<SavedFileView>()(z.object({ jobId: JobId, language: z.enum(['en', 'es']) }).strict()),
};
