import { useEffect, useId, useState, type ReactElement } from 'react';
import { checkImage, describeImageProblem, MAX_IMAGE_BYTES } from '../../../common/rules/image-check';
import { FaceCoordinates } from '../../../common/omni/common';
import type { AttemptsView, ImageSource, IndicatorView, Verdict } from '../../../common/ipc/capture';
import type { IpcErrorData } from '../../../common/ipc/define';
import { useBilingual, useFormat, useLocale, useT } from '../../i18n/index';
import {
  Badge,
  Button,
  FileField,
  IconCheck,
  IconDanger,
  IconInfo,
  IconMinus,
  IconWarning,
  NotInSpec,
  TextAreaField,
} from '../../ui/index';
import { readFileBase64 } from '../signing/files';
import { fieldTexts, messages } from './messages';

export type CoordinatesValue = { ok: true; value: FaceCoordinates | undefined } | { ok: false; error: string };

/**
 * A photo from disk (type and size checked here, from its bytes, before anything is sent) or an allow-listed URL.
 * Reports the ready-to-send source, or null while there is none or it is invalid.
 */
export function ImageSourceInput({
  allowUrl = true,
  onChange,
}: {
  allowUrl?: boolean;
  onChange: (source: ImageSource | null) => void;
}) {
  const t = useT(messages);
  const f = useFormat();
  const pick = useBilingual();
  const id = useId();
  const [mode, setMode] = useState<'file' | 'url'>('file');
  const [problem, setProblem] = useState<string | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [url, setUrl] = useState('');

  useEffect(
    () => () => {
      if (previewUrl) URL.revokeObjectURL(previewUrl);
    },
    [previewUrl],
  );

  const onFile = async (file: File | undefined) => {
    setProblem(null);
    setPreviewUrl(null);
    onChange(null);
    if (!file) return;
    const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
    const check = checkImage(head, file.size, file.type);
    if (!check.ok) {
      setProblem(pick(describeImageProblem(check.problem)));
      return;
    }
    const loaded = await readFileBase64(file);
    setPreviewUrl(URL.createObjectURL(file));
    onChange({
      kind: 'file',
      base64: loaded.base64,
      mimeType: check.kind === 'png' ? 'image/png' : 'image/jpeg',
      name: file.name,
    });
  };

  const onUrl = (value: string) => {
    setUrl(value);
    const parsed = URL.canParse(value.trim()) ? new URL(value.trim()) : null;
    const valid = parsed?.protocol === 'https:' || parsed?.protocol === 'http:';
    setProblem(value.trim() && !valid ? t('urlInvalid') : null);
    onChange(valid ? { kind: 'url', url: value.trim() } : null);
  };

  return (
    <div className="image-source">
      {allowUrl && (
        <fieldset className="field radio-row">
          <legend>{t('source')}</legend>
          <label>
            <input
              type="radio"
              name={`${id}-mode`}
              checked={mode === 'file'}
              onChange={() => {
                setMode('file');
                setProblem(null);
                onChange(null);
              }}
            />{' '}
            {t('sourceFile')}
          </label>
          <label>
            <input
              type="radio"
              name={`${id}-mode`}
              checked={mode === 'url'}
              onChange={() => {
                setMode('url');
                setPreviewUrl(null);
                setProblem(null);
                onChange(null);
              }}
            />{' '}
            {t('sourceUrl')}
          </label>
        </fieldset>
      )}
      {mode === 'file' ? (
        <FileField
          label={t('fileLabel')}
          accept="image/png,image/jpeg"
          hint={t('fileHint', { max: f.bytes(MAX_IMAGE_BYTES) })}
          error={problem}
          onFile={(file) => void onFile(file)}
        />
      ) : (
        <div className="field">
          <label htmlFor={`${id}-url`}>{t('urlLabel')}</label>
          <input
            id={`${id}-url`}
            className="input mono"
            type="url"
            value={url}
            aria-describedby={`${id}-url-hint`}
            aria-invalid={problem ? true : undefined}
            onChange={(e) => onUrl(e.target.value)}
          />
          <span id={`${id}-url-hint`} className="hint">
            {t('urlHint')}
          </span>
          {problem && (
            <span className="field-error" role="alert">
              {problem}
            </span>
          )}
        </div>
      )}
      {previewUrl && <img className="capture-preview" src={previewUrl} alt={t('preview')} />}
    </div>
  );
}

/** Optional FaceCoordinatesDto as JSON, checked with the contract's schema as typed. */
export function CoordinatesInput({ onChange }: { onChange: (value: CoordinatesValue) => void }) {
  const t = useT(messages);
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const update = (value: string) => {
    setText(value);
    if (!value.trim()) {
      setError(null);
      return onChange({ ok: true, value: undefined });
    }
    let json: unknown;
    try {
      json = JSON.parse(value);
    } catch {
      setError(t('coordinatesNotJson'));
      return onChange({ ok: false, error: t('coordinatesNotJson') });
    }
    const parsed = FaceCoordinates.safeParse(json);
    if (!parsed.success) {
      const problems = parsed.error.issues
        .slice(0, 4)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ');
      const message = t('coordinatesInvalid', { problems });
      setError(message);
      return onChange({ ok: false, error: message });
    }
    setError(null);
    onChange({ ok: true, value: parsed.data });
  };
  return (
    <details className="coordinates">
      <summary>{t('coordinates')}</summary>
      <TextAreaField
        id={`${id}-coords`}
        label={t('coordinatesJson')}
        hint={t('coordinatesHint')}
        error={error}
        mono
        rows={4}
        value={text}
        onChange={(e) => update(e.target.value)}
        spellCheck={false}
      />
    </details>
  );
}

const VERDICT_BADGE: Record<Verdict, { tone: 'ok' | 'danger' | 'warn' | 'neutral'; icon: ReactElement }> = {
  ok: { tone: 'ok', icon: <IconCheck /> },
  recapture: { tone: 'danger', icon: <IconDanger /> },
  warning: { tone: 'warn', icon: <IconWarning /> },
  info: { tone: 'neutral', icon: <IconInfo /> },
  notChecked: { tone: 'neutral', icon: <IconMinus /> },
};

export function VerdictBadge({ verdict }: { verdict: Verdict }) {
  const t = useT(messages);
  const b = VERDICT_BADGE[verdict];
  return (
    <Badge tone={b.tone} icon={b.icon}>
      {t(`verdict_${verdict}`)}
    </Badge>
  );
}

/** One row per indicator: label, raw value, verdict (icon and word) and what it means. */
export function IndicatorsTable({ indicators, caption }: { indicators: IndicatorView[]; caption: string }) {
  const t = useT(messages);
  const { locale } = useLocale();
  const f = useFormat();
  if (indicators.length === 0) return null;
  // Raw values as the service sent them: a year or a code is never digit-grouped ("2,021").
  const value = (v: IndicatorView['value']) =>
    v === null
      ? '—'
      : typeof v === 'number'
        ? f.number(v, { maximumFractionDigits: 3, useGrouping: false })
        : String(v);
  return (
    <table className="table indicators">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('colIndicator')}</th>
          <th scope="col">{t('colValue')}</th>
          <th scope="col">{t('colVerdict')}</th>
          <th scope="col">{t('colAdvice')}</th>
        </tr>
      </thead>
      <tbody>
        {indicators.map((i) => {
          const texts = fieldTexts[i.field];
          const advice =
            i.verdict === 'notChecked' ? t('adv_notChecked') : (texts?.advice?.[i.verdict]?.[locale] ?? '');
          return (
            <tr key={i.field} data-testid={`indicator-${i.field}`} data-verdict={i.verdict}>
              <th scope="row">
                {texts?.label[locale] ?? i.field}
                <span className="mono muted small"> {i.field}</span>
              </th>
              <td className="mono">{i.notInSpec ? <NotInSpec value={value(i.value)} /> : value(i.value)}</td>
              <td>
                <VerdictBadge verdict={i.verdict} />
              </td>
              <td>{advice}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function AttemptsLine({ attempts }: { attempts: AttemptsView | undefined }) {
  const t = useT(messages);
  if (!attempts)
    return (
      <p className="muted small" data-testid="attempts">
        {t('attemptsUnlimited')}
      </p>
    );
  return (
    <p className={attempts.remaining > 0 ? 'attempts' : 'attempts notice notice-warn'} data-testid="attempts">
      {attempts.remaining > 0 ? (
        t('attemptsLeft', { remaining: attempts.remaining, max: attempts.max })
      ) : (
        <>
          <IconWarning /> {t('attemptsNone', { max: attempts.max })}
        </>
      )}
    </p>
  );
}

/** The attempt limit a refusal carries in its details (e.g. no attempts left). */
export function attemptsFromError(error: IpcErrorData): AttemptsView | undefined {
  const details = error.details?.serviceDetails as { captureAttemptsLimit?: AttemptsView } | undefined;
  const limit = details?.captureAttemptsLimit;
  return limit && typeof limit.max === 'number' && typeof limit.remaining === 'number' ? limit : undefined;
}

/**
 * Where a tool's answer appears, announced politely: the refusal when there is one, else the result, else (while
 * nothing was sent) what the tool is waiting for.
 */
export function ToolOutcome({
  pending,
  refusal,
  result,
  nothing,
}: {
  pending: boolean;
  refusal: ReactElement | false;
  result: ReactElement | false;
  nothing: string;
}) {
  return (
    <div aria-live="polite" aria-busy={pending || undefined}>
      {refusal || result || (!pending && <p className="panel-empty">{nothing}</p>)}
    </div>
  );
}

/** A tool's send button, with why it is disabled when the interview does not allow the call. */
export function SendRow({
  label,
  ready,
  disabledReason,
}: {
  label: string;
  /** Everything the call needs is filled in and nothing is being sent. */
  ready: boolean;
  disabledReason: string | null;
}) {
  const t = useT(messages);
  return (
    <div className="form-actions">
      <Button type="submit" variant="primary" disabled={!ready || !!disabledReason}>
        {label}
      </Button>
      {disabledReason && (
        <span className="muted small" data-testid="disabled-reason">
          {t('needsInterview', { reason: disabledReason })}
        </span>
      )}
    </div>
  );
}
