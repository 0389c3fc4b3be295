import { useId, useMemo, useState, type FormEvent } from 'react';
import type { CurpFailureView, CurpResultView, RfcResultView } from '../../../preload/contract/validation';
import { describeCurp, describeRfc, type LocalCheck } from '../../../main/validation/local-check';
import { useOmniMutation } from '../../api/index';
import { useBilingual, useT, type Translate } from '../../i18n/index';
import { Badge, Button, ErrorNotice, IconCheck, IconDanger, IconInfo, IconWarning } from '../../ui/index';
import { hasSessionToken, InterviewPicker, useQueueEntries } from '../capture/InterviewPicker';
import { messages } from './messages';
import '../capture/explain.css';

type T = Translate<(typeof messages)['en']>;

/** The value with the offending character marked, and what is wrong, updated on every keystroke. */
function LocalCheckLine({ check, id }: { check: LocalCheck; id: string }) {
  const t = useT(messages);
  const pick = useBilingual();
  if (check.valid) {
    return (
      <p id={id} className="local-check local-ok" data-testid="local-check">
        <IconCheck /> <strong>{t('localOk')}:</strong> {pick(check.summary)}
      </p>
    );
  }
  const at = check.position;
  return (
    <p id={id} className="local-check local-problem" data-testid="local-check">
      <IconWarning /> <strong>{t('localProblem')}:</strong> {pick(check.message)}
      {at !== undefined && check.value.length > at && (
        <span className="local-marked mono" aria-hidden="true">
          {check.value.slice(0, at)}
          <mark>{check.value[at]}</mark>
          {check.value.slice(at + 1)}
        </span>
      )}
    </p>
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
            <th scope="row" className="mono">{field}</th>
            <td className="mono">{value === null || value === undefined || value === '' ? <span className="muted">{t('empty')}</span> : typeof value === 'object' ? JSON.stringify(value) : String(value)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function RfcTool() {
  const t = useT(messages);
  const id = useId();
  const [rfc, setRfc] = useState('');
  const check = useMemo(() => describeRfc(rfc), [rfc]);
  const validate = useOmniMutation((api, value: string) => api.validation.validateRfc({ rfc: value }));
  const send = (e?: FormEvent) => {
    e?.preventDefault();
    if (rfc.trim()) validate.mutate(rfc.trim());
  };
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('rfcTitle')}</h2>
      <form onSubmit={send} className="single-form">
        <div className="field">
          <label htmlFor={`${id}-input`}>{t('rfcLabel')}</label>
          <input
            id={`${id}-input`}
            className="input mono upper"
            value={rfc}
            maxLength={20}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={rfc !== '' && !check.valid ? true : undefined}
            aria-describedby={`${id}-hint ${id}-check`}
            onChange={(e) => setRfc(e.target.value)}
          />
          <span id={`${id}-hint`} className="hint">{t('rfcHint')}</span>
        </div>
        {rfc !== '' && <LocalCheckLine check={check} id={`${id}-check`} />}
        <div className="form-actions">
          <Button type="submit" variant="primary" disabled={!check.valid || validate.isPending}>{t('rfcValidate')}</Button>
          {rfc.trim() !== '' && !check.valid && (
            <Button variant="link" onClick={() => send()} disabled={validate.isPending}>{t('sendAnyway')}</Button>
          )}
        </div>
      </form>
      <div aria-live="polite" aria-busy={validate.isPending || undefined}>
        {validate.error ? (
          <ErrorNotice error={validate.error.data} onRetry={validate.error.data.retryable ? () => send() : undefined} />
        ) : validate.data ? (
          <RfcResult result={validate.data} t={t} />
        ) : (
          !validate.isPending && <p className="panel-empty">{t('nothingYet')}</p>
        )}
      </div>
    </section>
  );
}

function RfcResult({ result, t }: { result: RfcResultView; t: T }) {
  const valid = result.response.validRFC;
  return (
    <div className="single-result" data-testid="rfc-result">
      <p>
        {valid ? <Badge tone="ok" icon={<IconCheck />}>{t('rfcValid')}</Badge> : <Badge tone="danger" icon={<IconDanger />}>{t('rfcNotFound')}</Badge>}{' '}
        <code>{result.rfc}</code>
      </p>
      <ResponseFields response={result.response} t={t} />
    </div>
  );
}

export function CurpTool({ interviewId, onInterviewChange }: { interviewId: string; onInterviewChange: (id: string) => void }) {
  const t = useT(messages);
  const id = useId();
  const [curp, setCurp] = useState('');
  const check = useMemo(() => describeCurp(curp), [curp]);
  const queue = useQueueEntries();
  const tokenReady = hasSessionToken(queue.data, interviewId);
  const validate = useOmniMutation((api, input: { interviewId: string; curp: string }) => api.validation.addCurp(input));
  const send = (e?: FormEvent) => {
    e?.preventDefault();
    if (curp.trim() && tokenReady) validate.mutate({ interviewId, curp: curp.trim() });
  };
  const disabledReason = !interviewId ? t('reasonNoInterview') : !tokenReady ? t('reasonNoToken') : null;
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('curpTitle')}</h2>
      <InterviewPicker value={interviewId} onChange={onInterviewChange} />
      <form onSubmit={send} className="single-form">
        <div className="field">
          <label htmlFor={`${id}-input`}>{t('curpLabel')}</label>
          <input
            id={`${id}-input`}
            className="input mono upper"
            value={curp}
            maxLength={30}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={curp !== '' && !check.valid ? true : undefined}
            aria-describedby={`${id}-hint ${id}-check`}
            onChange={(e) => setCurp(e.target.value)}
          />
          <span id={`${id}-hint`} className="hint">{t('curpHint')}</span>
        </div>
        {curp !== '' && <LocalCheckLine check={check} id={`${id}-check`} />}
        <div className="form-actions">
          <Button type="submit" variant="primary" disabled={!check.valid || !tokenReady || validate.isPending}>{t('curpValidate')}</Button>
          {curp.trim() !== '' && !check.valid && tokenReady && (
            <Button variant="link" onClick={() => send()} disabled={validate.isPending}>{t('sendAnyway')}</Button>
          )}
          {disabledReason && <span className="muted small" data-testid="curp-disabled">{t('needsToken', { reason: disabledReason })}</span>}
        </div>
      </form>
      <div aria-live="polite" aria-busy={validate.isPending || undefined}>
        {validate.error ? (
          <ErrorNotice error={validate.error.data} onRetry={validate.error.data.retryable ? () => send() : undefined} />
        ) : validate.data ? (
          <CurpResult result={validate.data} onRetry={() => send()} retrying={validate.isPending} t={t} />
        ) : (
          !validate.isPending && <p className="panel-empty">{t('curpNothingYet')}</p>
        )}
      </div>
    </section>
  );
}

export function groupLabel(failure: Pick<CurpFailureView, 'group' | 'retryable'>, t: T): string {
  if (failure.group === 1) return t('group1');
  if (failure.group === 2) return t('group2');
  if (failure.group === 3) return t('group3');
  return failure.retryable ? t('providerRetry') : t('providerNoRetry');
}

function CurpResult({ result, onRetry, retrying, t }: { result: CurpResultView; onRetry: () => void; retrying: boolean; t: T }) {
  const pick = useBilingual();
  const failure = result.failure;
  return (
    <div className="single-result" data-testid="curp-result">
      <p>
        {result.valid ? <Badge tone="ok" icon={<IconCheck />}>{t('curpValid')}</Badge> : <Badge tone="danger" icon={<IconDanger />}>{t('curpInvalid')}</Badge>}{' '}
        <code>{result.curp}</code>
      </p>
      {failure && (
        <div className={`explain explain-group-${failure.group ?? 'provider'}`} role="alert">
          <p className="explain-group">
            {failure.retryable ? <IconInfo /> : failure.group === 1 ? <IconWarning /> : <IconDanger />} {groupLabel(failure, t)}
          </p>
          <p className="what">{pick(failure.message)}</p>
          <p>{pick(failure.advice)}</p>
          {failure.retryable && <Button onClick={onRetry} disabled={retrying}>{t('retry')}</Button>}
          <p className="code">{t('code', { code: failure.code })}</p>
        </div>
      )}
      <ResponseFields response={result.response} t={t} />
    </div>
  );
}
