import { useEffect, useId, useRef, useState } from 'react';
import type { BatchJobView, BatchKind, BatchPreviewView, BatchRowView } from '../../../common/ipc/validation';
import { OmniCallError, ipcErrorOf, useOmniMutation } from '../../api/index';
import { useQueueList } from '../../api/queue';
import { omni } from '../../api/omni';
import type { IpcErrorData } from '../../../common/ipc/define';
import { useBilingual, useFormat, useLocale, useT } from '../../i18n/index';
import {
  Badge,
  Button,
  ErrorNotice,
  FileField,
  IconCheck,
  IconDanger,
  IconMinus,
  IconWarning,
  ProgressBar,
  ServiceAnswerView,
  useTaskNotifier,
  type TaskOutcome,
} from '../../ui/index';
import { startDownload } from '../signing/files';
import { hasSessionToken } from '../capture/InterviewPicker';
import { groupLabel } from './SingleChecks';
import { messages } from './messages';

const MAX_CSV_BYTES = 20 * 1024 * 1024;
const SHOWN_PROBLEMS = 500;
const POLL_MS = 400;

/** Polls a running batch with the last row sequence it has, keeping counts and the rows that need attention. */
function useBatchJob(jobId: string | null) {
  const [job, setJob] = useState<BatchJobView | null>(null);
  const [problems, setProblems] = useState<BatchRowView[]>([]);
  const [problemCount, setProblemCount] = useState(0);
  const [error, setError] = useState<IpcErrorData | null>(null);
  const seq = useRef(0);

  useEffect(() => {
    if (!jobId) return undefined;
    seq.current = 0;
    setProblems([]);
    setProblemCount(0);
    setError(null);
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const next = await omni().validation.batchStatus({ jobId, afterSeq: seq.current });
        if (stopped) return;
        seq.current = next.lastSeq;
        const bad = next.rows.filter((r) => r.status !== 'valid');
        if (bad.length) {
          setProblems((prev) => (prev.length >= SHOWN_PROBLEMS ? prev : [...prev, ...bad].slice(0, SHOWN_PROBLEMS)));
          setProblemCount((n) => n + bad.length);
        }
        setJob(next);
        if (next.state !== 'done' && next.state !== 'cancelled') timer = setTimeout(tick, POLL_MS);
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

  return { job, setJob, problems, problemCount, error };
}

export function BatchTool({ interviewId }: { interviewId: string }) {
  const t = useT(messages);
  const f = useFormat();
  const pick = useBilingual();
  const { locale } = useLocale();
  const id = useId();
  const queue = useQueueList();
  const [csvText, setCsvText] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [preview, setPreview] = useState<BatchPreviewView | null>(null);
  const [column, setColumn] = useState(0);
  const [kind, setKind] = useState<BatchKind>('rfc');
  const [hasHeader, setHasHeader] = useState(true);
  const [concurrency, setConcurrency] = useState(4);
  const [jobId, setJobId] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const { job, setJob, problems, problemCount, error: pollError } = useBatchJob(jobId);
  const notify = useTaskNotifier();
  const stopNotified = useRef<string | null>(null);

  const previewCall = useOmniMutation((api, text: string) => api.validation.batchPreview({ csvText: text }));
  const start = useOmniMutation((api, input: Parameters<ReturnType<typeof omni>['validation']['batchStart']>[0]) =>
    api.validation.batchStart(input),
  );
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

  const onFile = async (file: File | undefined) => {
    setPreview(null);
    setCsvText(null);
    setFileError(null);
    if (!file) return;
    if (file.size > MAX_CSV_BYTES) return setFileError(t('fileTooLarge', { size: f.bytes(file.size) }));
    const text = await file.text();
    setCsvText(text);
    previewCall.mutate(text, {
      onSuccess: (p) => {
        setPreview(p);
        setHasHeader(p.hasHeader);
        if (p.suggested) {
          setColumn(p.suggested.column);
          setKind(p.suggested.kind);
        }
      },
    });
  };

  const tokenReady = hasSessionToken(queue.data, interviewId);
  const canStart = csvText !== null && preview !== null && (kind === 'rfc' || tokenReady) && !start.isPending;
  const running = job !== null && (job.state === 'running' || job.state === 'pausing' || job.state === 'paused');

  const onStart = () => {
    if (!csvText) return;
    start.mutate(
      { csvText, kind, column, hasHeader, concurrency, ...(kind === 'curp' ? { interviewId } : {}) },
      {
        onSuccess: (view) => {
          setJob(view);
          setJobId(view.jobId);
          setStatus('');
        },
      },
    );
  };
  const onControl = (action: 'pause' | 'resume' | 'cancel') =>
    control.mutate(action, {
      onSuccess: (view) => setJob((prev) => ({ ...view, rows: [], lastSeq: prev?.lastSeq ?? view.lastSeq })),
    });
  const onExport = () =>
    exportCall.mutate(undefined, {
      onSuccess: (r) => {
        if (!r.saved) return;
        if (r.downloadUrl) startDownload(r.downloadUrl, `validation-${kind}.csv`);
        setStatus(r.savedTo ? t('exportSaved', { rows: r.rows, path: r.savedTo }) : t('exported', { rows: r.rows }));
      },
    });

  const controlError: OmniCallError | null = start.error ?? control.error ?? exportCall.error ?? previewCall.error;

  return (
    <section className="panel batch" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('batchTitle')}</h2>
      <p className="muted">{t('batchIntro')}</p>
      <FileField
        label={t('fileLabel')}
        accept=".csv,text/csv,text/plain"
        disabled={running}
        hint={t('fileHint')}
        error={fileError}
        onFile={(file) => void onFile(file)}
      />
      {preview && (
        <div className="batch-setup">
          <p className="muted num">{t('rows', { rows: f.number(preview.rows) })}</p>
          <div className="field">
            <label htmlFor={`${id}-column`}>{t('column')}</label>
            <select
              id={`${id}-column`}
              className="select"
              value={column}
              disabled={running}
              onChange={(e) => setColumn(Number(e.target.value))}
            >
              {preview.columns.map((c) => (
                <option key={c.index} value={c.index}>
                  {t('columnOption', {
                    name: c.header || t('columnNumber', { n: c.index + 1 }),
                    sample: c.sample.slice(0, 2).join(', ') || '—',
                  })}
                </option>
              ))}
            </select>
          </div>
          <fieldset className="field batch-kind" disabled={running}>
            <legend>{t('kind')}</legend>
            <label>
              <input type="radio" name={`${id}-kind`} checked={kind === 'rfc'} onChange={() => setKind('rfc')} />{' '}
              {t('kindRfc')}
            </label>
            <label>
              <input type="radio" name={`${id}-kind`} checked={kind === 'curp'} onChange={() => setKind('curp')} />{' '}
              {t('kindCurp')}
            </label>
          </fieldset>
          <label className="batch-check">
            <input
              type="checkbox"
              checked={hasHeader}
              disabled={running}
              onChange={(e) => setHasHeader(e.target.checked)}
            />{' '}
            {t('hasHeader')}
          </label>
          <div className="field batch-concurrency">
            <label htmlFor={`${id}-conc`}>{t('concurrency')}</label>
            <input
              id={`${id}-conc`}
              className="input num"
              type="number"
              min={1}
              max={8}
              value={concurrency}
              disabled={running}
              aria-describedby={`${id}-conc-hint`}
              onChange={(e) => setConcurrency(Math.max(1, Math.min(8, Number(e.target.value) || 1)))}
            />
            <span id={`${id}-conc-hint`} className="hint">
              {t('concurrencyHint')}
            </span>
          </div>
          {kind === 'curp' && (
            <p className={`notice${tokenReady ? '' : ' notice-warn'}`}>
              <IconWarning /> {t('curpBatchNote')}{' '}
              {!tokenReady && t('needsToken', { reason: interviewId ? t('reasonNoToken') : t('reasonNoInterview') })}
            </p>
          )}
          <Button variant="primary" onClick={onStart} disabled={!canStart || running}>
            {t('start')}
          </Button>
        </div>
      )}
      {controlError && <ErrorNotice error={controlError.data} />}
      {pollError && <ErrorNotice error={pollError} />}
      {job && (
        <div className="batch-run" data-testid="batch-run">
          <p className="batch-state" role="status">
            {job.state === 'running' && t('stateRunning')}
            {job.state === 'pausing' && t('statePausing')}
            {job.state === 'paused' && t('statePaused')}
            {job.state === 'done' && t('stateDone', { total: job.total })}
            {job.state === 'cancelled' && t('stateCancelled', { done: job.done, total: job.total })}
          </p>
          {job.stoppedBecause && (
            <p className="notice notice-warn">
              <IconWarning /> {t('stopped', { reason: pick(job.stoppedBecause) })}
            </p>
          )}
          <ProgressBar
            key={job.jobId}
            label={t('progressLabel')}
            task={t('taskBatch')}
            unit="rows"
            done={job.done}
            total={job.total}
            startedAt={Date.parse(job.startedAt)}
            now={job.finishedAt ? Date.parse(job.finishedAt) : Date.now()}
            {...(outcome ? { outcome } : {})}
            onCancel={running ? () => onControl('cancel') : undefined}
          />
          <div className="batch-controls">
            {job.state === 'running' && <Button onClick={() => onControl('pause')}>{t('pause')}</Button>}
            {(job.state === 'paused' || job.state === 'pausing') && (
              <Button onClick={() => onControl('resume')}>{t('resume')}</Button>
            )}
            <Button onClick={onExport} disabled={job.done === 0 || exportCall.isPending}>
              {t('exportCsv')}
            </Button>
          </div>
          <dl className="batch-counts num">
            <div>
              <dt>
                <IconCheck /> {t('countValid')}
              </dt>
              <dd data-testid="count-valid">{f.number(job.counts.valid)}</dd>
            </div>
            <div>
              <dt>
                <IconDanger /> {t('countInvalid')}
              </dt>
              <dd data-testid="count-invalid">{f.number(job.counts.invalid)}</dd>
            </div>
            <div>
              <dt>
                <IconMinus /> {t('countError')}
              </dt>
              <dd data-testid="count-error">{f.number(job.counts.error)}</dd>
            </div>
            <div>
              <dt>{t('retries')}</dt>
              <dd>{f.number(job.retries)}</dd>
            </div>
          </dl>
          <p className="visually-hidden" role="status">
            {status}
          </p>
          {status && (
            <p className="small muted" aria-hidden="true">
              {status}
            </p>
          )}
          <h3>{t('problems')}</h3>
          {problems.length === 0 ? (
            <p className="panel-empty">{t('problemsNone')}</p>
          ) : (
            <>
              {problemCount > problems.length && (
                <p className="muted small">{t('problemsMore', { shown: problems.length, total: problemCount })}</p>
              )}
              <div className="batch-problems">
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col" className="num">
                        {t('colLine')}
                      </th>
                      <th scope="col">{t('colValue')}</th>
                      <th scope="col">{t('colResult')}</th>
                      <th scope="col">{t('colDetail')}</th>
                      <th scope="col" className="num">
                        {t('colAttempts')}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {[...problems]
                      .sort((a, b) => a.line - b.line)
                      .map((r) => (
                        <tr key={r.seq} data-testid="batch-problem">
                          <td className="num">{r.line}</td>
                          <td className="id">{r.value || '—'}</td>
                          <td>
                            {r.status === 'invalid' ? (
                              <Badge tone="danger" icon={<IconDanger />}>
                                {t('statusInvalid')}
                              </Badge>
                            ) : (
                              <Badge tone="warn" icon={<IconWarning />}>
                                {t('statusError')}
                              </Badge>
                            )}
                            {r.source === 'local' && <span className="muted small"> {t('sourceLocal')}</span>}
                          </td>
                          <td>
                            {pick(r.message)}
                            {r.warning && <span className="muted"> {pick(r.warning)}</span>}
                            {r.advice && <span className="muted"> {pick(r.advice)}</span>}
                            {(r.group !== undefined || r.code) && (
                              <span className="code small">
                                {' '}
                                {r.group !== undefined &&
                                  `${groupLabel({ group: r.group, retryable: r.group === 2 }, t)} · `}
                                {r.code}
                              </span>
                            )}
                            {r.answer && <ServiceAnswerView answer={r.answer} />}
                          </td>
                          <td className="num">{r.attempts}</td>
                        </tr>
                      ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </div>
      )}
    </section>
  );
}
