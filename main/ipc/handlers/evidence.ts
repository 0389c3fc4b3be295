import { evidenceService } from '../../evidence/service';
import type { DomainHandlers } from '../router';

export const evidenceHandlers: DomainHandlers<'evidence'> = {
  exportFile: async (input, ctx) => evidenceService(ctx).exportFile(input),
  verifyFile: async (input, ctx) => evidenceService(ctx).verifyFile(input),
  batchStart: async (input, ctx) => evidenceService(ctx).batches.start(input),
  batchStatus: async ({ jobId }, ctx) => evidenceService(ctx).batches.status(jobId),
  batchPause: async ({ jobId }, ctx) => evidenceService(ctx).batches.pause(jobId),
  batchResume: async ({ jobId }, ctx) => evidenceService(ctx).batches.resume(jobId),
  batchCancel: async ({ jobId }, ctx) => evidenceService(ctx).batches.cancel(jobId),
};
