import { type FormEvent, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ArtifactKind, SealContractView } from '../../../common/ipc/nom151';
import { useOmniMutation } from '../../api/index';
import { intlLocale, useFormat, useLocale } from '../../i18n/index';
import { Button, ErrorNotice, Field, IconCheck, IconWarning, ServiceAnswerView, Skeleton } from '../../ui/index';
import {
  byContract,
  keepSeal,
  markGone,
  markSaved,
  sealTime,
  startSealing,
  unsavedKinds,
  useKeptSeals,
  type ContractSeals,
  type KeptSeal,
} from './kept-seals';
import { Verdict, VerificationResult } from './VerificationResult';
import { SaveButtons, Checkbox, type T } from './parts';

interface SealInput {
  signedContractId: string;
  includeSignedDocument: boolean;
  includeSealedPdf: boolean;
}

/**
 * Seals a signed contract. Every result of this app session is kept outside the screen (kept-seals.ts) and listed
 * under the form, newest first, with its Save buttons: leaving Signing and coming back loses none, so nobody seals
 * again (a second constancia, with another folio) to get the files back.
 */
export function SealContract({ t }: { t: T }) {
  const format = useFormat();
  const [params] = useSearchParams();
  const linked = params.get('contract') ?? '';
  const [contractId, setContractId] = useState(linked);
  // Another contract linked while Signing is open is the same route (no new mount): its id replaces the field's.
  useEffect(() => {
    if (linked) setContractId(linked);
  }, [linked]);
  const [includeSignedDocument, setIncludeSignedDocument] = useState(true);
  const [includeSealedPdf, setIncludeSealedPdf] = useState(true);
  const [touched, setTouched] = useState(false);
  const kept = useKeptSeals();
  // Kept from inside the call, not in a callback of this screen: a seal that answers after the user left still counts.
  const seal = useOmniMutation(async (api, input: SealInput) => {
    const done = startSealing(input.signedContractId);
    try {
      const view = await api.nom151.sealContract(input);
      keepSeal(view);
      return view;
    } finally {
      done();
    }
  });
  const last = useRef<SealInput | null>(null);
  const id = contractId.trim();
  const idError = touched && id === '' ? t('contractIdMissing') : undefined;
  // Seals asked for before the user left and came back: still on their way.
  const sealingElsewhere = seal.isPending ? [] : [...new Set(kept.sealing)];
  const previous = kept.seals.find((s) => s.view.signedContractId === id);
  const groups = useMemo(() => byContract(kept.seals), [kept.seals]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (id === '') return;
    last.current = { signedContractId: id, includeSignedDocument, includeSealedPdf };
    seal.mutate(last.current);
  };

  let status: ReactNode = null;
  if (seal.isPending) status = <Skeleton rows={4} />;
  else if (seal.error)
    status = <ErrorNotice error={seal.error.data} onRetry={() => last.current && seal.mutate(last.current)} />;
  else if (sealingElsewhere.length > 0)
    status = (
      <>
        {sealingElsewhere.map((sealing) => (
          <p key={sealing}>{t('stillSealing', { id: sealing })}</p>
        ))}
        <Skeleton rows={2} />
      </>
    );
  else if (seal.data)
    // Said to screen readers: the list below is not a live region (it would be read out whole).
    status = (
      <p className="visually-hidden">
        {t('sealedNow', {
          id: seal.data.signedContractId,
          verdict: seal.data.verification.valid
            ? t('resultValid')
            : seal.data.verification.failure?.code === 'NO_DOCUMENT'
              ? t('resultIncomplete')
              : t('resultInvalid'),
          folio: seal.data.folio ?? t('noFolio'),
        })}
      </p>
    );
  else if (kept.seals.length === 0)
    status = <p className="panel-empty">{id ? t('sealEmptyReady', { id }) : t('sealEmpty')}</p>;

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
        {/* The result just shown needs no warning; one sealed before (another visit, a link from the interview) does. */}
        {previous && previous.view !== seal.data && !seal.isPending && (
          <p className="notice notice-warn" data-testid="already-sealed">
            <IconWarning />{' '}
            {t('alreadySealed', {
              id,
              folio: previous.view.folio ?? t('noFolio'),
              time: format.dateTime(sealTime(previous)),
            })}
          </p>
        )}
        <Button type="submit" variant="primary" disabled={seal.isPending || kept.sealing.includes(id)}>
          {seal.isPending ? t('sealing') : t('sealButton')}
        </Button>
      </form>
      <div className="nom-action-result">
        <div aria-live="polite">{status}</div>
        {groups.length > 0 && <KeptList t={t} groups={groups} />}
      </div>
    </section>
  );
}

/** The seals of this session, one entry per contract, the contract sealed last first and shown in full. */
function KeptList({ t, groups }: { t: T; groups: ContractSeals[] }) {
  return (
    <div className="nom-kept" data-testid="kept-seals">
      <h3 id="nom-kept-title">{t('keptTitle')}</h3>
      <p className="muted small">{t('keptIntro')}</p>
      <ol className="nom-kept-list" aria-labelledby="nom-kept-title">
        {groups.map((group, i) => (
          <KeptContract key={group.contractId} t={t} group={group} first={i === 0} />
        ))}
      </ol>
    </div>
  );
}

function KeptContract({ t, group, first }: { t: T; group: ContractSeals; first: boolean }) {
  const [latest, ...earlier] = group.seals;
  if (!latest) return null;
  const earlierUnsaved = earlier.some((s) => unsavedKinds(s).length > 0);
  return (
    <li className="nom-kept-item" data-testid="kept-seal">
      <div className="nom-kept-head">
        <h4 className="mono">{group.contractId}</h4>
        <Verdict result={latest.view.verification} />
      </div>
      <SealFiles t={t} seal={latest} />
      {first ? (
        <SealDetails t={t} view={latest.view} />
      ) : (
        <Disclosure summary={t('verificationDetails')}>{() => <SealDetails t={t} view={latest.view} />}</Disclosure>
      )}
      {earlier.length > 0 && (
        <Disclosure
          summary={
            <>
              {t('earlierSeals', { n: earlier.length })}
              {earlierUnsaved && (
                <span className="nom-kept-warn">
                  {' '}
                  · <IconWarning /> {t('earlierUnsaved')}
                </span>
              )}
            </>
          }
        >
          {() => (
            <ol className="nom-kept-earlier">
              {earlier.map((s) => (
                <li key={s.view.artifactId}>
                  <Verdict result={s.view.verification} />
                  <SealFiles t={t} seal={s} />
                  <Disclosure summary={t('verificationDetails')}>
                    {() => <SealDetails t={t} view={s.view} />}
                  </Disclosure>
                </li>
              ))}
            </ol>
          )}
        </Disclosure>
      )}
    </li>
  );
}

const KIND_LABEL = {
  evidence: 'kindEvidence',
  signedDocument: 'kindSignedDocument',
  sealedPdf: 'kindSealedPdf',
} as const satisfies Record<ArtifactKind, string>;

/** Folio and time, whether every file was saved (files are lost when the app closes), and the Save buttons. */
function SealFiles({ t, seal }: { t: T; seal: KeptSeal }) {
  const format = useFormat();
  const { locale } = useLocale();
  const unsaved = unsavedKinds(seal);
  const files = new Intl.ListFormat(intlLocale(locale), { type: 'conjunction' }).format(
    unsaved.map((kind) => t(KIND_LABEL[kind])),
  );
  return (
    <>
      <p className="nom-kept-facts">
        <span>
          <span className="nom-kept-label">{t('folio')}</span>{' '}
          <span className="mono" data-testid="kept-folio">
            {seal.view.folio ?? t('noFolio')}
          </span>
        </span>
        <span className="num">{t('keptAt', { time: format.dateTime(sealTime(seal)) })}</span>
      </p>
      {seal.gone ? (
        <p className="notice notice-warn" data-testid="kept-gone">
          <IconWarning /> {t('filesGone')}
        </p>
      ) : unsaved.length > 0 ? (
        <p className="notice notice-warn" data-testid="kept-unsaved">
          <IconWarning /> {t('unsaved', { files })}
        </p>
      ) : seal.saved.length > 0 ? (
        <p className="nom-kept-saved small" data-testid="kept-saved">
          <IconCheck /> {t('allSaved')}
        </p>
      ) : null}
      <SaveButtons
        t={t}
        artifactId={seal.view.artifactId}
        available={seal.view.available}
        heading="h5"
        onSaved={(kind) => markSaved(seal.view.artifactId, kind)}
        onGone={() => markGone(seal.view.artifactId)}
      />
    </>
  );
}

/** What the seal's verification found, as the screen showed it right after sealing. */
function SealDetails({ t, view }: { t: T; view: SealContractView }) {
  return (
    <div className="nom-kept-details">
      {view.verification.failure?.code === 'NO_DOCUMENT' && (
        <p className="notice notice-warn">{t('sealWithoutDocument')}</p>
      )}
      <VerificationResult
        result={view.verification}
        folio={view.folio}
        checksHeading="h5"
        givenDocumentLabel={t('docReturnedContract')}
      />
      {view.sealedPdfVerification && (
        <details className="nom-secondary">
          <summary>
            {t('sealedPdfCheck')}: {view.sealedPdfVerification.valid ? t('resultValid') : t('resultInvalid')}
          </summary>
          <VerificationResult result={view.sealedPdfVerification} checksHeading="h5" />
        </details>
      )}
      <ServiceAnswerView answer={view.answer} />
    </div>
  );
}

/** A disclosure whose content is built only once opened: a long session's list stays light. */
function Disclosure({ summary, children }: { summary: ReactNode; children: () => ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="nom-disclosure" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{summary}</summary>
      {open && children()}
    </details>
  );
}
