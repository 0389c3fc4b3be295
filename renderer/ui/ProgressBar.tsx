import { common } from '../i18n/common';
import { useFormat, useT } from '../i18n/index';
import { Button } from './Button';

/**
 * Progress of long work: amount done (bytes or rows), rate, time left and a cancel button.
 * `startedAt` (ms) lets it derive the rate; pass `unit="rows"` for counts.
 */
export function ProgressBar({ label, done, total, startedAt, unit = 'bytes', onCancel, now = Date.now() }: {
  label: string;
  done: number;
  total?: number;
  startedAt: number;
  unit?: 'bytes' | 'rows';
  onCancel?: () => void;
  now?: number;
}) {
  const t = useT(common);
  const f = useFormat();
  const elapsed = Math.max(0.001, (now - startedAt) / 1000);
  const rate = done / elapsed;
  const amount = (n: number) => (unit === 'bytes' ? f.bytes(n) : f.number(n));
  const fraction = total && total > 0 ? Math.min(1, done / total) : undefined;
  const left = total && rate > 0 ? (total - done) / rate : undefined;
  return (
    <div className="progress">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total ?? undefined}
        aria-valuenow={total ? done : undefined}
        aria-valuetext={total ? t('progressOf', { done: amount(done), total: amount(total) }) : amount(done)}
        className="progress-track"
      >
        <div className="progress-fill" style={{ width: `${(fraction ?? 0) * 100}%` }} />
      </div>
      <div className="progress-meta">
        <span>{total ? t('progressOf', { done: amount(done), total: amount(total) }) : amount(done)}</span>
        <span>{t('progressRate', { rate: amount(Math.round(rate)) })}</span>
        {left !== undefined && <span>{t('progressLeft', { time: f.duration(left) })}</span>}
        {onCancel && <Button onClick={onCancel}>{t('cancel')}</Button>}
      </div>
    </div>
  );
}
