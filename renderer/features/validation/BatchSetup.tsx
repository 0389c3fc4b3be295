import { useFormat, useT } from '../../i18n/index';
import { Button, IconWarning, SelectField } from '../../ui/index';
import { messages } from './messages';
import type { BatchSetupState } from './useBatchSetup';

/** The run's settings, once the chosen CSV is previewed: which column holds what, a header, how many at once. */
export function BatchSetup({
  id,
  setup,
  running,
  tokenReady,
  interviewId,
  canStart,
  onStart,
}: {
  id: string;
  setup: BatchSetupState & { preview: NonNullable<BatchSetupState['preview']> };
  running: boolean;
  tokenReady: boolean;
  interviewId: string;
  canStart: boolean;
  onStart: () => void;
}) {
  const t = useT(messages);
  const f = useFormat();
  const { preview, column, setColumn, kind, setKind, hasHeader, setHasHeader, concurrency, setConcurrency } = setup;
  return (
    <div className="batch-setup">
      <p className="muted num">{t('rows', { rows: f.number(preview.rows) })}</p>
      <SelectField
        id={`${id}-column`}
        label={t('column')}
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
      </SelectField>
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
  );
}
