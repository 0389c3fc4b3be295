import type { AddCurpResponse, ValidateRfcResponse } from '../../common/omni';
import { redact } from '../log';
import { normalizeCurp } from '../../common/rules/curp';
import { normalizeRfc } from '../../common/rules/rfc';
import { ReviewError } from '../errors';
import { OmniError } from '../omni/omni-error';
import { serviceAnswer } from '../omni/answer';
import { explainCurp } from '../omni/catalog';
import { previewCsv, type BatchServices } from './batch-jobs';
import { saveCsvExport } from '../export-csv';
import type { MainContext } from '../ports';
import { validationBatches } from './state';
import type { ParsedInputOf } from '../../common/ipc/define';
import type { BatchJobView, CurpFailureView, CurpResultView, validation } from '../../common/ipc/validation';

type BatchStartInput = ParsedInputOf<(typeof validation)['batchStart']>;

function jobOrFail(view: BatchJobView | undefined): BatchJobView {
  if (view) return view;
  throw batchNotFound();
}

function batchNotFound(): ReviewError {
  return new ReviewError(
    'BATCH_NOT_FOUND',
    {
      en: 'This batch is no longer known to the app (it was restarted or the batch is old).',
      es: 'La aplicación ya no tiene este lote (se reinició o el lote es antiguo).',
    },
    { en: 'Load the CSV file and start the batch again.', es: 'Carga el archivo CSV e inicia el lote de nuevo.' },
  );
}

function curpFailure(body: unknown): CurpFailureView | undefined {
  const e = explainCurp(body);
  if (!e) return undefined;
  return {
    code: e.code,
    ...(e.group ? { group: e.group } : {}),
    message: { en: e.en, es: e.es },
    advice: { en: e.adviceEn, es: e.adviceEs },
    retryable: e.retryable,
  };
}

function batchServices(ctx: MainContext, interviewId: string | undefined): BatchServices {
  // Bound once: a batch keeps talking to the environment it was started in.
  const client = ctx.omni();
  return {
    validateRfc: (rfc, signal) => client.call('validateRfc', { body: { rfc } }, { signal }),
    addCurp: (curp, signal) =>
      client.call('addCurp', { body: { curp } }, { signal, ...(interviewId ? { interviewId } : {}) }),
  };
}

/** RFC and CURP validation, one at a time or in batches from a CSV, each recorded in the audit trail. */
export function validationService(ctx: MainContext) {
  const batches = () => validationBatches(ctx);
  return {
    async validateRfc(typed: string) {
      // Sent as SAT writes it: people type RFCs with spaces, hyphens and dots.
      const rfc = normalizeRfc(typed);
      const response = await ctx.omni().call('validateRfc', { body: { rfc } });
      await ctx.audit.append({ action: 'validated', detail: { kind: 'rfc', validRFC: response.validRFC } });
      // The screen lists every field of `response`: the redacted answer, never the answer as read.
      const answer = serviceAnswer('validateRfc', response);
      return {
        rfc,
        response: answer.body as ValidateRfcResponse,
        answer,
        validatedAt: new Date().toISOString(),
      };
    },

    async addCurp(interviewId: string, typed: string): Promise<CurpResultView> {
      const curp = normalizeCurp(typed);
      let response: AddCurpResponse;
      try {
        response = await ctx.omni().call('addCurp', { body: { curp } }, { interviewId });
      } catch (error) {
        // A CURP failure that travels as an error status still carries the documented body: show it as a result.
        if (error instanceof OmniError && error.data !== undefined && explainCurp(error.data))
          response = error.data as AddCurpResponse;
        else throw error;
      }
      const failure = response.success ? undefined : curpFailure(response);
      // A success that carries an error is no confirmation (red team 23): its words are shown, not a green badge.
      const valid = response.success && response.renapo_valid !== false && response.error == null;
      await ctx.audit.append({
        interviewId,
        action: 'validated',
        detail: { kind: 'curp', valid, ...(failure ? { code: failure.code } : {}) },
      });
      const answer = serviceAnswer('addCurp', response);
      return redact({
        curp,
        valid,
        response: answer.body as AddCurpResponse,
        answer,
        ...(failure ? { failure } : {}),
        validatedAt: new Date().toISOString(),
      });
    },

    batchPreview: (csvText: string) => previewCsv(csvText),

    async batchStart(input: BatchStartInput) {
      const { csvText, kind, column, hasHeader, interviewId, concurrency } = input;
      const view = batches().start({ csvText, kind, column, hasHeader, concurrency }, batchServices(ctx, interviewId));
      await ctx.audit.append({
        ...(interviewId ? { interviewId } : {}),
        action: 'validated',
        detail: { kind: `${kind}Batch`, rows: view.total },
      });
      return view;
    },

    status: (jobId: string, afterSeq: number) => jobOrFail(batches().status(jobId, afterSeq)),
    pause: (jobId: string) => jobOrFail(batches().pause(jobId)),
    resume: (jobId: string) => jobOrFail(batches().resume(jobId)),
    cancel: async (jobId: string) => jobOrFail(await batches().cancel(jobId)),

    async batchExport(jobId: string, language: 'en' | 'es') {
      const exported = batches().exportCsv(jobId, language);
      if (!exported) throw batchNotFound();
      return saveCsvExport(ctx, {
        namePrefix: 'validation',
        csv: exported.csv,
        rows: exported.rows,
        what: 'validationCsv',
      });
    },
  };
}
