import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { RecordingType } from '../../common/omni';
import type { IpcErrorData } from '../../common/ipc/define';
import type { ServiceAnswer } from '../../common/views';
import { RateMeter } from '../validation/rate';
import { base64JsonBody, type Base64JsonBody } from './base64-json-body';
import { Base64Encoder } from './base64-simd';
import { READ_CHUNK_BYTES, claimFile, fileChunks } from './file-chunks';
import { ReviewError } from '../errors';

/** The job as the renderer sees it: one definition, in the IPC contract. */
export type { ImportJobView as ImportSnapshot, ImportState } from '../../common/ipc/capture';
import type { ImportJobView as ImportSnapshot } from '../../common/ipc/capture';

/** Sends the prepared body; resolves with the new recording id. The handler implements it over OmniClient. */
export type UploadBody = (
  body: Base64JsonBody,
  ctx: { interviewId: string; signal: AbortSignal },
) => Promise<{ recordingId: string; answer?: ServiceAnswer }>;

interface Job {
  snapshot: ImportSnapshot;
  controller: AbortController;
  meter: RateMeter;
  settled: Promise<void>;
}

const FINISHED_JOBS_KEPT = 20;

/** Video imports running in main; the renderer polls `status` and may `cancel`. */
export class ImportJobs {
  private readonly jobs = new Map<string, Job>();

  constructor(private readonly describeError: (err: unknown) => IpcErrorData) {}

  async start(
    req: { interviewId: string; filePath: string; fileName: string; type?: RecordingType },
    upload: UploadBody,
  ): Promise<ImportSnapshot> {
    // Claimed before any await, so two calls at once cannot both pass.
    const unclaim = claimFile(req.filePath);
    if (!unclaim) throw importInProgress();
    let size: number;
    try {
      ({ size } = await stat(req.filePath));
    } catch (error) {
      unclaim();
      throw fileProblem(error) ?? error;
    }
    const controller = new AbortController();
    const meter = new RateMeter();
    const snapshot: ImportSnapshot = {
      jobId: randomUUID(),
      interviewId: req.interviewId,
      fileName: req.fileName,
      type: req.type,
      state: 'uploading',
      bytesDone: 0,
      totalBytes: size,
      bytesPerSecond: 0,
      secondsLeft: null,
      startedAt: new Date().toISOString(),
    };
    // The file is read straight into the encoder's memory: no copy between reading and encoding.
    // Eight output slots: the writer holds at most a few chunks at once (it waits for each drain).
    let encoder: Base64Encoder;
    try {
      encoder = new Base64Encoder(READ_CHUNK_BYTES, 8);
    } catch (error) {
      unclaim();
      throw error;
    }
    const chunks = fileChunks(req.filePath, {
      buffers: encoder.inputBuffers(),
      signal: controller.signal,
      onBytes: (read) => {
        snapshot.bytesDone = read;
        meter.record(read);
        if (read === size) snapshot.state = 'processing';
      },
    });
    const built = base64JsonBody(chunks, {
      field: 'video',
      sourceBytes: size,
      extra: req.type ? { type: req.type } : undefined,
      encoder,
      chunkBytes: READ_CHUNK_BYTES,
    });
    // A read error (file cut, grown, gone) reaches the upload as a failed request body, which the client reports as
    // "service unreachable": keep it, so the job reports the file problem instead.
    let readError: unknown;
    const body: Base64JsonBody = {
      contentLength: built.contentLength,
      stream: (async function* () {
        try {
          yield* built.stream;
        } catch (error) {
          readError = error;
          throw error;
        }
      })(),
    };
    meter.record(0);
    const settled = upload(body, { interviewId: req.interviewId, signal: controller.signal })
      .then(
        (res) => {
          snapshot.state = 'done';
          snapshot.recordingId = res.recordingId;
          if (res.answer) snapshot.answer = res.answer;
        },
        (err: unknown) => {
          if (controller.signal.aborted) {
            snapshot.state = 'cancelled';
          } else {
            snapshot.state = 'failed';
            snapshot.error = this.describeError((readError !== undefined && fileProblem(readError)) || err);
          }
        },
      )
      .finally(() => {
        unclaim();
        snapshot.finishedAt = new Date().toISOString();
        this.prune();
      });
    this.jobs.set(snapshot.jobId, { snapshot, controller, meter, settled });
    return this.status(snapshot.jobId)!;
  }

  status(jobId: string): ImportSnapshot | undefined {
    const job = this.jobs.get(jobId);
    if (!job) return undefined;
    const s = job.snapshot;
    const rate = s.state === 'uploading' ? job.meter.snapshot(s.totalBytes) : { perSecond: 0, secondsLeft: null };
    return { ...s, bytesPerSecond: rate.perSecond, secondsLeft: rate.secondsLeft, error: s.error && { ...s.error } };
  }

  /** Stops reading and aborts the request; resolves once the job has settled. */
  async cancel(jobId: string): Promise<ImportSnapshot | undefined> {
    const job = this.jobs.get(jobId);
    if (!job) return undefined;
    if (job.snapshot.state === 'uploading' || job.snapshot.state === 'processing') job.controller.abort();
    await job.settled;
    return this.status(jobId);
  }

  /** Waits for a job to finish (tests, notifications). */
  async settled(jobId: string): Promise<ImportSnapshot | undefined> {
    await this.jobs.get(jobId)?.settled;
    return this.status(jobId);
  }

  private prune(): void {
    const finished = [...this.jobs.values()].filter((j) => j.snapshot.finishedAt);
    for (const job of finished.slice(0, Math.max(0, finished.length - FINISHED_JOBS_KEPT)))
      this.jobs.delete(job.snapshot.jobId);
  }
}

function importInProgress(): ReviewError {
  return new ReviewError(
    'IMPORT_IN_PROGRESS',
    {
      en: 'This file is already being imported.',
      es: 'Este archivo ya se está importando.',
    },
    {
      en: 'Wait for that import to end; to import it again, choose the file again afterwards.',
      es: 'Espera a que termine esa importación; para importarlo otra vez, vuelve a elegir el archivo después.',
    },
    { retryable: false },
  );
}

/** The file's own problem as the analyst should see it, or undefined when the error is not about the file. */
function fileProblem(error: unknown): ReviewError | undefined {
  if (!(error instanceof Error) || error.name === 'AbortError') return undefined;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT')
    return new ReviewError(
      'VIDEO_FILE_GONE',
      {
        en: 'The video file is no longer there: it was moved or deleted.',
        es: 'El archivo de video ya no está: se movió o se borró.',
      },
      {
        en: 'Choose the finished recording again and import it.',
        es: 'Vuelve a elegir la grabación terminada e impórtala.',
      },
      { retryable: false },
    );
  if (error.message.startsWith('The file changed while it was being read'))
    return new ReviewError(
      'VIDEO_FILE_CHANGED',
      {
        en: 'The video file changed while it was being read (it may still be recording or syncing), so it was not sent whole.',
        es: 'El archivo de video cambió mientras se leía (quizá aún se graba o se sincroniza), así que no se envió completo.',
      },
      {
        en: 'Choose the finished recording again and import it.',
        es: 'Vuelve a elegir la grabación terminada e impórtala.',
      },
      { retryable: false },
    );
  if (code !== undefined)
    return new ReviewError(
      'VIDEO_FILE_UNREADABLE',
      { en: 'The video file could not be read.', es: 'No se pudo leer el archivo de video.' },
      {
        en: 'Check that it still exists and that you can read it, then choose it again.',
        es: 'Verifica que aún exista y que puedas leerlo, y elígelo de nuevo.',
      },
      { retryable: false },
    );
  return undefined;
}
