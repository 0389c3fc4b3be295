import { type FormEvent, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { SealContractView } from '../../../common/ipc/nom151';
import { useOmniMutation } from '../../api/index';
import { Button, Field, ServiceAnswerView } from '../../ui/index';
import { VerificationResult } from './VerificationResult';
import { ActionResult, SaveButtons, Checkbox, type T } from './parts';

export function SealContract({ t }: { t: T }) {
  const [params] = useSearchParams();
  const [contractId, setContractId] = useState(() => params.get('contract') ?? '');
  const [includeSignedDocument, setIncludeSignedDocument] = useState(true);
  const [includeSealedPdf, setIncludeSealedPdf] = useState(true);
  const [touched, setTouched] = useState(false);
  const seal = useOmniMutation(
    (api, input: { signedContractId: string; includeSignedDocument: boolean; includeSealedPdf: boolean }) =>
      api.nom151.sealContract(input),
  );
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
      <div className="panel-header">
        <h2 id="nom-seal-title">{t('sealTitle')}</h2>
      </div>
      <p className="muted">{t('sealIntro')}</p>
      <form onSubmit={submit} noValidate>
        <Field
          label={t('contractId')}
          hint={t('contractIdHint')}
          error={idError}
          mono
          value={contractId}
          onChange={(e) => setContractId(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          name="signedContractId"
        />
        <Checkbox
          checked={includeSignedDocument}
          onChange={setIncludeSignedDocument}
          label={t('includeSignedDocument')}
          hint={t('includeSignedDocumentHint')}
        />
        <Checkbox
          checked={includeSealedPdf}
          onChange={setIncludeSealedPdf}
          label={t('includeSealedPdf')}
          hint={t('includeSealedPdfHint')}
        />
        <Button type="submit" variant="primary" disabled={seal.isPending}>
          {seal.isPending ? t('sealing') : t('sealButton')}
        </Button>
      </form>
      <ActionResult state={seal} empty={t('sealEmpty')} onRetry={() => last.current && seal.mutate(last.current)}>
        {(data: SealContractView) => (
          <>
            {data.verification.failure?.code === 'NO_DOCUMENT' && (
              <p className="notice notice-warn">{t('sealWithoutDocument')}</p>
            )}
            <VerificationResult
              result={data.verification}
              folio={data.folio}
              givenDocumentLabel={t('docReturnedContract')}
            />
            {data.sealedPdfVerification && (
              <details className="nom-secondary">
                <summary>
                  {t('sealedPdfCheck')}: {data.sealedPdfVerification.valid ? t('resultValid') : t('resultInvalid')}
                </summary>
                <VerificationResult result={data.sealedPdfVerification} />
              </details>
            )}
            <SaveButtons t={t} artifactId={data.artifactId} available={data.available} />
            <ServiceAnswerView answer={data.answer} />
          </>
        )}
      </ActionResult>
    </section>
  );
}
