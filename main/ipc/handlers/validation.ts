import { validationService } from '../../validation/service';
import type { DomainHandlers } from '../router';

export const validationHandlers: DomainHandlers<'validation'> = {
  validateRfc: async ({ rfc }, ctx) => validationService(ctx).validateRfc(rfc),
  addCurp: async ({ interviewId, curp }, ctx) => validationService(ctx).addCurp(interviewId, curp),
  batchPreview: async ({ csvText }, ctx) => validationService(ctx).batchPreview(csvText),
  batchStart: async (input, ctx) => validationService(ctx).batchStart(input),
  batchStatus: async ({ jobId, afterSeq }, ctx) => validationService(ctx).status(jobId, afterSeq),
  batchPause: async ({ jobId }, ctx) => validationService(ctx).pause(jobId),
  batchResume: async ({ jobId }, ctx) => validationService(ctx).resume(jobId),
  batchCancel: async ({ jobId }, ctx) => validationService(ctx).cancel(jobId),
  batchExport: async ({ jobId, language }, ctx) => validationService(ctx).batchExport(jobId, language),
};
