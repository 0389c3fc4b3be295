import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { RECORDING_TYPE_WORDS } from '../../../common/audit-words';
import { NOT_A_VIDEO, sniffVideo } from '../../../common/rules/video-check';
import type { FileStager, ImportJobView, RecordingType } from '../../../common/ipc/capture';
import type { IpcErrorData } from '../../../common/ipc/define';
import { ipcErrorOf } from '../../api/index';
import { omni } from '../../api/omni';
import { useBilingual, useT } from '../../i18n/index';
import {
  ErrorNotice,
  FileField,
  IconCheck,
  IconInfo,
  ProgressBar,
  SelectField,
  ServiceAnswerView,
  type TaskOutcome,
} from '../../ui/index';
import { messages } from './messages';
import { SendRow } from './parts';

declare global {
  interface Window {
    /** Installed by the preloads: hands a picked File to main without its bytes crossing IPC. */
    readonly omniFiles?: FileStager;
  }
}

const RECORDING_TYPES: RecordingType[] = ['selfie', 'frontId', 'backId', 'merged', 'authenticationattempt'];
const POLL_MS = 300;

type Phase =
  | { kind: 'idle' }
  | { kind: 'staging'; sent: number; total: number; startedAt: number }
  | { kind: 'importing'; job: ImportJobView }
  | { kind: 'finished'; job: ImportJobView }
  | { kind: 'failed'; error: IpcErrorData; job?: ImportJobView };

/** How the service-side import ended, for its bar; none while it runs. */
function importOutcome(phase: Phase): TaskOutcome | undefined {
  if (phase.kind === 'failed') return 'failed';
  if (phase.kind !== 'finished') return undefined;
  return phase.job.state === 'done' ? 'done' : phase.job.state === 'cancelled' ? 'cancelled' : 'failed';
}

/** Video import: the file is streamed to main (staging), then from main to the service as base64 in pieces. */
export function VideoTool({ interviewId, disabledReason }: { interviewId: string; disabledReason: string | null }) {
  const t = useT(messages);
  const pick = useBilingual();
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [type, setType] = useState<RecordingType>('selfie');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const stagingAbort = useRef<AbortController | null>(null);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
      stagingAbort.current?.abort();
    },
    [],
  );

  const onFile = async (picked: File | undefined) => {
    setFile(null);
    setFileProblem(null);
    if (!picked) return;
    const head = new Uint8Array(await picked.slice(0, 12).arrayBuffer());
    if (!sniffVideo(head)) return setFileProblem(pick(NOT_A_VIDEO));
    setFile(picked);
  };

  const poll = async (jobId: string) => {
    while (mounted.current) {
      const job = await omni().capture.importVideoStatus({ jobId });
      if (!mounted.current) return;
      if (job.state === 'uploading' || job.state === 'processing') {
        setPhase({ kind: 'importing', job });
        await new Promise((r) => setTimeout(r, POLL_MS));
        continue;
      }
      setPhase(
        job.state === 'failed' && job.error ? { kind: 'failed', error: job.error, job } : { kind: 'finished', job },
      );
      return;
    }
  };

  const start = async (e: FormEvent) => {
    e.preventDefault();
    if (!file || disabledReason) return;
    const stager = window.omniFiles;
    if (!stager) return setPhase({ kind: 'failed', error: ipcErrorOf(null) });
    const controller = new AbortController();
    stagingAbort.current = controller;
    const startedAt = Date.now();
    setPhase({ kind: 'staging', sent: 0, total: file.size, startedAt });
    try {
      const staged = await stager.stage(file, {
        signal: controller.signal,
        onProgress: (sent, total) => mounted.current && setPhase({ kind: 'staging', sent, total, startedAt }),
      });
      stagingAbort.current = null;
      // Left the screen while the file was being copied: nothing will import it, so main may delete the copy.
      if (!mounted.current)
        return void omni()
          .capture.releaseStagedFile({ stagedFileId: staged.stagedFileId })
          .catch(() => undefined);
      const job = await omni().capture.importVideoStart({ interviewId, stagedFileId: staged.stagedFileId, type });
      setPhase({ kind: 'importing', job });
      await poll(job.jobId);
    } catch (error) {
      if (!mounted.current) return;
      if (controller.signal.aborted) setPhase({ kind: 'idle' });
      else
        setPhase((current) => ({
          kind: 'failed',
          error: ipcErrorOf(error),
          ...(current.kind === 'importing' ? { job: current.job } : {}),
        }));
    }
  };

  const cancel = async () => {
    if (phase.kind === 'staging') {
      stagingAbort.current?.abort();
      return;
    }
    if (phase.kind === 'importing') {
      try {
        const job = await omni().capture.importVideoCancel({ jobId: phase.job.jobId });
        setPhase({ kind: 'finished', job });
      } catch (error) {
        setPhase({ kind: 'failed', error: ipcErrorOf(error), job: phase.job });
      }
    }
  };

  const busy = phase.kind === 'staging' || phase.kind === 'importing';
  // One bar for the service-side import, kept after it ends so it shows the outcome and notifies from the background.
  const importJob =
    phase.kind === 'importing' || phase.kind === 'finished' || phase.kind === 'failed' ? phase.job : undefined;
  const outcome = importOutcome(phase);
  return (
    <>
      <form onSubmit={(e) => void start(e)} className="capture-form">
        <FileField
          label={t('videoFile')}
          accept="video/webm,video/mp4,video/quicktime,.webm,.mp4,.mov"
          disabled={busy}
          hint={t('videoHint')}
          error={fileProblem}
          onFile={(file) => void onFile(file)}
        />
        <SelectField
          id={`${id}-type`}
          label={t('recordingType')}
          value={type}
          disabled={busy}
          onChange={(e) => setType(e.target.value as RecordingType)}
        >
          {RECORDING_TYPES.map((r) => (
            // In words first; the service's code after it, for back-office users who know the codes.
            <option key={r} value={r}>
              {/* The code only where it says something the word does not ("Selfie (selfie)" said it twice). */}
              {pick(RECORDING_TYPE_WORDS[r]).replace(/\s/g, '').toLowerCase() === r.toLowerCase()
                ? pick(RECORDING_TYPE_WORDS[r])
                : t('recordingTypeOption', { type: pick(RECORDING_TYPE_WORDS[r]), code: r })}
            </option>
          ))}
        </SelectField>
        <SendRow label={t('importVideo')} ready={!!file && !busy} disabledReason={disabledReason} />
      </form>
      <div data-testid="video-status">
        {phase.kind === 'idle' && <p className="panel-empty">{t('videoNothing')}</p>}
        {phase.kind === 'staging' && (
          <>
            <p role="status">{t('staging')}</p>
            <ProgressBar
              label={t('staging')}
              done={phase.sent}
              total={phase.total}
              startedAt={phase.startedAt}
              onCancel={() => void cancel()}
            />
          </>
        )}
        {phase.kind === 'importing' && (
          <p role="status">{phase.job.state === 'processing' ? t('processing') : t('uploading')}</p>
        )}
        {importJob && (
          <ProgressBar
            key={importJob.jobId}
            label={t('uploading')}
            task={t('taskImport', { id: importJob.interviewId })}
            done={importJob.bytesDone}
            total={importJob.totalBytes}
            startedAt={Date.parse(importJob.startedAt)}
            {...(importJob.finishedAt ? { now: Date.parse(importJob.finishedAt) } : {})}
            {...(outcome ? { outcome } : {})}
            onCancel={() => void cancel()}
          />
        )}
        {phase.kind === 'finished' && phase.job.state === 'done' && (
          <p className="notice notice-ok" role="status" data-testid="import-done">
            <IconCheck /> {t('importDone')} <code>{phase.job.recordingId}</code>
          </p>
        )}
        {phase.kind === 'finished' && phase.job.answer && <ServiceAnswerView answer={phase.job.answer} />}
        {phase.kind === 'finished' && phase.job.state === 'cancelled' && (
          <p className="notice" role="status" data-testid="import-cancelled">
            <IconInfo /> {t('importCancelled')}
          </p>
        )}
        {phase.kind === 'failed' && <ErrorNotice error={phase.error} />}
      </div>
    </>
  );
}
