import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evidenceService } from '../main/evidence/service';
import { trailCheckpoints } from '../main/trail/checkpoints';
import { startTestApp } from '../test/helpers/app-context';
import type { Targets } from './targets';

/**
 * The regulator's file (issue 36), on the app's own main-process code with its embedded record and demo service.
 *
 * - `evidence-batch-1000-extra-rss-mb`: a batch writing the evidence files of 1,000 interviews decided in a period
 *   (each with entries in a trail checkpointed every 1,000 entries, as a running app does): this process's peak RSS
 *   during the batch minus its RSS just before it (MB). Constant memory means this stays flat whatever the count
 *   (target ≤ 64). The 1,000 interviews are not known to the demo service, so their files hold the service's refusal
 *   in place of checks and contracts; the record's reads, statements, stamps, reports and archives are all made.
 * - `evidence-batch-first-250-extra-rss-mb`: the same, over the batch's first 250 files only (no target): beside the
 *   whole batch's, whether memory grows with the count or levels off.
 * - `evidence-batch-1000-retained-heap-mb`: the JavaScript heap still in use after a full collection at the batch's
 *   end, minus the same just before it (no target): what the batch keeps, as opposed to garbage not yet collected.
 * - `evidence-batch-1000-ms`: that batch's time, beside it (no target).
 *
 * One file against today's report is `evidence-file.bench.ts`, apart so that it runs alone in a minute.
 */
export const targets: Targets = {
  'evidence-batch-1000-extra-rss-mb': { atMost: 64 },
};

const COUNT = 1_000;
const SMALL = 250;

/** A full collection, for the retained-memory figure only (the app never forces one). */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** One batch for a period: its peak RSS over the RSS just before it (MB), and its time. */
async function batch(evidence: ReturnType<typeof evidenceService>, from: string, to: string, count: number) {
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  let peakFirst = baseline;
  const started = performance.now();
  const job = evidence.batches.start({ from, to, language: 'en', purpose: 'Bench' });
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
    if (evidence.batches.status(job.jobId).done < SMALL) peakFirst = peak;
  }, 25);
  let view = job;
  while (!['done', 'failed', 'cancelled'].includes(view.state)) {
    await new Promise((r) => setTimeout(r, 100));
    view = evidence.batches.status(job.jobId);
  }
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  if (view.state !== 'done' || view.done !== count || view.failed !== 0)
    throw new Error(`the batch ended ${view.state} with ${view.done} done, ${view.failed} failed`);
  const written = (await readdir(view.folder)).filter((f) => f.endsWith('.zip')).length;
  if (written !== count) throw new Error(`the batch wrote ${written} files, not ${count}`);
  gc();
  const retained = process.memoryUsage().heapUsed - heapBefore;
  const mb = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 10) / 10;
  return { extraMb: mb(peak - baseline), first250Mb: mb(peakFirst - baseline), retainedMb: mb(retained), ms };
}

export default async function evidenceBench(): Promise<Record<string, number>> {
  const dir = await mkdtemp(join(tmpdir(), 'omni-evidence-bench-'));
  const out = join(dir, 'out');
  process.env.OMNI_REVIEWER_EVIDENCE_DIR = out;
  const app = await startTestApp(dir, { files: { save: async () => ({ savedTo: 'nowhere' }) } });
  try {
    const ctx = app.context;
    const evidence = evidenceService(ctx);
    const checkpoints = trailCheckpoints(ctx);

    // 1,000 decided interviews, two entries each, a checkpoint every 1,000 entries.
    const env = ctx.environments.active().id;
    for (let i = 0; i < COUNT; i++) {
      const interviewId = `bench-${String(i).padStart(4, '0')}`;
      await ctx.audit.append({ interviewId, action: 'opened', detail: {} });
      await ctx.record.decisions.add(interviewId, {
        decision: 'approve',
        reason: `Reason ${i}`,
        acknowledgedFindings: [],
        decidedAt: new Date(Date.UTC(2026, 9, 1 + (i % 28), 12)).toISOString(),
        environment: env,
        status: 'final',
      });
      await ctx.audit.append({
        interviewId,
        action: 'decided',
        detail: { decision: 'approve', reason: `Reason ${i}`, acknowledgedFindings: [] },
      });
      if (((i + 1) * 2) % 1_000 === 0) await checkpoints.take();
    }

    const large = await batch(evidence, '2026-10-01', '2026-10-31', COUNT);

    return {
      'evidence-batch-1000-extra-rss-mb': large.extraMb,
      'evidence-batch-first-250-extra-rss-mb': large.first250Mb,
      'evidence-batch-1000-retained-heap-mb': large.retainedMb,
      'evidence-batch-1000-ms': Math.round(large.ms),
    };
  } finally {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
}
