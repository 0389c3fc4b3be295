import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evidenceService } from '../main/evidence/service';
import { reviewService } from '../main/review/service';
import { startTestApp } from '../test/helpers/app-context';
import type { Targets } from './targets';

/**
 * One interview's evidence file against today's review report (issue 36), on the app's own main-process code with its
 * embedded record and demo service (which stamps and seals in this same process).
 *
 * - `evidence-file-vs-report-ms-ratio`: one interview's evidence file (demo-clean-pass: two contracts) ÷ today's
 *   review report (PDF) of the same interview alone, medians of 5 measured in the same run (target ≤ 2).
 * - `evidence-file-ms`, `evidence-report-ms`: the two medians (no target).
 */
export const targets: Targets = {
  'evidence-file-vs-report-ms-ratio': { atMost: 2 },
};

const RUNS = 5;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export default async function evidenceFileBench(): Promise<Record<string, number>> {
  const dir = await mkdtemp(join(tmpdir(), 'omni-evidence-file-bench-'));
  const app = await startTestApp(dir, { files: { save: async () => ({ savedTo: 'nowhere' }) } });
  try {
    const review = reviewService(app.context);
    const evidence = evidenceService(app.context);
    const ID = 'demo-clean-pass';
    await review.addDemoSeeds([ID]);
    await review.open(ID);
    // Alternating, so the machine's drift falls on both.
    const fileMs: number[] = [];
    const reportMs: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      let started = performance.now();
      await review.exportAudit(ID, 'pdf', 'en');
      const report = performance.now() - started;
      started = performance.now();
      await evidence.exportFile({ interviewId: ID, language: 'en', purpose: 'Bench' });
      const file = performance.now() - started;
      // The first of each warms the modules and connections up.
      if (i > 0) {
        reportMs.push(report);
        fileMs.push(file);
      }
    }
    return {
      'evidence-file-ms': Math.round(median(fileMs)),
      'evidence-report-ms': Math.round(median(reportMs)),
      'evidence-file-vs-report-ms-ratio': Math.round((median(fileMs) / median(reportMs)) * 1000) / 1000,
    };
  } finally {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
}
