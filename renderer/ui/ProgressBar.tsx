import { useEffect, useRef } from 'react';
import { common } from '../i18n/common';
import { useFormat, useT } from '../i18n/index';
import { Button } from './Button';
import { askToNotifyOnce, useTaskNotifier, type TaskOutcome } from './long-task';

/**
 * Progress of long work: amount done (bytes or rows), rate, time left and a cancel button.
 * `startedAt` (ms) lets it derive the rate; pass `unit="rows"` for counts.
 * The first bar of a session asks for notification permission. When `outcome` turns to `done` or `failed` while the
 * window is in the background, an OS notification names `task` (default: `label`) and the outcome; the bar stays on
 * screen showing that outcome.
 */
export function ProgressBar({
  label,
  task,
  done,
  total,
  startedAt,
  unit = 'bytes',
  onCancel,
  outcome,
  now = Date.now(),
}: {
  label: string;
  /** The task's name in the notification, when `label` names a step rather than the whole task. */
  task?: string;
  done: number;
  total?: number;
  startedAt: number;
  unit?: 'bytes' | 'rows';
  onCancel?: () => void;
  /** How the work ended; absent while it runs. */
  outcome?: TaskOutcome;
  now?: number;
}) {
  const t = useT(common);
  const f = useFormat();
  const notify = useTaskNotifier();
  useEffect(askToNotifyOnce, []);
  // Only a change to an outcome notifies: a bar mounted already finished reports nothing new.
  const previousOutcome = useRef(outcome);
  useEffect(() => {
    if (outcome && outcome !== previousOutcome.current) notify(task ?? label, outcome);
    previousOutcome.current = outcome;
  }, [outcome, task, label, notify]);

  const elapsed = Math.max(0.001, (now - startedAt) / 1000);
  const rate = done / elapsed;
  const amount = (n: number) => (unit === 'bytes' ? f.bytes(n) : f.number(n));
  const fraction = outcome === 'done' ? 1 : total && total > 0 ? Math.min(1, done / total) : undefined;
  const left = !outcome && total && rate > 0 ? (total - done) / rate : undefined;
  const ended =
    outcome && { done: t('progressFinished'), failed: t('progressFailed'), cancelled: t('progressCancelled') }[outcome];
  return (
    <div className="progress" data-outcome={outcome}>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total ?? undefined}
        aria-valuenow={total ? done : undefined}
        aria-valuetext={[total ? t('progressOf', { done: amount(done), total: amount(total) }) : amount(done), ended]
          .filter(Boolean)
          .join(' · ')}
        className="progress-track"
      >
        <div className="progress-fill" style={{ width: `${(fraction ?? 0) * 100}%` }} />
      </div>
      <div className="progress-meta">
        {ended && <strong className="progress-outcome">{ended}</strong>}
        <span>{total ? t('progressOf', { done: amount(done), total: amount(total) }) : amount(done)}</span>
        {!outcome && <span>{t('progressRate', { rate: amount(Math.round(rate)) })}</span>}
        {left !== undefined && <span>{t('progressLeft', { time: f.duration(left) })}</span>}
        {onCancel && !outcome && <Button onClick={onCancel}>{t('cancel')}</Button>}
      </div>
    </div>
  );
}
