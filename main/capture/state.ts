import type { MainContext } from '../ports';
import { toIpcErrorData } from '../errors';
import { ImportJobs } from './import-jobs';
import { StagedFiles } from './staging';

/**
 * Long-lived capture state of one shell: staged files and running video imports (validation keeps its batches in
 * main/validation/state.ts).
 * Keyed by the shell's context so the Electron app, the web shell and each test get their own.
 */
export interface CaptureState {
  staged: StagedFiles;
  imports: ImportJobs;
}

const byContext = new WeakMap<MainContext, CaptureState>();

export function captureState(ctx: MainContext): CaptureState {
  let services = byContext.get(ctx);
  if (!services) {
    services = {
      staged: new StagedFiles(),
      imports: new ImportJobs((error) => toIpcErrorData(error, 'capture.importVideo')),
    };
    byContext.set(ctx, services);
  }
  return services;
}
