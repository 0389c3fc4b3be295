import { useEffect, useRef, useState } from 'react';
import type { BatchKind } from '../../../common/ipc/validation';
import { useOmniMutation } from '../../api/index';
import type { omni } from '../../api/omni';
import { useLocale, useT } from '../../i18n/index';
import { useTaskNotifier, type TaskOutcome } from '../../ui/index';
import { startDownload } from '../signing/files';
import { messages } from './messages';
import { useBatchJob } from './useBatchJob';

type StartInput = Parameters<ReturnType<typeof omni>['validation']['batchStart']>[0];

/** A batch once started: its job as polled, pause, resume, cancel and export, and how it ended. */
export function useBatchRun() {
  const t = useT(messages);
  const { locale } = useLocale();
  const [jobId, setJobId] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const { job, setJob, problems, problemCount, error: pollError } = useBatchJob(jobId);
  const notify = useTaskNotifier();
  const stopNotified = useRef<string | null>(null);

  const start = useOmniMutation((api, input: StartInput) => api.validation.batchStart(input));
  const control = useOmniMutation((api, action: 'pause' | 'resume' | 'cancel') =>
    action === 'pause'
      ? api.validation.batchPause({ jobId: jobId! })
      : action === 'resume'
        ? api.validation.batchResume({ jobId: jobId! })
        : api.validation.batchCancel({ jobId: jobId! }),
  );
  const exportCall = useOmniMutation((api) => api.validation.batchExport({ jobId: jobId!, language: locale }));

  // A run that stops itself (provider limit) waits paused for the user, with no outcome on its bar: it notifies as failed.
  const stoppedRun = job?.stoppedBecause ? job.jobId : null;
  useEffect(() => {
    if (stoppedRun && stopNotified.current !== stoppedRun) notify(t('taskBatch'), 'failed');
    stopNotified.current = stoppedRun;
  }, [stoppedRun, notify, t]);
  const outcome: TaskOutcome | undefined = pollError
    ? 'failed'
    : job?.state === 'done'
      ? 'done'
      : job?.state === 'cancelled'
        ? 'cancelled'
        : undefined;
  const running = job !== null && (job.state === 'running' || job.state === 'pausing' || job.state === 'paused');

  const begin = (input: StartInput) =>
    start.mutate(input, {
      onSuccess: (view) => {
        setJob(view);
        setJobId(view.jobId);
        setStatus('');
      },
    });
  const steer = (action: 'pause' | 'resume' | 'cancel') =>
    control.mutate(action, {
      onSuccess: (view) => setJob((prev) => ({ ...view, rows: [], lastSeq: prev?.lastSeq ?? view.lastSeq })),
    });
  const exportRows = (kind: BatchKind) =>
    exportCall.mutate(undefined, {
      onSuccess: (r) => {
        if (!r.saved) return;
        if (r.downloadUrl) startDownload(r.downloadUrl, `validation-${kind}.csv`);
        setStatus(r.savedTo ? t('exportSaved', { rows: r.rows, path: r.savedTo }) : t('exported', { rows: r.rows }));
      },
    });

  return {
    job,
    problems,
    problemCount,
    pollError,
    outcome,
    running,
    status,
    starting: start.isPending,
    exporting: exportCall.isPending,
    callError: start.error ?? control.error ?? exportCall.error,
    begin,
    steer,
    exportRows,
  };
}

export type BatchRunState = ReturnType<typeof useBatchRun>;
