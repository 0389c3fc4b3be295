import type { MainContext } from '../ports';
import { BatchJobs } from './batch-jobs';

/**
 * The batches of one shell, running and finished, kept by validation itself (they were kept with the capture's
 * state, which made capture and validation import each other). Keyed by the shell's context so the Electron app,
 * the web shell and each test get their own.
 */
const byContext = new WeakMap<MainContext, BatchJobs>();

export function validationBatches(ctx: MainContext): BatchJobs {
  let batches = byContext.get(ctx);
  if (!batches) {
    batches = new BatchJobs();
    byContext.set(ctx, batches);
  }
  return batches;
}
