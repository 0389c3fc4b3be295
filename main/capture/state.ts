import type { MainContext } from '../ports';
import { toIpcErrorData } from '../errors';
import { BatchJobs } from '../validation/batch-jobs';
import { ImportJobs } from './import-jobs';
import { StagedFiles } from './staging';

/**
 * Long-lived capture and validation state of one shell: staged files, running video imports and batches.
 * Keyed by the shell's context so the Electron app, the web shell and each test get their own.
 */
export interface CaptureState {
  staged: StagedFiles;
  imports: ImportJobs;
  batches: BatchJobs;
}

const byContext = new WeakMap<MainContext, CaptureState>();

export function captureState(ctx: MainContext): CaptureState {
  let services = byContext.get(ctx);
  if (!services) {
    services = {
      staged: new StagedFiles(),
      imports: new ImportJobs((error) => toIpcErrorData(error, 'capture.importVideo')),
      batches: new BatchJobs(),
    };
    byContext.set(ctx, services);
  }
  return services;
}
