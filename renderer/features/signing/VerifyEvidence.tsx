import { type FormEvent, useRef, useState } from 'react';
import type { IpcErrorData } from '../../../common/ipc/define';
import { useOmniMutation } from '../../api/index';
import { Button, ErrorNotice, FileField } from '../../ui/index';
import { fileReadError, type LoadedFile, readFileBase64, textToBase64 } from './files';
import { VerificationResult } from './VerificationResult';
import { MAX_VERIFY_FILE_BYTES } from '../../../common/ipc/nom151';
import { ActionResult, type T } from './parts';

export function VerifyEvidence({ t }: { t: T }) {
  const [evidence, setEvidence] = useState<LoadedFile | null>(null);
  const [document, setDocument] = useState<LoadedFile | null>(null);
  const [documentText, setDocumentText] = useState('');
  const [touched, setTouched] = useState(false);
  const [readError, setReadError] = useState<IpcErrorData | null>(null);
  type VerifyInput = { evidence: { name: string; base64: string }; document?: { name: string; base64: string } };
  const verify = useOmniMutation((api, input: VerifyInput) => api.nom151.verify(input));
  const last = useRef<VerifyInput | null>(null);

  const load = (set: (f: LoadedFile | null) => void) => async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_VERIFY_FILE_BYTES) {
      setReadError({
        code: 'FILE_TOO_LARGE',
        message: {
          en: `${file.name} is larger than 20 MB, the most this screen checks.`,
          es: `${file.name} pesa más de 20 MB, el máximo que verifica esta pantalla.`,
        },
        advice: {
          en: 'Check it with OpenSSL instead (see the NOM-151 guide), or ask for the evidence without the embedded document.',
          es: 'Verifícalo con OpenSSL (consulta la guía NOM-151), o solicita la constancia sin el documento incrustado.',
        },
      });
      return;
    }
    try {
      setReadError(null);
      set(await readFileBase64(file));
    } catch {
      setReadError(fileReadError(file.name));
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!evidence) return;
    const doc = document
      ? { name: document.name, base64: document.base64 }
      : documentText.length > 0
        ? { name: 'texto.txt', base64: textToBase64(documentText) }
        : undefined;
    last.current = { evidence: { name: evidence.name, base64: evidence.base64 }, ...(doc ? { document: doc } : {}) };
    verify.mutate(last.current);
  };

  return (
    <section className="panel signing-verify" aria-labelledby="nom-verify-title">
      <div className="panel-header">
        <h2 id="nom-verify-title">{t('verifyTitle')}</h2>
      </div>
      <p className="muted">{t('verifyIntro')}</p>
      <form onSubmit={submit} noValidate>
        <FileField
          label={t('evidenceFile')}
          hint={t('evidenceFileHint')}
          file={evidence}
          testId="nom-evidence-name"
          accept=".tsr,.tst,.asn1,.der,.p7s,.txt,.b64,.pdf,application/pdf"
          onFile={load(setEvidence)}
          onClear={() => setEvidence(null)}
          error={touched && !evidence ? t('evidenceMissing') : undefined}
        />
        <FileField
          label={t('documentFile')}
          hint={t('documentFileHint')}
          file={document}
          testId="nom-document-name"
          onFile={load(setDocument)}
          onClear={() => setDocument(null)}
        />
        {!document && (
          <div className="field">
            <label htmlFor="nom-document-text">{t('documentText')}</label>
            <textarea
              id="nom-document-text"
              className="input nom-textarea"
              rows={2}
              value={documentText}
              onChange={(e) => setDocumentText(e.target.value)}
              aria-describedby="nom-document-text-hint"
            />
            <span id="nom-document-text-hint" className="hint">
              {t('documentTextHint')}
            </span>
          </div>
        )}
        {readError && <ErrorNotice error={readError} />}
        <Button type="submit" variant="primary" disabled={verify.isPending}>
          {verify.isPending ? t('verifying') : t('verifyButton')}
        </Button>
      </form>
      <ActionResult state={verify} empty={t('verifyEmpty')} onRetry={() => last.current && verify.mutate(last.current)}>
        {(data) => <VerificationResult result={data} />}
      </ActionResult>
    </section>
  );
}
