import { useState, type FormEvent } from 'react';
import type { BackIdResultView, CaptureType, FaceResultView, ImageSource } from '../../../common/ipc/capture';
import type { IpcErrorData } from '../../../common/ipc/define';
import { useOmniMutation } from '../../api/index';
import { useBilingual, useT } from '../../i18n/index';
import { Badge, ErrorNotice, IconCheck, IconDanger, IconWarning, SelectField, ServiceAnswerView } from '../../ui/index';
import { DOCUMENT_FIELDS, QUALITY_FIELDS, messages } from './messages';
import {
  AttemptsLine,
  attemptsFromError,
  CoordinatesInput,
  ImageSourceInput,
  IndicatorsTable,
  SendRow,
  ToolOutcome,
  type CoordinatesValue,
} from './parts';

const CAPTURE_TYPES: CaptureType[] = ['UPLOAD', 'MANUAL', 'AUTO', 'NATIVE'];

function CaptureTypeSelect({ value, onChange }: { value: CaptureType | ''; onChange: (v: CaptureType | '') => void }) {
  const t = useT(messages);
  return (
    <SelectField label={t('captureType')} value={value} onChange={(e) => onChange(e.target.value as CaptureType | '')}>
      <option value="">{t('captureTypeNone')}</option>
      {/* In words, with the value sent to the service named as its own term. */}
      {CAPTURE_TYPES.map((c) => (
        <option key={c} value={c}>
          {`${t(`captureType${c}`)} (${t('serviceTerm')}: ${c})`}
        </option>
      ))}
    </SelectField>
  );
}

function RecaptureHeadline({ recapture }: { recapture: boolean }) {
  const t = useT(messages);
  return recapture ? (
    <Badge tone="danger" icon={<IconDanger />}>
      {t('recapture')}
    </Badge>
  ) : (
    <Badge tone="ok" icon={<IconCheck />}>
      {t('noRecapture')}
    </Badge>
  );
}

/** A refusal: the catalog explanation (ErrorNotice) and the attempt limit it reports, if any. */
function Refusal({
  error,
  onRetry,
  children,
}: {
  error: IpcErrorData;
  onRetry: () => void;
  children?: React.ReactNode;
}) {
  const attempts = attemptsFromError(error);
  return (
    <div data-testid="capture-error">
      <ErrorNotice error={error} onRetry={error.retryable ? onRetry : undefined} />
      {attempts && <AttemptsLine attempts={attempts} />}
      {children}
    </div>
  );
}

export function SelfieTool({ interviewId, disabledReason }: { interviewId: string; disabledReason: string | null }) {
  const t = useT(messages);
  const [image, setImage] = useState<ImageSource | null>(null);
  const [captureType, setCaptureType] = useState<CaptureType | ''>('UPLOAD');
  const [coords, setCoords] = useState<CoordinatesValue>({ ok: true, value: undefined });
  const upload = useOmniMutation((api, input: Parameters<typeof api.capture.addFace>[0]) => api.capture.addFace(input));
  const send = (e?: FormEvent) => {
    e?.preventDefault();
    if (!image || !coords.ok || disabledReason) return;
    upload.mutate({
      interviewId,
      image,
      ...(captureType ? { captureType } : {}),
      ...(coords.value ? { faceCoordinates: coords.value } : {}),
    });
  };
  return (
    <>
      <form onSubmit={send} className="capture-form">
        <ImageSourceInput onChange={setImage} />
        <CaptureTypeSelect value={captureType} onChange={setCaptureType} />
        <CoordinatesInput onChange={setCoords} />
        <SendRow
          label={upload.isPending ? t('sending') : t('sendSelfie')}
          ready={!!image && coords.ok && !upload.isPending}
          disabledReason={disabledReason}
        />
      </form>
      <ToolOutcome
        pending={upload.isPending}
        refusal={!!upload.error && <Refusal error={upload.error.data} onRetry={() => send()} />}
        result={!!upload.data && <FaceResult result={upload.data} />}
        nothing={t('selfieNothing')}
      />
    </>
  );
}

function FaceResult({ result }: { result: FaceResultView }) {
  const t = useT(messages);
  return (
    <div className="capture-result" data-testid="selfie-result">
      <p className="capture-headline">
        <RecaptureHeadline recapture={result.recapture} />
      </p>
      <AttemptsLine attempts={result.attempts} />
      <IndicatorsTable indicators={result.indicators} caption={t('indicators')} />
      <ServiceAnswerView answer={result.answer} />
    </div>
  );
}

/** Which documented rule a refusal names, from the service's error details. */
function refusalRule(error: IpcErrorData): 'front' | 'passport' | 'finished' | undefined {
  const details = (error.details?.serviceDetails ?? {}) as Record<string, unknown>;
  if (details.idProcessingFinished === true) return 'finished';
  if (details.frontUploaded === false) return 'front';
  if (details.typeOfId === 'Passport') return 'passport';
  const text = `${String(error.details?.serviceMessage ?? '')}`.toLowerCase();
  if (text.includes('passport')) return 'passport';
  if (text.includes('front')) return 'front';
  if (text.includes('processing')) return 'finished';
  return undefined;
}

function BackIdRules({ applied }: { applied: ReturnType<typeof refusalRule> }) {
  const t = useT(messages);
  const rules = [
    ['front', t('ruleFront')],
    ['passport', t('ruleNotPassport')],
    ['finished', t('ruleFinished')],
  ] as const;
  return (
    <div className="rules" data-testid="backid-rules">
      <h3>{t('rulesTitle')}</h3>
      <ul>
        {rules.map(([key, text]) => (
          <li
            key={key}
            className={applied === key ? 'rule-applied' : undefined}
            data-applied={applied === key || undefined}
          >
            {applied === key && (
              <>
                <IconWarning /> <strong>{t('ruleApplied')}:</strong>{' '}
              </>
            )}
            {text}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function BackIdTool({ interviewId, disabledReason }: { interviewId: string; disabledReason: string | null }) {
  const t = useT(messages);
  const [image, setImage] = useState<ImageSource | null>(null);
  const [captureType, setCaptureType] = useState<CaptureType | ''>('UPLOAD');
  const upload = useOmniMutation((api, input: Parameters<typeof api.capture.addBackSecondId>[0]) =>
    api.capture.addBackSecondId(input),
  );
  const send = (e?: FormEvent) => {
    e?.preventDefault();
    if (!image || disabledReason) return;
    upload.mutate({ interviewId, image, ...(captureType ? { captureType } : {}) });
  };
  return (
    <>
      <form onSubmit={send} className="capture-form">
        <ImageSourceInput onChange={setImage} />
        <CaptureTypeSelect value={captureType} onChange={setCaptureType} />
        <SendRow
          label={upload.isPending ? t('sending') : t('sendBackId')}
          ready={!!image && !upload.isPending}
          disabledReason={disabledReason}
        />
      </form>
      <ToolOutcome
        pending={upload.isPending}
        refusal={
          !!upload.error && (
            <Refusal error={upload.error.data} onRetry={() => send()}>
              {upload.error.data.httpStatus === 400 && <BackIdRules applied={refusalRule(upload.error.data)} />}
            </Refusal>
          )
        }
        result={!!upload.data && <BackIdResult result={upload.data} />}
        nothing={t('backIdNothing')}
      />
    </>
  );
}

function BackIdResult({ result }: { result: BackIdResultView }) {
  const t = useT(messages);
  const pick = useBilingual();
  const quality = result.indicators.filter((i) => QUALITY_FIELDS.includes(i.field));
  const document = result.indicators.filter((i) => DOCUMENT_FIELDS.includes(i.field));
  const flow = result.indicators.filter((i) => !QUALITY_FIELDS.includes(i.field) && !DOCUMENT_FIELDS.includes(i.field));
  const accepted = result.response.acceptedDocuments;
  return (
    <div className="capture-result" data-testid="backid-result">
      <p className="capture-headline">
        <RecaptureHeadline recapture={result.recapture} />
      </p>
      <AttemptsLine attempts={result.attempts} />
      {result.failReason && (
        <div className="explain explain-fail" role="alert" data-testid="fail-reason">
          <p className="explain-group">
            <IconDanger /> {t('failReason')}
          </p>
          <p className="what">{pick(result.failReason.message)}</p>
          <p>{pick(result.failReason.advice)}</p>
          <p className="code">{t('code', { code: result.failReason.code })}</p>
        </div>
      )}
      {accepted && accepted.length > 0 && (
        <div className="accepted" data-testid="accepted-documents">
          <h3>{t('acceptedDocuments')}</h3>
          <ul>
            {accepted.map((d) => (
              <li key={d} className="mono">
                {d}
              </li>
            ))}
          </ul>
        </div>
      )}
      <IndicatorsTable indicators={quality} caption={t('groupQuality')} />
      <IndicatorsTable indicators={document} caption={t('groupDocument')} />
      <IndicatorsTable indicators={flow} caption={t('groupFlow')} />
      <ServiceAnswerView answer={result.answer} />
    </div>
  );
}
