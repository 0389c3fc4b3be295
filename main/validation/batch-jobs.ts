import { randomUUID } from 'node:crypto';
import type { AddCurpResponse, ValidateRfcResponse } from '../../common/omni';
import { CsvError, ReviewError } from '../errors';
import { OmniError } from '../omni/omni-error';
import { serviceAnswer } from '../omni/answer';
import { explainCurp } from '../omni/catalog';
import type {
  BatchJobView,
  BatchKind,
  BatchPreviewView,
  BatchRowStatus,
  BatchRowView,
  Bilingual,
  CsvColumnView,
} from '../../common/ipc/validation';
import { BatchRunner, type RetryDecision, type Settled } from './batch-runner';
import { MAX_CSV_COLUMNS, parseCsv, toCsv } from './csv';
import { describeCurp, describeRfc } from '../../common/rules/local-check';

/** The service calls a batch makes; the IPC handler binds them to the active OmniClient. */
export interface BatchServices {
  validateRfc(rfc: string, signal: AbortSignal): Promise<ValidateRfcResponse>;
  addCurp(curp: string, signal: AbortSignal): Promise<AddCurpResponse>;
}

export const MAX_BATCH_ROWS = 100_000;
const SAMPLE_ROWS = 50;
const FINISHED_JOBS_KEPT = 10;

/** Provider limits that every further row would hit too: the batch pauses itself instead of burning through them. */
const STOPPING_CODES = new Set(['02-daily', '02-monthly']);

/** A CSV file a batch cannot use: the text says what is wrong with it, the advice is the same for all. */
const invalidCsv = (text: Bilingual) =>
  new ReviewError('INVALID_CSV', text, {
    en: 'Fix the file and load it again.',
    es: 'Corrige el archivo y cárgalo de nuevo.',
  });

/** A header row and one row past the limit: enough to refuse a longer file without reading the rest of it. */
const ROWS_READ = MAX_BATCH_ROWS + 2;

function readCsv(csvText: string): string[][] {
  try {
    return parseCsv(csvText, ROWS_READ - 1);
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const line = err.line;
    if (err.reason === 'tooManyColumns')
      throw invalidCsv({
        en: `The CSV file could not be read: line ${line} has more than ${MAX_CSV_COLUMNS} columns. Keep the column to validate and load it again.`,
        es: `No se pudo leer el archivo CSV: la línea ${line} tiene más de ${MAX_CSV_COLUMNS} columnas. Deja la columna por validar y cárgalo de nuevo.`,
      });
    throw invalidCsv({
      en: `The CSV file could not be read: a quoted field opened before line ${line} is never closed. Fix the file and load it again.`,
      es: `No se pudo leer el archivo CSV: un campo entre comillas abierto antes de la línea ${line} nunca se cierra. Corrige el archivo y cárgalo de nuevo.`,
    });
  }
}

/**
 * The same words from the preview as from the start, so the file is refused before a column is chosen. The parse
 * stopped one row past the limit, so the file's own count is not known: "more than" the limit.
 */
function refuseTooManyRows(rows: number): void {
  if (rows > MAX_BATCH_ROWS)
    throw invalidCsv({
      en: `The file has more than ${MAX_BATCH_ROWS} rows; a batch takes at most ${MAX_BATCH_ROWS}. Split the file and run it in parts.`,
      es: `El archivo tiene más de ${MAX_BATCH_ROWS} filas; un lote admite como máximo ${MAX_BATCH_ROWS}. Divide el archivo y ejecútalo por partes.`,
    });
}

const share = (values: string[], ok: (v: string) => boolean) =>
  values.length === 0 ? 0 : values.filter(ok).length / values.length;

/** Columns of a CSV, whether its first row is a header, and which column looks like RFCs or CURPs. */
export function previewCsv(csvText: string): BatchPreviewView {
  const rows = readCsv(csvText);
  if (rows.length === 0) throw invalidCsv({ en: 'The CSV file has no rows.', es: 'El archivo CSV no tiene filas.' });
  // A loop, not Math.max(...rows): a spread of 200,000 rows overflows the stack.
  let width = 0;
  for (const r of rows) width = Math.max(width, r.length);
  const looksLikeId = (v: string) => describeRfc(v).valid || describeCurp(v).valid;
  const hasHeader =
    !(rows[0] ?? []).some((cell) => looksLikeId(cell)) &&
    rows.length > 1 &&
    rows.slice(1, SAMPLE_ROWS + 1).some((r) => r.some(looksLikeId));
  const body = rows.slice(hasHeader ? 1 : 0);
  refuseTooManyRows(body.length);
  const columns: CsvColumnView[] = Array.from({ length: width }, (_, index) => {
    const values = body
      .slice(0, SAMPLE_ROWS)
      .map((r) => (r[index] ?? '').trim())
      .filter(Boolean);
    return {
      index,
      header: hasHeader ? (rows[0]?.[index] ?? '').trim() : '',
      sample: values.slice(0, 3),
      rfcShare: share(values, (v) => describeRfc(v).valid),
      curpShare: share(values, (v) => describeCurp(v).valid),
    };
  });
  let suggested: BatchPreviewView['suggested'];
  for (const c of columns) {
    const best =
      c.curpShare >= c.rfcShare
        ? { kind: 'curp' as const, score: c.curpShare }
        : { kind: 'rfc' as const, score: c.rfcShare };
    const current = suggested ? Math.max(columns[suggested.column]!.rfcShare, columns[suggested.column]!.curpShare) : 0;
    if (best.score > current) suggested = { column: c.index, kind: best.kind };
  }
  return { hasHeader, rows: body.length, columns, ...(suggested ? { suggested } : {}) };
}

interface RowInput {
  line: number;
  value: string;
}

type RowOutcome = Omit<BatchRowView, 'seq' | 'line' | 'value' | 'attempts'>;

/** What the service's answer means for one row. */
function rfcOutcome(response: ValidateRfcResponse): RowOutcome {
  const detail = [response.message, response.errorMessage]
    .filter((t): t is string => typeof t === 'string' && t.trim() !== '')
    .join(' · ');
  if (response.validRFC) {
    const type = response.rfcType ? ` (${response.rfcType})` : '';
    return {
      status: 'valid',
      source: 'service',
      message: { en: `SAT lists this RFC${type}.`, es: `El SAT tiene registrado este RFC${type}.` },
    };
  }
  return {
    status: 'invalid',
    source: 'service',
    ...(response.messageCode ? { code: response.messageCode } : {}),
    message: {
      en: `SAT does not list this RFC${detail ? `: ${detail}` : '.'}`,
      es: `El SAT no tiene registrado este RFC${detail ? `: ${detail}` : '.'}`,
    },
    advice: {
      en: 'Check the RFC with the person or their tax certificate.',
      es: 'Verifica el RFC con la persona o con su constancia de situación fiscal.',
    },
  };
}

function curpOutcome(response: AddCurpResponse): RowOutcome {
  if (response.success && response.renapo_valid !== false) {
    return {
      status: 'valid',
      source: 'service',
      message: { en: 'RENAPO confirms this CURP.', es: 'RENAPO confirma este CURP.' },
    };
  }
  const e = explainCurp(response);
  if (!e) {
    return {
      status: 'error',
      source: 'service',
      message: {
        en: 'The service refused the CURP without a known reason.',
        es: 'El servicio rechazó el CURP sin un motivo conocido.',
      },
      advice: {
        en: 'Try again later; if it repeats, contact support.',
        es: 'Intenta más tarde; si se repite, contacta a soporte.',
      },
    };
  }
  // Group 1 and provider 03 mean the input is wrong; everything else is a failure to validate.
  const inputProblem = e.group === 1 || e.code === '03';
  return {
    status: inputProblem ? 'invalid' : 'error',
    source: 'service',
    code: e.code,
    ...(e.group ? { group: e.group } : {}),
    message: { en: e.en, es: e.es },
    advice: { en: e.adviceEn, es: e.adviceEs },
  };
}

function curpBodyOf(error: unknown): AddCurpResponse | undefined {
  return error instanceof OmniError && error.data !== undefined && explainCurp(error.data)
    ? (error.data as AddCurpResponse)
    : undefined;
}

function errorOutcome(error: unknown): RowOutcome {
  if (error instanceof OmniError) {
    const data = error.toIpcError();
    // A CURP failure may arrive as an error response; its body says what happened.
    const body = curpBodyOf(error);
    if (body) return curpOutcome(body);
    // The service refusing the format (400) is a verdict on the value, not a failure to validate it.
    return {
      status: error.httpStatus === 400 ? 'invalid' : 'error',
      source: 'service',
      code: data.serviceCode ?? data.code,
      message: data.message,
      ...(data.advice ? { advice: data.advice } : {}),
    };
  }
  return {
    status: 'error',
    source: 'service',
    code: 'INTERNAL',
    message: {
      en: 'The row could not be validated because of an unexpected error.',
      es: 'La fila no se pudo validar por un error inesperado.',
    },
  };
}

export function classifyOutcome(
  kind: BatchKind,
  outcome: Settled<ValidateRfcResponse | AddCurpResponse | null>,
): RetryDecision {
  if (!outcome.ok) {
    const error = outcome.error;
    if (error instanceof OmniError) {
      if (error.kind === 'aborted') return { retry: false };
      return error.retryAfterMs !== undefined
        ? { retry: error.retryable, retryAfterMs: error.retryAfterMs }
        : { retry: error.retryable };
    }
    return { retry: false };
  }
  if (kind === 'curp' && outcome.value) return { retry: explainCurp(outcome.value)?.retryable ?? false };
  return { retry: false };
}

interface Job {
  view: Omit<BatchJobView, 'rows' | 'lastSeq' | 'done' | 'retries' | 'rowsPerSecond' | 'secondsLeft' | 'state'>;
  runner: BatchRunner<RowInput, ValidateRfcResponse | AddCurpResponse | null>;
  rows: BatchRowView[];
}

/** Batch jobs running in main; the renderer polls `status` with the last row sequence it has. */
export class BatchJobs {
  private readonly jobs = new Map<string, Job>();

  start(
    req: { csvText: string; kind: BatchKind; column: number; hasHeader: boolean; concurrency: number },
    services: BatchServices,
  ): BatchJobView {
    const body = readCsv(req.csvText).slice(req.hasHeader ? 1 : 0);
    if (body.length === 0)
      throw invalidCsv({
        en: 'The CSV file has no rows to validate.',
        es: 'El archivo CSV no tiene filas para validar.',
      });
    refuseTooManyRows(body.length);
    const startLine = req.hasHeader ? 2 : 1;
    const inputs: RowInput[] = body.map((r, i) => ({ line: startLine + i, value: (r[req.column] ?? '').trim() }));
    const jobId = randomUUID();
    const rows: BatchRowView[] = [];
    const counts: Record<BatchRowStatus, number> = { valid: 0, invalid: 0, error: 0 };
    const view: Job['view'] = {
      jobId,
      kind: req.kind,
      total: inputs.length,
      counts,
      startedAt: new Date().toISOString(),
    };
    const record = (input: RowInput, outcome: RowOutcome, attempts: number) => {
      counts[outcome.status]++;
      rows.push({ seq: rows.length + 1, line: input.line, value: input.value, attempts, ...outcome });
    };
    const describe = req.kind === 'rfc' ? describeRfc : describeCurp;

    const runner: Job['runner'] = new BatchRunner({
      items: inputs,
      concurrency: req.concurrency,
      // Values that fail the local check never reach the service: the answer is already known. The rest go as
      // the check read them (without the spaces, hyphens and dots people write), a check-digit warning included.
      work: async (input, signal) => {
        const local = describe(input.value);
        if (!local.valid) return null;
        return req.kind === 'rfc' ? services.validateRfc(local.value, signal) : services.addCurp(local.value, signal);
      },
      classify: (outcome) => classifyOutcome(req.kind, outcome),
      onSettled: (index, outcome, attempts) => {
        const input = inputs[index]!;
        if (outcome.ok && outcome.value === null) {
          const local = describe(input.value);
          if (!local.valid)
            record(
              input,
              {
                status: 'invalid',
                source: 'local',
                code: `LOCAL_${local.reason.toUpperCase()}`,
                message: local.message,
              },
              0,
            );
          return;
        }
        const result = outcome.ok
          ? req.kind === 'rfc'
            ? rfcOutcome(outcome.value as ValidateRfcResponse)
            : curpOutcome(outcome.value as AddCurpResponse)
          : errorOutcome(outcome.error);
        // A verdict's answer; an error's body only where it is the endpoint's answer (a CURP refused in its body).
        const answered = outcome.ok ? outcome.value : curpBodyOf(outcome.error);
        if (result.status !== 'valid' && answered !== undefined && answered !== null)
          result.answer = serviceAnswer(req.kind === 'rfc' ? 'validateRfc' : 'addCurp', answered);
        const local = describe(input.value);
        if (local.valid && local.warning) result.warning = local.warning.message;
        record(input, result, attempts);
        if (result.code && STOPPING_CODES.has(result.code) && !view.stoppedBecause) {
          view.stoppedBecause = result.message;
          runner.pause();
        }
      },
    });
    runner.finished.then(() => {
      view.finishedAt = new Date().toISOString();
      this.prune();
    });
    this.jobs.set(jobId, { view, runner, rows });
    runner.start();
    return this.status(jobId, 0)!;
  }

  status(jobId: string, afterSeq: number): BatchJobView | undefined {
    const job = this.jobs.get(jobId);
    if (!job) return undefined;
    const p = job.runner.progress();
    return {
      ...job.view,
      counts: { ...job.view.counts },
      state: p.state,
      done: p.done,
      retries: p.retries,
      rowsPerSecond: p.rowsPerSecond,
      secondsLeft: p.secondsLeft,
      rows: job.rows.slice(afterSeq),
      lastSeq: job.rows.length,
    };
  }

  pause(jobId: string): BatchJobView | undefined {
    this.jobs.get(jobId)?.runner.pause();
    return this.status(jobId, Number.MAX_SAFE_INTEGER);
  }

  resume(jobId: string): BatchJobView | undefined {
    const job = this.jobs.get(jobId);
    if (job) {
      delete job.view.stoppedBecause;
      job.runner.resume();
    }
    return this.status(jobId, Number.MAX_SAFE_INTEGER);
  }

  async cancel(jobId: string): Promise<BatchJobView | undefined> {
    const job = this.jobs.get(jobId);
    if (!job) return undefined;
    job.runner.cancel();
    await job.runner.finished;
    return this.status(jobId, Number.MAX_SAFE_INTEGER);
  }

  /** Waits for the batch to finish (tests, notifications). */
  async finished(jobId: string): Promise<BatchJobView | undefined> {
    await this.jobs.get(jobId)?.runner.finished;
    return this.status(jobId, 0);
  }

  /** Results in file order, texts in the user's language; rows not reached (cancelled) are listed as such. */
  exportCsv(jobId: string, language: 'en' | 'es'): { csv: string; rows: number } | undefined {
    const job = this.jobs.get(jobId);
    if (!job) return undefined;
    const sorted = [...job.rows].sort((a, b) => a.line - b.line);
    const es = language === 'es';
    const header = es
      ? [
          'línea',
          job.view.kind === 'rfc' ? 'rfc' : 'curp',
          'resultado',
          'origen',
          'código',
          'grupo',
          'detalle',
          'qué hacer',
          'intentos',
        ]
      : ['line', job.view.kind, 'result', 'source', 'code', 'group', 'detail', 'next step', 'attempts'];
    const statusText: Record<BatchRowStatus, string> = es
      ? { valid: 'válido', invalid: 'inválido', error: 'no validado' }
      : { valid: 'valid', invalid: 'invalid', error: 'not validated' };
    const sourceText = (s: BatchRowView['source']) =>
      s === 'local' ? (es ? 'revisión local' : 'local check') : es ? 'servicio' : 'service';
    const csv = toCsv(
      header,
      sorted.map((r) => [
        r.line,
        r.value,
        statusText[r.status],
        sourceText(r.source),
        r.code ?? '',
        r.group ?? '',
        r.warning ? `${r.message[language]} ${r.warning[language]}` : r.message[language],
        r.advice?.[language] ?? '',
        r.attempts,
      ]),
    );
    return { csv, rows: sorted.length };
  }

  private prune(): void {
    const finished = [...this.jobs.values()].filter((j) => j.view.finishedAt);
    for (const job of finished.slice(0, Math.max(0, finished.length - FINISHED_JOBS_KEPT)))
      this.jobs.delete(job.view.jobId);
  }
}
