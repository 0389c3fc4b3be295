import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { IpcErrorData } from '../../../common/ipc/define';
import type { ArtifactKind, SealContractView, SignStringView, TrustedRootView } from '../../../common/ipc/nom151';
import { keys, useOmniMutation, useOmniQuery, type OmniCallError } from '../../api/index';
import { useFormat, useT, type Translate } from '../../i18n/index';
import { Button, ErrorNotice, Field, FileField, IconCheck, Panel, Skeleton } from '../../ui/index';
import { readFileBase64, startDownload, textToBase64, type LoadedFile } from './files';
import { messages } from './messages';
import { VerificationResult } from './VerificationResult';
import './signing.css';

type T = Translate<(typeof messages)['en']>;

/** Same limit as MAX_VERIFY_FILE_BYTES in preload/contract/nom151.ts (the renderer imports only types from there). */
const MAX_FILE_BYTES = 20 * 1024 * 1024;

/**
 * Signing area: seal contracts, sign strings, verify evidence offline, manage trusted provider roots.
 * The route `/signing?contract=<document id>` opens it with the contract id filled in (links from an interview's contracts).
 */
export default function SigningScreen() {
  const t = useT(messages);
  return (
    <div className="signing">
      <h1>{t('title')}</h1>
      <p className="muted signing-intro">{t('intro')}</p>
      <div className="signing-grid">
        <SealContract t={t} />
        <SignString t={t} />
        <VerifyEvidence t={t} />
        <TrustedRoots t={t} />
      </div>
    </div>
  );
}

/**
 * The four states of an action's result: empty (nothing done yet, and why), loading, error (with retry and
 * code) and data.
 */
function ActionResult<D>({ state, empty, onRetry, children }: {
  state: { isPending: boolean; error: OmniCallError | null; data: D | undefined };
  empty: string;
  onRetry: () => void;
  children: (data: D) => ReactNode;
}) {
  let body: ReactNode;
  if (state.isPending) body = <Skeleton rows={4} />;
  else if (state.error) body = <ErrorNotice error={state.error.data} onRetry={onRetry} />;
  else if (state.data !== undefined) body = children(state.data);
  else body = <p className="panel-empty">{empty}</p>;
  return <div className="nom-action-result" aria-live="polite">{body}</div>;
}

function SealContract({ t }: { t: T }) {
  const [params] = useSearchParams();
  const [contractId, setContractId] = useState(() => params.get('contract') ?? '');
  const [includeSignedDocument, setIncludeSignedDocument] = useState(true);
  const [includeSealedPdf, setIncludeSealedPdf] = useState(true);
  const [touched, setTouched] = useState(false);
  const seal = useOmniMutation((api, input: { signedContractId: string; includeSignedDocument: boolean; includeSealedPdf: boolean }) => api.nom151.sealContract(input));
  const last = useRef<Parameters<typeof seal.mutate>[0] | null>(null);
  const idError = touched && contractId.trim() === '' ? t('contractIdMissing') : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (contractId.trim() === '') return;
    last.current = { signedContractId: contractId.trim(), includeSignedDocument, includeSealedPdf };
    seal.mutate(last.current);
  };

  return (
    <section className="panel signing-seal" aria-labelledby="nom-seal-title">
      <div className="panel-header"><h2 id="nom-seal-title">{t('sealTitle')}</h2></div>
      <p className="muted">{t('sealIntro')}</p>
      <form onSubmit={submit} noValidate>
        <Field label={t('contractId')} hint={t('contractIdHint')} error={idError} mono value={contractId}
          onChange={(e) => setContractId(e.target.value)} autoComplete="off" spellCheck={false} name="signedContractId" />
        <Checkbox checked={includeSignedDocument} onChange={setIncludeSignedDocument} label={t('includeSignedDocument')} hint={t('includeSignedDocumentHint')} />
        <Checkbox checked={includeSealedPdf} onChange={setIncludeSealedPdf} label={t('includeSealedPdf')} hint={t('includeSealedPdfHint')} />
        <Button type="submit" variant="primary" disabled={seal.isPending}>{seal.isPending ? t('sealing') : t('sealButton')}</Button>
      </form>
      <ActionResult state={seal} empty={t('sealEmpty')} onRetry={() => last.current && seal.mutate(last.current)}>
        {(data: SealContractView) => (
          <>
            {data.verification.failure?.code === 'NO_DOCUMENT' && <p className="notice notice-warn">{t('sealWithoutDocument')}</p>}
            <VerificationResult result={data.verification} folio={data.folio} givenDocumentLabel={t('docReturnedContract')} />
            {data.sealedPdfVerification && (
              <details className="nom-secondary">
                <summary>
                  {t('sealedPdfCheck')}: {data.sealedPdfVerification.valid ? t('resultValid') : t('resultInvalid')}
                </summary>
                <VerificationResult result={data.sealedPdfVerification} />
              </details>
            )}
            <SaveButtons t={t} artifactId={data.artifactId} available={data.available} />
          </>
        )}
      </ActionResult>
    </section>
  );
}

function SignString({ t }: { t: T }) {
  const format = useFormat();
  const [text, setText] = useState('');
  const [loadedFrom, setLoadedFrom] = useState<{ name: string; size: number } | null>(null);
  const [touched, setTouched] = useState(false);
  const sign = useOmniMutation((api, input: { text: string }) => api.nom151.signString(input));
  const last = useRef<string | null>(null);

  const loadFile = async (file: File | undefined) => {
    if (!file) return;
    setText(await file.text());
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
      <div className="panel-header"><h2 id="nom-sign-title">{t('signTitle')}</h2></div>
      <p className="muted">{t('signIntro')}</p>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="nom-sign-text">{t('textLabel')}</label>
          <textarea id="nom-sign-text" className="input nom-textarea" rows={5} value={text}
            aria-invalid={touched && text.length === 0 ? true : undefined}
            aria-describedby={touched && text.length === 0 ? 'nom-sign-text-error' : undefined}
            onChange={(e) => { setText(e.target.value); setLoadedFrom(null); }} />
          {touched && text.length === 0 && <span id="nom-sign-text-error" className="field-error" role="alert">{t('textEmpty')}</span>}
          {loadedFrom && <span className="hint">{t('loadedFrom', { name: loadedFrom.name, size: format.bytes(loadedFrom.size) })}</span>}
        </div>
        <div className="nom-row">
          <label className="btn nom-file-button">
            {t('loadTextFile')}
            <input type="file" className="visually-hidden" accept=".txt,.json,.xml,.csv,text/*" onChange={(e) => { void loadFile(e.target.files?.[0]); e.target.value = ''; }} />
          </label>
          <Button type="submit" variant="primary" disabled={sign.isPending}>{sign.isPending ? t('signing') : t('signButton')}</Button>
        </div>
      </form>
      <ActionResult state={sign} empty={t('signEmpty')} onRetry={() => last.current !== null && sign.mutate({ text: last.current })}>
        {(data: SignStringView) => (
          <>
            <VerificationResult result={data.verification} folio={data.folio} givenDocumentLabel={t('docSignedText')} />
            <SaveButtons t={t} artifactId={data.artifactId} available={data.available} />
          </>
        )}
      </ActionResult>
    </section>
  );
}

function VerifyEvidence({ t }: { t: T }) {
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
    if (file.size > MAX_FILE_BYTES) {
      setReadError({
        code: 'FILE_TOO_LARGE',
        message: { en: `${file.name} is larger than 20 MB, the most this screen checks.`, es: `${file.name} pesa más de 20 MB, el máximo que verifica esta pantalla.` },
        advice: { en: 'Check it with OpenSSL instead (see the NOM-151 guide), or ask for the evidence without the embedded document.', es: 'Verifícalo con OpenSSL (consulta la guía NOM-151), o solicita la constancia sin el documento incrustado.' },
      });
      return;
    }
    try {
      setReadError(null);
      set(await readFileBase64(file));
    } catch {
      setReadError({
        code: 'FILE_READ',
        message: { en: `The file ${file.name} could not be read.`, es: `No se pudo leer el archivo ${file.name}.` },
        advice: { en: 'Check that it still exists and that you can open it, then choose it again.', es: 'Verifica que aún exista y que puedas abrirlo, y vuelve a elegirlo.' },
      });
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
      <div className="panel-header"><h2 id="nom-verify-title">{t('verifyTitle')}</h2></div>
      <p className="muted">{t('verifyIntro')}</p>
      <form onSubmit={submit} noValidate>
        <FileField label={t('evidenceFile')} hint={t('evidenceFileHint')} file={evidence} testId="nom-evidence-name"
          accept=".tsr,.tst,.asn1,.der,.p7s,.txt,.b64,.pdf,application/pdf" onFile={load(setEvidence)} onClear={() => setEvidence(null)}
          error={touched && !evidence ? t('evidenceMissing') : undefined} />
        <FileField label={t('documentFile')} hint={t('documentFileHint')} file={document} testId="nom-document-name"
          onFile={load(setDocument)} onClear={() => setDocument(null)} />
        {!document && (
          <div className="field">
            <label htmlFor="nom-document-text">{t('documentText')}</label>
            <textarea id="nom-document-text" className="input nom-textarea" rows={2} value={documentText} onChange={(e) => setDocumentText(e.target.value)} aria-describedby="nom-document-text-hint" />
            <span id="nom-document-text-hint" className="hint">{t('documentTextHint')}</span>
          </div>
        )}
        {readError && <ErrorNotice error={readError} />}
        <Button type="submit" variant="primary" disabled={verify.isPending}>{verify.isPending ? t('verifying') : t('verifyButton')}</Button>
      </form>
      <ActionResult state={verify} empty={t('verifyEmpty')} onRetry={() => last.current && verify.mutate(last.current)}>
        {(data) => <VerificationResult result={data} />}
      </ActionResult>
    </section>
  );
}

function TrustedRoots({ t }: { t: T }) {
  const format = useFormat();
  const roots = useOmniQuery(keys.nom151.trustedRoots(), (api) => api.nom151.trustedRoots({}));
  const [pem, setPem] = useState('');
  const [touched, setTouched] = useState(false);
  const add = useOmniMutation((api, input: { pem: string }) => api.nom151.addTrustedRoot(input), {
    invalidate: [keys.nom151.trustedRoots()],
    onSuccess: () => { setPem(''); setTouched(false); },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (pem.trim() === '') return;
    add.mutate({ pem });
  };

  return (
    <div className="signing-roots">
      <Panel title={t('rootsTitle')} query={roots} isEmpty={(d: TrustedRootView[]) => d.length === 0} empty={t('rootsEmpty')}>
        {(data) => (
          <>
            <p className="muted">{t('rootsIntro')}</p>
            <table className="table">
              <thead><tr><th>{t('rootSubject')}</th><th>{t('rootExpires')}</th><th>{t('rootFingerprint')}</th></tr></thead>
              <tbody>
                {data.map((r) => (
                  <tr key={r.fingerprint}>
                    <td>{r.subject}</td>
                    <td className="num">{format.dateTime(r.notAfter)}</td>
                    <td className="id hash small">{r.fingerprint}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </Panel>
      <section className="panel" aria-labelledby="nom-import-title">
        <form onSubmit={submit} noValidate>
          <div className="field">
            <label id="nom-import-title" htmlFor="nom-root-pem">{t('importRoot')}</label>
            <textarea id="nom-root-pem" className="input nom-textarea mono" rows={4} value={pem} onChange={(e) => setPem(e.target.value)}
              placeholder="-----BEGIN CERTIFICATE-----" spellCheck={false} aria-describedby="nom-root-pem-hint"
              aria-invalid={touched && pem.trim() === '' ? true : undefined} />
            <span id="nom-root-pem-hint" className="hint">{t('importRootHint')}</span>
            {touched && pem.trim() === '' && <span className="field-error" role="alert">{t('pemEmpty')}</span>}
          </div>
          <Button type="submit" disabled={add.isPending}>{add.isPending ? t('importing') : t('importButton')}</Button>
          {add.isSuccess && <p role="status" className="nom-saved"><IconCheck /> {t('imported')}</p>}
          {add.error && <ErrorNotice error={add.error.data} onRetry={() => add.mutate({ pem })} />}
        </form>
      </section>
    </div>
  );
}

function SaveButtons({ t, artifactId, available }: { t: T; artifactId: string; available: Record<ArtifactKind, boolean> }) {
  const [message, setMessage] = useState<string | null>(null);
  const save = useOmniMutation((api, kind: ArtifactKind) => api.nom151.saveArtifact({ artifactId, kind }), {
    onSuccess: (saved) => {
      if (!saved) return setMessage(t('saveCancelled'));
      if (saved.downloadUrl) {
        startDownload(saved.downloadUrl, saved.fileName);
        setMessage(t('downloadStarted', { name: saved.fileName }));
      } else setMessage(t('savedTo', { path: saved.savedTo ?? saved.fileName }));
    },
  });
  const button = (kind: ArtifactKind, label: string) => (
    <Button onClick={() => { setMessage(null); save.mutate(kind); }} disabled={!available[kind] || save.isPending} title={available[kind] ? undefined : t('notIncluded')}>
      {label}
      {!available[kind] && <span className="muted small"> ({t('notIncluded')})</span>}
    </Button>
  );
  return (
    <div className="nom-save">
      <h4>{t('saveTitle')}</h4>
      <div className="nom-row">
        {button('evidence', t('saveEvidence'))}
        {available.signedDocument && button('signedDocument', t('saveSignedDocument'))}
        {available.sealedPdf && button('sealedPdf', t('saveSealedPdf'))}
      </div>
      {message && <p role="status" className="nom-saved"><IconCheck /> {message}</p>}
      {save.error && <ErrorNotice error={save.error.data} onRetry={() => save.variables && save.mutate(save.variables)} />}
    </div>
  );
}

function Checkbox({ checked, onChange, label, hint }: { checked: boolean; onChange: (v: boolean) => void; label: string; hint: string }) {
  return (
    <label className="nom-checkbox">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>
        <span className="nom-checkbox-label">{label}</span>
        <span className="hint">{hint}</span>
      </span>
    </label>
  );
}

