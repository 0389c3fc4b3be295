import { useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { useT } from '../../i18n/index';
import { messages } from './messages';
import { SealContract } from './SealContract';
import { SignString } from './SignString';
import { TrustedRoots } from './TrustedRoots';
import { VerifyEvidence } from './VerifyEvidence';
import { VerifyEvidenceFile } from './VerifyEvidenceFile';
import { EvidenceBatch } from './EvidenceBatch';
import './signing.css';

/**
 * Signing area: seal contracts, sign strings, verify evidence offline (NOM-151 evidence, and an interview's evidence
 * file), write the evidence files of a period, manage trusted provider roots.
 * The route `/signing?contract=<document id>` opens it with the contract id filled in (links from an interview's
 * contracts); when the link comes from an interview, its navigation state says which (`{ fromInterview: id }`) and
 * the screen offers the way back to it while it stays open.
 */
export default function SigningScreen() {
  const t = useT(messages);
  const [params] = useSearchParams();
  const { state } = useLocation();
  const linkedFrom = params.get('contract') ? interviewLinkedFrom(state) : null;
  // Kept while the screen stays open: another contract linked meanwhile (a query change) still leaves the way back.
  const [fromInterview, setFromInterview] = useState(linkedFrom);
  if (linkedFrom && linkedFrom !== fromInterview) setFromInterview(linkedFrom);
  return (
    <div className="signing">
      {fromInterview && (
        <p className="signing-back">
          <Link to={`/interviews/${encodeURIComponent(fromInterview)}`} data-testid="back-to-interview">
            <span aria-hidden="true">← </span>
            {t('backToInterview', { id: fromInterview })}
          </Link>
        </p>
      )}
      <h1>{t('title')}</h1>
      <p className="muted signing-intro">{t('intro')}</p>
      <div className="signing-grid">
        <SealContract t={t} />
        <SignString t={t} />
        <VerifyEvidence t={t} />
        <VerifyEvidenceFile t={t} />
        <EvidenceBatch t={t} />
        <TrustedRoots t={t} />
      </div>
    </div>
  );
}

function interviewLinkedFrom(state: unknown): string | null {
  const from = (state as { fromInterview?: unknown } | null)?.fromInterview;
  return typeof from === 'string' && from !== '' ? from : null;
}
