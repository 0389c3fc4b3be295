import { randomUUID } from 'node:crypto';
import { mkdir, open, writeFile, type FileHandle } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { EvidenceBatchView, EvidenceLanguage } from '../../common/ipc/evidence';
import type { MainContext } from '../ports';
import { ReviewError } from '../errors';
import { errorData } from '../review/errors';
import { trailCheckpoints } from '../trail/checkpoints';
import { buildEvidenceFile, exporterName, recordExport, recordManifest, StatementCache } from './file';

/**
 * The files of every interview decided in a period, one at a time into a folder with an index (index.csv, one row
 * per interview, written as each file is), with progress, pause and resume. Constant memory: the period is read a
 * page at a time (`decidedBetween`, by key), each file is written and let go before the next, and the index is
 * appended to on disk. Each page's exports are recorded as audit entries, then one checkpoint covers them all.
 */

/** Interviews read, recorded and covered by one checkpoint at a time. */
export const BATCH_PAGE = 25;
const FINISHED_KEPT = 5;

/** Where batches write: `OMNI_REVIEWER_EVIDENCE_DIR`, else "Omni Reviewer evidence" in the user's home folder. */
export function evidenceFolder(): string {
  return process.env.OMNI_REVIEWER_EVIDENCE_DIR || join(homedir(), 'Omni Reviewer evidence');
}

interface Job {
  view: EvidenceBatchView;
  language: EvidenceLanguage;
  purpose: string;
  pause: boolean;
  cancel: boolean;
  wake?: () => void;
}

const csvCell = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const csvRow = (cells: string[]) => `${cells.map(csvCell).join(',')}\n`;

/** The day's start (`from`) and the next day's start after `to`, in UTC: a period includes both days whole. */
function periodOf(from: string, to: string): { start: string; end: string } {
  const start = new Date(`${from}T00:00:00.000Z`);
  const end = new Date(`${to}T00:00:00.000Z`);
  end.setUTCDate(end.getUTCDate() + 1);
  if (!(end > start))
    throw new ReviewError(
      'EVIDENCE_PERIOD',
      { en: 'The period ends before it starts.', es: 'El periodo termina antes de empezar.' },
      {
        en: 'Choose a "to" day on or after the "from" day.',
        es: 'Elige un día "hasta" igual o posterior al día "desde".',
      },
    );
  return { start: start.toISOString(), end: end.toISOString() };
}

const byContext = new WeakMap<MainContext, ReturnType<typeof makeBatches>>();

export function evidenceBatches(ctx: MainContext) {
  let batches = byContext.get(ctx);
  if (!batches) byContext.set(ctx, (batches = makeBatches(ctx)));
  return batches;
}

function makeBatches(ctx: MainContext) {
  const jobs = new Map<string, Job>();

  const require = (jobId: string): Job => {
    const job = jobs.get(jobId);
    if (!job)
      throw new ReviewError(
        'EVIDENCE_BATCH_GONE',
        { en: 'That batch is no longer known to the app.', es: 'La aplicación ya no conoce ese lote.' },
        {
          en: 'Its files and index stay in its folder; start a new batch for what is missing.',
          es: 'Sus archivos e índice siguen en su carpeta; inicia un lote nuevo para lo que falte.',
        },
      );
    return job;
  };
  const snapshot = (job: Job): EvidenceBatchView => ({ ...job.view });

  async function run(job: Job, period: { start: string; end: string }) {
    const env = ctx.environments.active().id;
    const statements = new StatementCache();
    let index: FileHandle | undefined;
    try {
      // Counted first, a page at a time, so the bar knows its end without the period in memory.
      for (let after: { at: string; interviewId: string } | undefined; ;) {
        const page = await ctx.record.decisions.decidedBetween(env, period.start, period.end, 500, after);
        job.view.total += page.length;
        if (page.length < 500) break;
        after = page.at(-1);
      }
      await mkdir(job.view.folder, { recursive: true, mode: 0o700 });
      index = await open(join(job.view.folder, 'index.csv'), 'w', 0o600);
      await index.appendFile(csvRow(['interviewId', 'decidedAt', 'file', 'manifestSha256', 'outcome', 'problem']));
      const by = await exporterName(ctx);
      for (let after: { at: string; interviewId: string } | undefined; ;) {
        const page = await ctx.record.decisions.decidedBetween(env, period.start, period.end, BATCH_PAGE, after);
        if (page.length === 0) break;
        after = page.at(-1);
        if (!(await waitWhilePaused(job))) return;
        const request = (interviewId: string) => ({ interviewId, language: job.language, purpose: job.purpose });
        const recorded = [];
        for (const row of page)
          recorded.push(
            await recordExport(ctx, request(row.interviewId), by, { from: job.view.from, to: job.view.to }),
          );
        const covered = trailCheckpoints(ctx).take();
        await covered;
        for (const [i, row] of page.entries()) {
          if (!(await waitWhilePaused(job))) return;
          job.view.current = row.interviewId;
          const entry = recorded[i]!;
          try {
            const built = await buildEvidenceFile(
              ctx,
              request(row.interviewId),
              { by, at: entry.at },
              entry,
              covered,
              statements,
            );
            await recordManifest(ctx, entry, built.manifestSha256);
            await writeFile(join(job.view.folder, built.fileName), built.data, { mode: 0o600 });
            await index.appendFile(
              csvRow([row.interviewId, row.at, built.fileName, built.manifestSha256, 'written', '']),
            );
          } catch (err) {
            job.view.failed++;
            const problem = errorData(err).message.en;
            await index.appendFile(csvRow([row.interviewId, row.at, '', '', 'failed', problem]));
          }
          job.view.done++;
        }
      }
      job.view.state = 'done';
    } catch (err) {
      const data = errorData(err);
      job.view.state = 'failed';
      job.view.error = { message: data.message, ...(data.advice ? { advice: data.advice } : {}) };
    } finally {
      delete job.view.current;
      await index?.close();
      forgetOld();
    }
  }

  /** Holds the batch between two files while it is paused; false once it is cancelled. */
  async function waitWhilePaused(job: Job): Promise<boolean> {
    while (job.pause && !job.cancel) {
      job.view.state = 'paused';
      await new Promise<void>((resolve) => (job.wake = resolve));
    }
    if (job.cancel) {
      job.view.state = 'cancelled';
      return false;
    }
    job.view.state = 'running';
    return true;
  }

  function forgetOld() {
    const finished = [...jobs.values()].filter((j) => ['done', 'cancelled', 'failed'].includes(j.view.state));
    for (const j of finished.slice(0, Math.max(0, finished.length - FINISHED_KEPT))) jobs.delete(j.view.jobId);
  }

  return {
    start(input: { from: string; to: string; language: EvidenceLanguage; purpose: string }): EvidenceBatchView {
      const period = periodOf(input.from, input.to);
      const jobId = randomUUID();
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
      const job: Job = {
        view: {
          jobId,
          state: 'running',
          from: input.from,
          to: input.to,
          folder: join(evidenceFolder(), `evidence-${input.from}-to-${input.to}-${stamp}`),
          done: 0,
          total: 0,
          failed: 0,
        },
        language: input.language,
        purpose: input.purpose,
        pause: false,
        cancel: false,
      };
      jobs.set(jobId, job);
      void run(job, period);
      return snapshot(job);
    },
    status: (jobId: string) => snapshot(require(jobId)),
    pause(jobId: string) {
      const job = require(jobId);
      if (job.view.state === 'running') {
        job.pause = true;
        job.view.state = 'pausing';
      }
      return snapshot(job);
    },
    resume(jobId: string) {
      const job = require(jobId);
      if (job.view.state === 'paused' || job.view.state === 'pausing') {
        job.pause = false;
        job.view.state = 'running';
        job.wake?.();
      }
      return snapshot(job);
    },
    cancel(jobId: string) {
      const job = require(jobId);
      if (!['done', 'cancelled', 'failed'].includes(job.view.state)) {
        job.cancel = true;
        job.wake?.();
        if (job.view.state === 'paused') job.view.state = 'cancelled';
      }
      return snapshot(job);
    },
  };
}
