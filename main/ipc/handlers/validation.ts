import type { AddCurpResponse } from '../../../common/omni';
import { explainCurp, OmniError } from '../../omni/errors';
import { captureServices } from '../../capture/services';
import { BatchInputError, previewCsv, type BatchServices } from '../../validation/batch-jobs';
import type { MainContext } from '../../ports';
import type { CurpFailureView, CurpResultView, BatchJobView } from '../../../common/ipc/validation';
import type { DomainHandlers } from '../router';
import { OmniShellError } from '../shell-error';

function inputError(error: unknown): never {
  if (error instanceof BatchInputError) throw new OmniShellError('INVALID_CSV', error.text, { en: 'Fix the file and load it again.', es: 'Corrige el archivo y cárgalo de nuevo.' });
  throw error;
}

function jobOrFail(view: BatchJobView | undefined): BatchJobView {
  if (view) return view;
  throw batchNotFound();
}

function batchNotFound(): OmniShellError {
  return new OmniShellError(
    'BATCH_NOT_FOUND',
    { en: 'This batch is no longer known to the app (it was restarted or the batch is old).', es: 'La aplicación ya no tiene este lote (se reinició o el lote es antiguo).' },
    { en: 'Load the CSV file and start the batch again.', es: 'Carga el archivo CSV e inicia el lote de nuevo.' },
  );
}

function curpFailure(body: unknown): CurpFailureView | undefined {
  const e = explainCurp(body);
  if (!e) return undefined;
  return { code: e.code, ...(e.group ? { group: e.group } : {}), message: { en: e.en, es: e.es }, advice: { en: e.adviceEn, es: e.adviceEs }, retryable: e.retryable };
}

function batchServices(ctx: MainContext, interviewId: string | undefined): BatchServices {
  // Bound once: a batch keeps talking to the environment it was started in.
  const client = ctx.omni();
  return {
    validateRfc: (rfc, signal) => client.call('validateRfc', { body: { rfc } }, { signal }),
    addCurp: (curp, signal) => client.call('addCurp', { body: { curp } }, { signal, ...(interviewId ? { interviewId } : {}) }),
  };
}

export const validationHandlers: DomainHandlers<'validation'> = {
  validateRfc: async ({ rfc }, ctx) => {
    const response = await ctx.omni().call('validateRfc', { body: { rfc } });
    await ctx.audit.append({ action: 'validated', detail: { kind: 'rfc', validRFC: response.validRFC } });
    return { rfc: rfc.toUpperCase(), response, validatedAt: new Date().toISOString() };
  },

  addCurp: async ({ interviewId, curp }, ctx): Promise<CurpResultView> => {
    let response: AddCurpResponse;
    try {
      response = await ctx.omni().call('addCurp', { body: { curp } }, { interviewId });
    } catch (error) {
      // A CURP failure that travels as an error status still carries the documented body: show it as a result.
      if (error instanceof OmniError && error.data !== undefined && explainCurp(error.data)) response = error.data as AddCurpResponse;
      else throw error;
    }
    const failure = response.success ? undefined : curpFailure(response);
    const valid = response.success && response.renapo_valid !== false;
    await ctx.audit.append({ interviewId, action: 'validated', detail: { kind: 'curp', valid, ...(failure ? { code: failure.code } : {}) } });
    return { curp: curp.toUpperCase(), valid, response, ...(failure ? { failure } : {}), validatedAt: new Date().toISOString() };
  },

  batchPreview: async ({ csvText }) => {
    try {
      return previewCsv(csvText);
    } catch (error) {
      return inputError(error);
    }
  },

  batchStart: async ({ csvText, kind, column, hasHeader, interviewId, concurrency }, ctx) => {
    try {
      const view = captureServices(ctx).batches.start({ csvText, kind, column, hasHeader, concurrency }, batchServices(ctx, interviewId));
      await ctx.audit.append({ ...(interviewId ? { interviewId } : {}), action: 'validated', detail: { kind: `${kind}Batch`, rows: view.total } });
      return view;
    } catch (error) {
      return inputError(error);
    }
  },

  batchStatus: async ({ jobId, afterSeq }, ctx) => jobOrFail(captureServices(ctx).batches.status(jobId, afterSeq)),
  batchPause: async ({ jobId }, ctx) => jobOrFail(captureServices(ctx).batches.pause(jobId)),
  batchResume: async ({ jobId }, ctx) => jobOrFail(captureServices(ctx).batches.resume(jobId)),
  batchCancel: async ({ jobId }, ctx) => jobOrFail(await captureServices(ctx).batches.cancel(jobId)),

  batchExport: async ({ jobId, language }, ctx) => {
    const exported = captureServices(ctx).batches.exportCsv(jobId, language);
    if (!exported) throw batchNotFound();
    const { csv, rows } = exported;
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
    const saved = await ctx.files.save({ suggestedName: `validation-${stamp}.csv`, data: new TextEncoder().encode(csv), mimeType: 'text/csv' });
    if (!saved) return { saved: false, rows };
    await ctx.audit.append({ action: 'downloaded', detail: { what: 'validationCsv', rows } });
    return { saved: true, rows, ...saved };
  },
};
