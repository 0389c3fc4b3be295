import { type FormEvent, useRef, useState } from 'react';
import { SIGN_TEXT_MAX, type SignStringView } from '../../../common/ipc/nom151';
import { useOmniMutation } from '../../api/index';
import { useBilingual, useFormat } from '../../i18n/index';
import {
  Button,
  readTextFile,
  ServiceAnswerView,
  textFileProblemWords,
  useKeptState,
  type TextFileProblem,
} from '../../ui/index';
import { VerificationResult } from './VerificationResult';
import { ActionResult, SaveButtons, type T } from './parts';

export function SignString({ t }: { t: T }) {
  const format = useFormat();
  const pick = useBilingual();
  // The text and the last signature outlive the screen (leaving Signing lost both: the evidence of a signature, and
  // the text typed before a failure); for this session, as every form's draft is.
  const [text, setText] = useKeptState('signing.text', '');
  const [signed, setSigned] = useKeptState<SignStringView | undefined>('signing.signed', undefined);
  const [loadedFrom, setLoadedFrom] = useState<{ name: string; size: number } | null>(null);
  const [fileProblem, setFileProblem] = useState<TextFileProblem | null>(null);
  const [touched, setTouched] = useState(false);
  const sign = useOmniMutation((api, input: { text: string }) => api.nom151.signString(input), {
    onSuccess: (data) => setSigned(data),
  });
  const last = useRef<string | null>(null);

  // Checked before it is read whole: a 70 MB file froze the page for 26 s, a picture went in as mojibake (red team 20).
  const loadFile = async (file: File | undefined) => {
    if (!file) return;
    const read = await readTextFile(file, SIGN_TEXT_MAX);
    if (!read.ok) {
      setFileProblem(read.problem);
      return;
    }
    setFileProblem(null);
    setText(read.text);
    setLoadedFrom({ name: file.name, size: file.size });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (text.length === 0) return;
    last.current = text;
    sign.mutate({ text });
  };

  return (
    <section className="panel signing-string" aria-labelledby="nom-sign-title">
      <div className="panel-header">
        <h2 id="nom-sign-title">{t('signTitle')}</h2>
      </div>
      <p className="muted">{t('signIntro')}</p>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="nom-sign-text">{t('textLabel')}</label>
          <textarea
            id="nom-sign-text"
            className="input nom-textarea"
            rows={5}
            value={text}
            aria-invalid={touched && text.length === 0 ? true : undefined}
            aria-describedby={touched && text.length === 0 ? 'nom-sign-text-error' : undefined}
            onChange={(e) => {
              setText(e.target.value);
              setLoadedFrom(null);
            }}
          />
          {touched && text.length === 0 && (
            <span id="nom-sign-text-error" className="field-error" role="alert">
              {t('textEmpty')}
            </span>
          )}
          {loadedFrom && (
            <span className="hint">
              {t('loadedFrom', { name: loadedFrom.name, size: format.bytes(loadedFrom.size) })}
            </span>
          )}
          {fileProblem && (
            <span className="field-error" role="alert" data-testid="sign-file-problem">
              {pick(textFileProblemWords(fileProblem))}
            </span>
          )}
        </div>
        <div className="nom-row">
          <label className="btn nom-file-button">
            {t('loadTextFile')}
            <input
              type="file"
              className="visually-hidden"
              accept=".txt,.json,.xml,.csv,text/*"
              onChange={(e) => {
                void loadFile(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
          </label>
          <Button type="submit" variant="primary" disabled={sign.isPending}>
            {sign.isPending ? t('signing') : t('signButton')}
          </Button>
        </div>
      </form>
      <ActionResult
        state={{ isPending: sign.isPending, error: sign.error, data: sign.data ?? signed }}
        empty={t('signEmpty')}
        onRetry={() => last.current !== null && sign.mutate({ text: last.current })}
      >
        {(data: SignStringView) => (
          <>
            <VerificationResult result={data.verification} folio={data.folio} givenDocumentLabel={t('docSignedText')} />
            <SaveButtons t={t} artifactId={data.artifactId} available={data.available} />
            <ServiceAnswerView answer={data.answer} />
          </>
        )}
      </ActionResult>
    </section>
  );
}
