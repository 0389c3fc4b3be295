import { captureService } from '../../capture/service';
import type { DomainHandlers } from '../router';

export const captureHandlers: DomainHandlers<'capture'> = {
  addFace: async (input, ctx) => captureService(ctx).addFace(input),
  addBackSecondId: async (input, ctx) => captureService(ctx).addBackSecondId(input),
  authenticateFace: async (input, ctx) => captureService(ctx).authenticateFace(input),
  releaseStagedFile: async ({ stagedFileId }, ctx) => captureService(ctx).releaseStagedFile(stagedFileId),
  importVideoStart: async (input, ctx) => captureService(ctx).importVideoStart(input),
  importVideoStatus: async ({ jobId }, ctx) => captureService(ctx).importVideoStatus(jobId),
  importVideoCancel: async ({ jobId }, ctx) => captureService(ctx).importVideoCancel(jobId),
};
