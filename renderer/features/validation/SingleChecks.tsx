import { useId, useMemo, type FormEvent, type ReactNode } from 'react';
import type { IpcErrorData } from '../../../common/ipc/define';
import type { CurpFailureView, CurpResultView, RfcResultView } from '../../../common/ipc/validation';
import { normalizeCurp } from '../../../common/rules/curp';
import { describeCurp, describeRfc, type LocalCheck } from '../../../common/rules/local-check';
import { invisibleCharacters, normalizeRfc } from '../../../common/rules/rfc';
import { useOmniMutation } from '../../api/index';
import { useTechnicalDetails } from '../../api/preferences';
import { useQueueList } from '../../api/queue';
import { common } from '../../i18n/common';
import { useBilingual, useT, type Translate } from '../../i18n/index';
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
import { hasSessionToken, InterviewPicker } from '../capture/InterviewPicker';
import { messages } from './messages';
import '../capture/explain.css';

type Messages = (typeof messages)['en'];
type T = Translate<Messages>;

/** The value with the offending character marked, and what is wrong, updated on every keystroke. */
function LocalCheckLine({ check, id }: { check: LocalCheck; id: string }) {
  const t = useT(messages);
  const pick = useBilingual();
  if (check.valid) {
    return (
      <div id={id}>
        <p className="local-check local-ok" data-testid="local-check">
          <IconCheck /> <strong>{t('localOk')}:</strong> {pick(check.summary)}
        </p>
        {check.warning && (
          <p className="local-check local-warning" data-testid="local-warning">
            <IconWarning /> <strong>{t('localWarning')}:</strong> {pick(check.warning.message)}
            <Marked value={check.value} at={check.warning.position} />
          </p>
        )}
      </div>
    );
  }
  return (
    <p id={id} className="local-check local-problem" data-testid="local-check">
      <IconWarning /> <strong>{t('localProblem')}:</strong> {pick(check.message)}
      <Marked value={check.value} at={check.position} />
    </p>
  );
}

/**
 * Invisible characters that came with a paste: the check and the send leave them out (normalizeRfc / normalizeCurp),
 * and this says so, so that the count on screen matches what the user sees.
 */
export function InvisibleNote({ value }: { value: string }) {
  const t = useT(messages);
  const codes = useMemo(() => invisibleCharacters(value), [value]);
  if (codes.length === 0) return null;
  return (
    <p className="local-check local-warning" data-testid="local-invisible">
      <IconInfo /> <span className="local-text">{t('invisibleRemoved', { codes: codes.join(', ') })}</span>
    </p>
  );
}

/** The value as read, its character at `at` marked (the message names it, so this is for the eye only). */
function Marked({ value, at }: { value: string; at: number | undefined }) {
  if (at === undefined || value.length <= at) return null;
  return (
    <span className="local-marked mono" aria-hidden="true">
      {value.slice(0, at)}
      <mark>{value[at]}</mark>
      {value.slice(at + 1)}
    </span>
  );
}

/** Every field of a service answer, known or not, in a two-column table. */
export function ResponseFields({ response, t }: { response: Record<string, unknown>; t: T }) {
  const entries = Object.entries(response);
  return (
    <table className="table response-fields">
      <caption className="visually-hidden">{t('responseFields')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('field')}</th>
          <th scope="col">{t('value')}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([field, value]) => (
          <tr key={field}>
            <th scope="row" className="mono">
              {field}
            </th>
            <td className="mono">
              {value === null || value === undefined || value === '' ? (
                <span className="muted">{t('empty')}</span>
              ) : typeof value === 'object' ? (
                JSON.stringify(value)
              ) : (
                String(value)
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type Kind = 'rfc' | 'curp';

/** What differs between the RFC and the CURP check: texts, how long an input may be, and the local rules. */
const KINDS = {
  rfc: {
    label: 'rfcLabel',
    hint: 'rfcHint',
    validate: 'rfcValidate',
    nothingYet: 'nothingYet',
    // Room for the spaces, hyphens and dots people write (GODE 561231 GR8); sent without them.
    maxLength: 24,
    describe: describeRfc,
  },
  curp: {
    label: 'curpLabel',
    hint: 'curpHint',
    validate: 'curpValidate',
    nothingYet: 'curpNothingYet',
    maxLength: 30,
    describe: describeCurp,
  },
} as const satisfies Record<
  Kind,
  {
    label: keyof Messages;
    hint: keyof Messages;
    validate: keyof Messages;
    nothingYet: keyof Messages;
    maxLength: number;
    describe: (value: string) => LocalCheck;
  }
>;

/**
 * One code typed by hand, checked locally on every keystroke, then sent to the service. `blocked` (no usable
 * interview) disables both sending paths; `blockedNote` says why.
 */
function SingleCheckForm({
  kind,
  value,
  onChange,
  onSend,
  pending,
  blocked = false,
  blockedNote,
}: {
  kind: Kind;
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  pending: boolean;
  blocked?: boolean;
  blockedNote?: ReactNode;
}) {
  const t = useT(messages);
  const id = useId();
  const spec = KINDS[kind];
  const check = useMemo(() => spec.describe(value), [spec, value]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSend();
  };
  return (
    <form onSubmit={submit} className="single-form">
      <div className="field">
        <label htmlFor={`${id}-input`}>{t(spec.label)}</label>
        <input
          id={`${id}-input`}
          className="input mono upper"
          value={value}
          maxLength={spec.maxLength}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={value !== '' && !check.valid ? true : undefined}
          aria-describedby={`${id}-hint ${id}-check`}
          onChange={(e) => onChange(e.target.value)}
        />
        <span id={`${id}-hint`} className="hint">
          {t(spec.hint)}
        </span>
      </div>
      <InvisibleNote value={value} />
      {value !== '' && <LocalCheckLine check={check} id={`${id}-check`} />}
      <div className="form-actions">
        <Button type="submit" variant="primary" disabled={!check.valid || blocked || pending}>
          {t(spec.validate)}
        </Button>
        {value.trim() !== '' && !check.valid && !blocked && (
          <Button variant="link" onClick={onSend} disabled={pending}>
            {t('sendAnyway')}
          </Button>
        )}
        {blockedNote}
      </div>
    </form>
  );
}

/** The service's answer, its error (with a retry when retrying may help), or what to do first. */
function SingleCheckAnswer({
  kind,
  pending,
  error,
  onRetry,
  children,
}: {
  kind: Kind;
  pending: boolean;
  error: IpcErrorData | undefined;
  onRetry: () => void;
  children: ReactNode;
}) {
  const t = useT(messages);
  return (
    <div aria-live="polite" aria-busy={pending || undefined}>
      {error ? (
        <ErrorNotice error={error} onRetry={error.retryable ? onRetry : undefined} />
      ) : (
        (children ?? (!pending && <p className="panel-empty">{t(KINDS[kind].nothingYet)}</p>))
      )}
    </div>
  );
}

export function RfcTool() {
  const t = useT(messages);
  const id = useId();
  // Kept through leaving the screen until the service answers (a failed check leaves it to send again).
  const [rfc, setRfc, forget] = useKeptState('validation.rfc', '');
  const validate = useOmniMutation((api, value: string) => api.validation.validateRfc({ rfc: value }), {
    onSuccess: () => forget(),
  });
  const send = () => {
    // As the local check read it: without the spaces, hyphens and dots people write.
    const value = normalizeRfc(rfc);
    if (value) validate.mutate(value);
  };
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('rfcTitle')}</h2>
      <SingleCheckForm kind="rfc" value={rfc} onChange={setRfc} onSend={send} pending={validate.isPending} />
      <SingleCheckAnswer kind="rfc" pending={validate.isPending} error={validate.error?.data} onRetry={send}>
        {validate.data ? <RfcResult result={validate.data} t={t} /> : null}
      </SingleCheckAnswer>
    </section>
  );
}

function RfcResult({ result, t }: { result: RfcResultView; t: T }) {
  const valid = result.response.validRFC;
  return (
    <div className="single-result" data-testid="rfc-result">
      <p>
        {valid ? (
          <Badge tone="ok" icon={<IconCheck />}>
            {t('rfcValid')}
          </Badge>
        ) : (
          <Badge tone="danger" icon={<IconDanger />}>
            {t('rfcNotFound')}
          </Badge>
        )}{' '}
        <code>{result.rfc}</code>
      </p>
      <ResponseFields response={result.response} t={t} />
      <ServiceAnswerView answer={result.answer} />
    </div>
  );
}

export function CurpTool({
  interviewId,
  onInterviewChange,
  onChecked,
}: {
  interviewId: string;
  onInterviewChange: (id: string) => void;
  /** The service answered a check: what was kept for it (the interview chosen) may go. */
  onChecked?: () => void;
}) {
  const t = useT(messages);
  const id = useId();
  // Kept through leaving the screen until the service answers, as the interview it goes with.
  const [curp, setCurp, forget] = useKeptState(`validation.curp.${useEnvironmentScope()}`, '');
  const queue = useQueueList();
  const tokenReady = hasSessionToken(queue.data, interviewId);
  const validate = useOmniMutation(
    (api, input: { interviewId: string; curp: string }) => api.validation.addCurp(input),
    {
      onSuccess: () => {
        forget();
        onChecked?.();
      },
    },
  );
  const send = () => {
    const value = normalizeCurp(curp);
    if (value && tokenReady) validate.mutate({ interviewId, curp: value });
  };
  const disabledReason = !interviewId ? t('reasonNoInterview') : !tokenReady ? t('reasonNoToken') : null;
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('curpTitle')}</h2>
      <InterviewPicker value={interviewId} onChange={onInterviewChange} />
      <SingleCheckForm
        kind="curp"
        value={curp}
        onChange={setCurp}
        onSend={send}
        pending={validate.isPending}
        blocked={!tokenReady}
        blockedNote={
          disabledReason && (
            <span className="muted small" data-testid="curp-disabled">
              {t('needsToken', { reason: disabledReason })}
            </span>
          )
        }
      />
      <SingleCheckAnswer kind="curp" pending={validate.isPending} error={validate.error?.data} onRetry={send}>
        {validate.data ? (
          <CurpResult result={validate.data} onRetry={send} retrying={validate.isPending} t={t} />
        ) : null}
      </SingleCheckAnswer>
    </section>
  );
}

/** The provider's reference for a failed check (`error.referencia`), which support asks for; none when absent. */
function referenceOf(response: CurpResultView['response']): string | undefined {
  const reference = response.error?.referencia;
  return typeof reference === 'string' && reference.trim() !== '' ? reference.trim() : undefined;
}

export function groupLabel(failure: Pick<CurpFailureView, 'group' | 'retryable'>, t: T): string {
  if (failure.group === 1) return t('group1');
  if (failure.group === 2) return t('group2');
  if (failure.group === 3) return t('group3');
  return failure.retryable ? t('providerRetry') : t('providerNoRetry');
}

export function CurpResult({
  result,
  onRetry,
  retrying,
  t,
}: {
  result: CurpResultView;
  onRetry: () => void;
  retrying: boolean;
  t: T;
}) {
  const pick = useBilingual();
  const words = useT(common);
  const technical = useTechnicalDetails();
  const failure = result.failure;
  // A confirmation RENAPO states outright, or a failure the catalog explains, says all the field table would: the table
  // is then a technical detail. Anything else (a success without renapo_valid, or with an error) keeps it in view,
  // the only account of what the service said (red team 23).
  const confirmedOutright = result.valid && result.response.renapo_valid === true && result.response.error == null;
  const explained = confirmedOutright || failure !== undefined;
  const serviceResult = typeof result.response.result === 'string' ? result.response.result.trim() : '';
  const reference = referenceOf(result.response);
  return (
    <div className="single-result" data-testid="curp-result">
      <p>
        {result.valid ? (
          <Badge tone="ok" icon={<IconCheck />}>
            {t('curpValid')}
          </Badge>
        ) : (
          <Badge tone="danger" icon={<IconDanger />}>
            {t('curpInvalid')}
          </Badge>
        )}{' '}
        <code>{result.curp}</code>
      </p>
      {failure && (
        <div className={`explain explain-group-${failure.group ?? 'provider'}`} role="alert">
          <p className="explain-group">
            {failure.retryable ? <IconInfo /> : failure.group === 1 ? <IconWarning /> : <IconDanger />}{' '}
            {groupLabel(failure, t)}
          </p>
          <p className="what">{pick(failure.message)}</p>
          <p>{pick(failure.advice)}</p>
          {failure.retryable && (
            <Button onClick={onRetry} disabled={retrying}>
              {t('retry')}
            </Button>
          )}
          <p className="code">
            {t('code', { code: failure.code })}
            {reference && <> · {t('reference', { reference })}</>}
          </p>
        </div>
      )}
      {/* The service's own sentence stays in view whatever the table does: it may say what the badge does not. */}
      {confirmedOutright && serviceResult && !technical && (
        <p className="small muted" data-testid="curp-service-result">
          {words('serviceSaid', { message: serviceResult })}
        </p>
      )}
      {(technical || !explained) && <ResponseFields response={result.response} t={t} />}
      <ServiceAnswerView answer={result.answer} />
    </div>
  );
}
