import { randomBytes, randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, link, lstat, mkdir, open, unlink, type FileHandle } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { EvidenceBatchView, EvidenceLanguage } from '../../common/ipc/evidence';
import { InterviewId } from '../../common/ipc/queue';
import type { AuditEntry } from '../../common/views';
import type { MainContext } from '../ports';
import { ReviewError } from '../errors';
import { errorData } from '../review/errors';
import { trailCheckpoints } from '../trail/checkpoints';
import { toCsvField } from '../validation/csv';
import {
  buildEvidenceFile,
  exporterName,
  recordExport,
  recordManifest,
  recordNotWritten,
  StatementCache,
} from './file';

/**
 * The files of every interview decided in a period, one at a time into a folder with an index (index.csv, one row
 * per interview, written as each file is), with progress, pause and resume. Constant memory: the period is read a
 * page at a time (`decidedBetween`, by key), each file is written and let go before the next, and the index is
 * appended to on disk. Each page's exports are recorded as audit entries, then one checkpoint covers them all.
 *
 * The folder may be on a place others can write to (a shared drive): it is made new, under a name no one can guess,
 * for this user alone; every file in it is created, never opened as found (a file or link planted there is refused);
 * and before each file the folder must still be the one made (not moved, removed or swapped for a link, as during a
 * pause). Each file is written under a temporary name, its manifest recorded, then it takes its name; an export entry
 * whose file does not take its name is followed on the trail by one saying it was not written (`recordNotWritten`).
 */

const NOT_AN_INTERVIEW_ID = 'The interview id is not one the app takes (letters, digits and . _ : - only).';

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

/** A row of index.csv: the app's CSV cells, a formula-like one (an interview id `=HYPERLINK(…)`) neutralised. */
const csvRow = (cells: string[]) => `${cells.map(toCsvField).join(',')}\n`;

type FolderIdentity = { dev: bigint; ino: bigint; uid: bigint };

const fsCode = (err: unknown) => String((err as NodeJS.ErrnoException | undefined)?.code ?? 'unknown');

/** The batch's folder, new: a non-recursive mkdir fails on a folder that exists, whoever made it. */
async function makeFolder(folder: string): Promise<FolderIdentity> {
  try {
    await mkdir(dirname(folder), { recursive: true, mode: 0o700 });
    await mkdir(folder, { mode: 0o700 });
  } catch (err) {
    throw folderNotMade(fsCode(err));
  }
  const made = await lstat(folder, { bigint: true });
  return { dev: made.dev, ino: made.ino, uid: made.uid };
}

/**
 * The folder is still the directory made at the start (same device and inode, same owner), not a link: else the batch
 * stops. The owner is compared with the one it had when made, not this process's (a share may map every file to one).
 */
async function sameFolder(folder: string, made: FolderIdentity): Promise<void> {
  const now = await lstat(folder, { bigint: true }).catch(() => undefined);
  if (!now || !now.isDirectory() || now.dev !== made.dev || now.ino !== made.ino || now.uid !== made.uid)
    throw folderChanged();
}

/** A file made new (`wx`: a file or link already there is refused, never followed or replaced), this user's only. */
async function writeNew(path: string, data: Uint8Array): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'wx', 0o600);
  } catch (err) {
    throw fileNotWritten(fsCode(err));
  }
  try {
    await handle.writeFile(data);
  } catch (err) {
    await unlink(path).catch(() => undefined);
    throw fileNotWritten(fsCode(err));
  } finally {
    await handle.close();
  }
}

/** The written file takes its name, never replacing one: a hard link, else (no links there) a copy that must be new. */
async function place(temp: string, final: string): Promise<void> {
  try {
    await link(temp, final);
  } catch (err) {
    const code = fsCode(err);
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV'].includes(code)) throw fileNotWritten(code);
    await copyFile(temp, final, constants.COPYFILE_EXCL).catch(async (e: unknown) => {
      // A copy cut short is removed; a file found under the name (EEXIST) is not this batch's to remove.
      if (fsCode(e) !== 'EEXIST') await unlink(final).catch(() => undefined);
      throw fileNotWritten(fsCode(e));
    });
  }
  await unlink(temp).catch(() => undefined);
}

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
    const folder = job.view.folder;
    let index: FileHandle | undefined;
    // Export entries recorded whose file has not taken its name, nor been said not written: said so if the batch stops.
    const pending = new Map<number, AuditEntry>();
    let stopped: unknown;
    try {
      // Counted first, a page at a time, so the bar knows its end without the period in memory.
      for (let after: { at: string; interviewId: string } | undefined; ;) {
        const page = await ctx.record.decisions.decidedBetween(env, period.start, period.end, 500, after);
        job.view.total += page.length;
        if (page.length < 500) break;
        after = page.at(-1);
      }
      const made = await makeFolder(folder);
      try {
        index = await open(join(folder, 'index.csv'), 'wx', 0o600);
      } catch (err) {
        throw folderNotMade(fsCode(err));
      }
      await index.appendFile(csvRow(['interviewId', 'decidedAt', 'file', 'manifestSha256', 'outcome', 'problem']));
      const by = await exporterName(ctx);
      for (let after: { at: string; interviewId: string } | undefined; ;) {
        const read = await ctx.record.decisions.decidedBetween(env, period.start, period.end, BATCH_PAGE, after);
        if (read.length === 0) break;
        after = read.at(-1);
        if (!(await waitWhilePaused(job))) return;
        // An id of no shape the app takes (a team database's row from before migration 0014, written with psql) is
        // listed as not exported: the trail takes no entry on it either.
        const page = read.filter((row) => InterviewId.safeParse(row.interviewId).success);
        for (const row of read.filter((r) => !page.includes(r))) {
          job.view.failed++;
          job.view.done++;
          await index.appendFile(csvRow([row.interviewId, row.at, '', '', 'failed', NOT_AN_INTERVIEW_ID]));
        }
        const request = (interviewId: string) => ({ interviewId, language: job.language, purpose: job.purpose });
        const recorded = [];
        for (const row of page) {
          const entry = await recordExport(ctx, request(row.interviewId), by, { from: job.view.from, to: job.view.to });
          recorded.push(entry);
          pending.set(entry.seq, entry);
        }
        const covered = trailCheckpoints(ctx).take();
        await covered;
        for (const [i, row] of page.entries()) {
          if (!(await waitWhilePaused(job))) return;
          job.view.current = row.interviewId;
          const entry = recorded[i]!;
          let built: Awaited<ReturnType<typeof buildEvidenceFile>> | undefined;
          let problem: unknown;
          try {
            built = await buildEvidenceFile(
              ctx,
              request(row.interviewId),
              { by, at: entry.at },
              entry,
              covered,
              statements,
            );
          } catch (err) {
            problem = err;
          }
          if (built) {
            // Not written through a folder moved, removed or swapped (a pause is long enough): the batch stops.
            await sameFolder(folder, made);
            const temp = join(folder, `.${built.fileName}.part`);
            let tempWritten = false;
            try {
              await writeNew(temp, built.data);
              tempWritten = true;
              await recordManifest(ctx, entry, built.manifestSha256);
              await place(temp, join(folder, built.fileName));
            } catch (err) {
              if (tempWritten) await unlink(temp).catch(() => undefined);
              problem = err;
            }
          }
          if (problem === undefined && built) {
            pending.delete(entry.seq);
            await index.appendFile(
              csvRow([row.interviewId, row.at, built.fileName, built.manifestSha256, 'written', '']),
            );
          } else {
            job.view.failed++;
            const message = errorData(problem).message.en;
            await recordNotWritten(ctx, entry, { error: message });
            pending.delete(entry.seq);
            await index.appendFile(csvRow([row.interviewId, row.at, '', '', 'failed', message]));
          }
          job.view.done++;
        }
      }
      job.view.state = 'done';
    } catch (err) {
      stopped = err;
      const data = errorData(err);
      job.view.state = 'failed';
      job.view.error = { message: data.message, ...(data.advice ? { advice: data.advice } : {}) };
    } finally {
      delete job.view.current;
      // A batch cancelled or stopped in the middle of a page: its unwritten exports are said so on the trail.
      for (const entry of pending.values())
        await recordNotWritten(
          ctx,
          entry,
          stopped === undefined ? 'cancelled' : { error: errorData(stopped).message.en },
        ).catch(() => undefined);
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
      // A random end: another user of a shared place cannot make the folder (or links in it) ahead of the batch.
      const unguessable = randomBytes(6).toString('hex');
      const job: Job = {
        view: {
          jobId,
          state: 'running',
          from: input.from,
          to: input.to,
          folder: join(evidenceFolder(), `evidence-${input.from}-to-${input.to}-${stamp}-${unguessable}`),
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

function folderNotMade(code: string): ReviewError {
  return new ReviewError(
    'EVIDENCE_BATCH_FOLDER',
    {
      en: `The batch’s folder could not be made new (${code}), so nothing was written.`,
      es: `No se pudo crear la carpeta nueva del lote (${code}), así que no se escribió nada.`,
    },
    {
      en: 'Check that you can write in the evidence folder (OMNI_REVIEWER_EVIDENCE_DIR, else “Omni Reviewer evidence” in your home folder), then start the batch again.',
      es: 'Revisa que puedas escribir en la carpeta de evidencia (OMNI_REVIEWER_EVIDENCE_DIR, si no “Omni Reviewer evidence” en tu carpeta personal) e inicia el lote de nuevo.',
    },
  );
}

function folderChanged(): ReviewError {
  return new ReviewError(
    'EVIDENCE_BATCH_FOLDER_CHANGED',
    {
      en: 'The batch’s folder was moved, removed or replaced while the batch ran, so it stopped: no file was written anywhere else.',
      es: 'La carpeta del lote se movió, se eliminó o se reemplazó mientras corría el lote, así que se detuvo: no se escribió ningún archivo en otro lugar.',
    },
    {
      en: 'Find out who changed it; its index.csv lists the files written before. Start a new batch for what is missing.',
      es: 'Averigua quién la cambió; su index.csv lista los archivos escritos antes. Inicia un lote nuevo para lo que falte.',
    },
  );
}

function fileNotWritten(code: string): ReviewError {
  return new ReviewError(
    'EVIDENCE_FILE_NOT_WRITTEN',
    {
      en: `The file could not be written in the batch’s folder (${code}).`,
      es: `No se pudo escribir el archivo en la carpeta del lote (${code}).`,
    },
    {
      en: 'Check the space and permissions of the folder; start a new batch for what is missing.',
      es: 'Revisa el espacio y los permisos de la carpeta; inicia un lote nuevo para lo que falte.',
    },
  );
}
