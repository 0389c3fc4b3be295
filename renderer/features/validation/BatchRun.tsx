import type { BatchJobView } from '../../../common/ipc/validation';
import { useBilingual, useFormat, useT } from '../../i18n/index';
import { Button, IconCheck, IconDanger, IconMinus, IconWarning, ProgressBar } from '../../ui/index';
import { BatchProblems } from './BatchProblems';
import { messages } from './messages';
import type { BatchRunState } from './useBatchRun';

/** A started batch: where it stands, its progress and controls, its counts, and the rows that need attention. */
export function BatchRun({ run, job, onExport }: { run: BatchRunState; job: BatchJobView; onExport: () => void }) {
  const t = useT(messages);
  const f = useFormat();
  const pick = useBilingual();
  const { outcome, running, status, exporting, steer, problems, problemCount } = run;
  return (
    <div className="batch-run" data-testid="batch-run">
      <p className="batch-state" role="status">
        {job.state === 'running' && t('stateRunning')}
        {job.state === 'pausing' && t('statePausing')}
        {job.state === 'paused' && t('statePaused')}
        {/* The outcome in the headline, not only in the counts below: "finished" alone read as all valid. */}
        {job.state === 'done' &&
          t('stateDone', {
            total: f.number(job.total),
            valid: f.number(job.counts.valid),
            invalid: f.number(job.counts.invalid),
            error: f.number(job.counts.error),
          })}
        {job.state === 'cancelled' && t('stateCancelled', { done: f.number(job.done), total: f.number(job.total) })}
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
        onCancel={running ? () => steer('cancel') : undefined}
      />
      <div className="batch-controls">
        {job.state === 'running' && <Button onClick={() => steer('pause')}>{t('pause')}</Button>}
        {(job.state === 'paused' || job.state === 'pausing') && (
          <Button onClick={() => steer('resume')}>{t('resume')}</Button>
        )}
        <Button onClick={onExport} disabled={job.done === 0 || exporting}>
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
      <BatchProblems problems={problems} problemCount={problemCount} />
    </div>
  );
}
