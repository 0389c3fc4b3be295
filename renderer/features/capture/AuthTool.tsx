import { useId, useState, type FormEvent } from 'react';
import type { AuthResultView, ImageSource } from '../../../common/ipc/capture';
import { useOmniMutation } from '../../api/index';
import { useBilingual, useT } from '../../i18n/index';
import {
  Badge,
  Button,
  ErrorNotice,
  IconCheck,
  IconDanger,
  IconInfo,
  IconWarning,
  ServiceAnswerView,
  useEnvironmentScope,
  useKeptState,
} from '../../ui/index';
import { messages } from './messages';
import { AttemptsLine, CoordinatesInput, ImageSourceInput, ToolOutcome, type CoordinatesValue } from './parts';

/**
 * What the form keeps through leaving the screen until the service answers: the texts, and the name of the photo
 * picked. Never the photo itself: it is picked again, and the form says so when coming back.
 */
interface AuthDraft {
  hint: string;
  recordingId: string;
  /** The file name of the photo picked before leaving (empty when none was). */
  photoName: string;
}

const NO_DRAFT: AuthDraft = { hint: '', recordingId: '', photoName: '' };

/** Face authentication: one-to-one when a hint is given, one-to-N without; PASS or FAIL explained. */
export function AuthTool() {
  const t = useT(messages);
  const id = useId();
  const [image, setImage] = useState<ImageSource | null>(null);
  const [draft, setDraft, forget] = useKeptState(`capture.auth.${useEnvironmentScope()}`, NO_DRAFT);
  const { hint, recordingId } = draft;
  const setHint = (value: string) => setDraft((d) => ({ ...d, hint: value }));
  const setRecordingId = (value: string) => setDraft((d) => ({ ...d, recordingId: value }));
  // A photo picked before leaving the screen is not there on coming back: said beside the photo until one is picked.
  const [droppedPhoto] = useState(() => draft.photoName);
  const onImage = (source: ImageSource | null) => {
    setImage(source);
    if (source?.kind === 'file') setDraft((d) => ({ ...d, photoName: source.name }));
  };
  const [coords, setCoords] = useState<CoordinatesValue>({ ok: true, value: undefined });
  const run = useOmniMutation(
    (api, input: Parameters<typeof api.capture.authenticateFace>[0]) => api.capture.authenticateFace(input),
    { onSuccess: () => forget() },
  );
  const send = (e?: FormEvent) => {
    e?.preventDefault();
    if (!image || !coords.ok) return;
    run.mutate({
      image,
      ...(hint.trim() ? { hint: hint.trim() } : {}),
      ...(recordingId.trim() ? { recordingId: recordingId.trim() } : {}),
      ...(coords.value ? { faceCoordinates: coords.value } : {}),
    });
  };
  return (
    <>
      <p className="notice">
        <IconInfo /> {t('authNoInterview')}
      </p>
      <form onSubmit={send} className="capture-form">
        <ImageSourceInput allowUrl={false} onChange={onImage} />
        {droppedPhoto && !image && (
          <p className="notice notice-warn small" role="status" data-testid="photo-not-kept">
            <IconWarning /> {t('photoNotKept', { name: droppedPhoto })}
          </p>
        )}
        <div className="field">
          <label htmlFor={`${id}-hint`}>{t('hintLabel')}</label>
          <input
            id={`${id}-hint`}
            className="input"
            value={hint}
            maxLength={320}
            autoComplete="off"
            aria-describedby={`${id}-hint-hint ${id}-mode`}
            onChange={(e) => setHint(e.target.value)}
          />
          <span id={`${id}-hint-hint`} className="hint">
            {t('hintHint')}
          </span>
        </div>
        <p id={`${id}-mode`} className="auth-mode" data-testid="auth-mode">
          <strong>{t('authMode')}:</strong> {hint.trim() ? t('authOneToOne') : t('authOneToN')}
        </p>
        <div className="field">
          <label htmlFor={`${id}-rec`}>{t('recordingIdLabel')}</label>
          <input
            id={`${id}-rec`}
            className="input mono"
            value={recordingId}
            maxLength={200}
            autoComplete="off"
            onChange={(e) => setRecordingId(e.target.value)}
          />
        </div>
        <CoordinatesInput onChange={setCoords} />
        <div className="form-actions">
          <Button type="submit" variant="primary" disabled={!image || !coords.ok || run.isPending}>
            {run.isPending ? t('sending') : t('authenticate')}
          </Button>
        </div>
      </form>
      <ToolOutcome
        pending={run.isPending}
        refusal={
          !!run.error && (
            <ErrorNotice error={run.error.data} onRetry={run.error.data.retryable ? () => send() : undefined} />
          )
        }
        result={!!run.data && <AuthResult result={run.data} />}
        nothing={t('authNothing')}
      />
    </>
  );
}

function AuthResult({ result }: { result: AuthResultView }) {
  const t = useT(messages);
  const pick = useBilingual();
  return (
    <div className="capture-result" data-testid="auth-result">
      <p className="capture-headline">
        {result.passed ? (
          <Badge tone="ok" icon={<IconCheck />}>
            {t('authPass')}
          </Badge>
        ) : (
          <Badge tone="danger" icon={<IconDanger />}>
            {t('authFail')}
          </Badge>
        )}{' '}
        <span className="muted">{result.mode === 'oneToOne' ? t('authOneToOne') : t('authOneToN')}</span>
      </p>
      {result.candidate && (
        <p>
          {t('candidate')}: <code data-testid="candidate">{result.candidate}</code>
        </p>
      )}
      {result.error && (
        <div
          className={`explain ${result.error.retryable ? 'explain-group-2' : 'explain-fail'}`}
          role="alert"
          data-testid="auth-error"
        >
          <p className="what">{pick(result.error.message)}</p>
          <p>{pick(result.error.advice)}</p>
          {result.response.error?.message && (
            <p className="muted">{t('serviceSaid', { message: result.response.error.message })}</p>
          )}
          <p className="code">{t('code', { code: result.error.code })}</p>
        </div>
      )}
      <AttemptsLine attempts={result.attempts} />
      <ServiceAnswerView answer={result.answer} />
    </div>
  );
}
