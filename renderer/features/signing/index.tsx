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
        <VerifyEvidenceFile t={t} />
        <EvidenceBatch t={t} />
        <TrustedRoots t={t} />
      </div>
    </div>
  );
}
