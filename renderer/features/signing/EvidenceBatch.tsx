import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { IpcErrorData } from '../../../common/ipc/define';
import type { EvidenceBatchView } from '../../../common/ipc/evidence';
import { ipcErrorOf, useOmniMutation } from '../../api/index';
import { omni } from '../../api/omni';
import { useLocale } from '../../i18n/index';
import { Button, ErrorNotice, Field, ProgressBar, type TaskOutcome } from '../../ui/index';
import type { T } from './parts';

const POLL_MS = 400;

/** Polls a batch of evidence files until it ends; the view as main last said it. */
function useEvidenceBatch(jobId: string | null) {
  const [job, setJob] = useState<EvidenceBatchView | null>(null);
  const [error, setError] = useState<IpcErrorData | null>(null);
  useEffect(() => {
    if (!jobId) return undefined;
    setError(null);
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const next = await omni().evidence.batchStatus({ jobId });
        if (stopped) return;
        setJob(next);
        if (!['done', 'cancelled', 'failed'].includes(next.state)) timer = setTimeout(tick, POLL_MS);
      } catch (e) {
        if (!stopped) setError(ipcErrorOf(e));
      }
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [jobId]);
  return { job, setJob, error };
}

/** Signing → Evidence files for a period: every interview decided between two days, into a folder with an index. */
export function EvidenceBatch({ t }: { t: T }) {
  const { locale } = useLocale();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [purpose, setPurpose] = useState('');
  const [touched, setTouched] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const startedAt = useRef(Date.now());
  const { job, setJob, error: pollError } = useEvidenceBatch(jobId);
  const start = useOmniMutation(
    (api, input: { from: string; to: string; purpose: string }) =>
      api.evidence.batchStart({ ...input, language: locale }),
    {
      onSuccess: (view) => {
        startedAt.current = Date.now();
        setJob(view);
        setJobId(view.jobId);
      },
    },
  );
  const control = useOmniMutation(
    (api, action: 'pause' | 'resume' | 'cancel') =>
      action === 'pause'
        ? api.evidence.batchPause({ jobId: jobId! })
        : action === 'resume'
          ? api.evidence.batchResume({ jobId: jobId! })
          : api.evidence.batchCancel({ jobId: jobId! }),
    { onSuccess: (view) => setJob(view) },
  );
  const running = job !== null && !['done', 'cancelled', 'failed'].includes(job.state);
  const purposeError = touched && purpose.trim().length < 3 ? t('batchPurposeMissing') : undefined;
  const datesError = touched && (!from || !to) ? t('batchDatesMissing') : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!from || !to || purpose.trim().length < 3) return;
    start.mutate({ from, to, purpose: purpose.trim() });
  };
  const outcome: TaskOutcome | undefined =
    pollError || job?.state === 'failed'
      ? 'failed'
      : job?.state === 'done'
        ? 'done'
        : job?.state === 'cancelled'
          ? 'cancelled'
          : undefined;
  const counts = job && { done: job.done, total: job.total, failed: job.failed };

  return (
    <section className="panel signing-evidence-batch" aria-labelledby="evidence-batch-title">
      <div className="panel-header">
        <h2 id="evidence-batch-title">{t('batchTitle')}</h2>
      </div>
      <p className="muted">{t('batchIntro')}</p>
      <form onSubmit={submit} noValidate>
        <div className="nom-row">
          <Field
            label={t('batchFrom')}
            type="date"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            error={datesError && !from ? datesError : undefined}
            data-testid="evidence-batch-from"
          />
          <Field
            label={t('batchTo')}
            type="date"
            value={to}
            onChange={(e) => setTo(e.target.value)}
            error={datesError && !to ? datesError : undefined}
            data-testid="evidence-batch-to"
          />
        </div>
        <Field
          label={t('batchPurpose')}
          hint={t('batchPurposeHint')}
          value={purpose}
          maxLength={500}
          onChange={(e) => setPurpose(e.target.value)}
          error={purposeError}
          data-testid="evidence-batch-purpose"
        />
        <Button type="submit" variant="primary" disabled={start.isPending || running}>
          {t('batchStart')}
        </Button>
      </form>
      {start.error && <ErrorNotice error={start.error.data} />}
      {control.error && <ErrorNotice error={control.error.data} />}
      {pollError && <ErrorNotice error={pollError} />}
      {job && (
        <div className="evidence-batch-job" data-testid="evidence-batch-job" data-state={job.state}>
          <ProgressBar
            label={t('batchProgress')}
            done={job.done}
            total={job.total}
            startedAt={startedAt.current}
            unit="rows"
            {...(running ? { onCancel: () => control.mutate('cancel') } : {})}
            {...(outcome ? { outcome } : {})}
          />
          <p className="small" role="status" data-testid="evidence-batch-status">
            {job.state === 'done'
              ? job.total === 0
                ? t('batchNone')
                : job.failed === 0
                  ? t('batchDoneAll', counts!)
                  : t('batchDone', counts!)
              : job.state === 'cancelled'
                ? t('batchCancelled', counts!)
                : job.state === 'paused'
                  ? t('batchPaused', counts!)
                  : job.state === 'failed'
                    ? ''
                    : t('batchRunning', {
                        ...counts!,
                        current: job.current ? t('batchCurrent', { id: job.current }) : '',
                      })}
          </p>
          {job.error && (
            <ErrorNotice
              error={{
                code: 'EVIDENCE_BATCH',
                message: job.error.message,
                ...(job.error.advice ? { advice: job.error.advice } : {}),
              }}
            />
          )}
          <p className="small mono" data-testid="evidence-batch-folder">
            {t('batchFolder', { folder: job.folder })}
          </p>
          {running && (
            <div className="nom-row">
              {job.state === 'paused' || job.state === 'pausing' ? (
                <Button onClick={() => control.mutate('resume')} disabled={control.isPending}>
                  {t('batchResume')}
                </Button>
              ) : (
                <Button onClick={() => control.mutate('pause')} disabled={control.isPending}>
                  {t('batchPause')}
                </Button>
              )}
            </div>
          )}
        </div>
      )}
    </section>
  );
}
