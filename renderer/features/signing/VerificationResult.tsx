import type { CheckOutcome, Nom151CheckId, Nom151Verification } from '../../../common/ipc/nom151';
import { useBilingual, useFormat, useT, type Translate } from '../../i18n/index';
import { Badge, IconCheck, IconDanger, IconMinus, IconWarning } from '../../ui/index';
import { messages } from './messages';

type T = Translate<(typeof messages)['en']>;

const CHECK_ORDER: { id: Nom151CheckId; key: keyof (typeof messages)['en'] }[] = [
  { id: 'imprint', key: 'checkImprint' },
  { id: 'signature', key: 'checkSignature' },
  { id: 'chain', key: 'checkChain' },
  { id: 'validity', key: 'checkValidity' },
  { id: 'usage', key: 'checkUsage' },
];

/**
 * The verdict first (icon + word + what failed + what to do), then the facts a contract officer writes down
 * (folio, provider, time, hash), then each check. Colour always comes with an icon and a word.
 */
export function VerificationResult({
  result,
  folio,
  heading,
  checksHeading,
  givenDocumentLabel,
}: {
  result: Nom151Verification;
  folio?: string | null;
  heading?: string;
  /** The level of the Checks heading when the result sits deeper than its section's heading (a listed seal). */
  checksHeading?: 'h4' | 'h5' | 'h6';
  /** What "the document" was when the caller supplied it (the file loaded, the text signed, the contract returned). */
  givenDocumentLabel?: string;
}) {
  const t = useT(messages);
  const pick = useBilingual();
  const format = useFormat();
  const d = result.details;
  const incomplete = !result.valid && result.failure?.code === 'NO_DOCUMENT';
  const shownFolio = folio ?? d?.serial;
  // One level under the result's own heading, or under the section's (h2) when the result has none.
  const ChecksHeading = checksHeading ?? (heading ? 'h4' : 'h3');

  return (
    <div
      className={`nom-result ${result.valid ? 'nom-result-ok' : incomplete ? 'nom-result-warn' : 'nom-result-bad'}`}
      data-testid="nom151-result"
    >
      {heading && <h3>{heading}</h3>}
      <div className="nom-verdict">
        <Verdict result={result} />
        <div>
          {result.valid ? (
            <p>{t('resultValidNote')}</p>
          ) : result.failure ? (
            <>
              <p className="what" data-testid="nom151-failure">
                {pick(result.failure.message)}
              </p>
              <p>{pick(result.failure.advice)}</p>
              <p className="code small mono">{result.failure.code}</p>
            </>
          ) : null}
          {result.failures.length > 1 && (
            <div className="small">
              {t('otherProblems')}:
              <ul>
                {result.failures.slice(1).map((f) => (
                  <li key={f.code}>
                    {pick(f.message)} <span className="mono muted">{f.code}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      </div>

      {d && (
        <dl className="nom-facts">
          {shownFolio && (
            <>
              <dt>{t('folio')}</dt>
              <dd className="mono" data-testid="nom151-folio">
                {shownFolio}
              </dd>
            </>
          )}
          <dt>{t('provider')}</dt>
          <dd>{d.provider}</dd>
          <dt>{t('sealedAt')}</dt>
          <dd>
            <span className="num">{format.dateTime(d.genTime)}</span>{' '}
            <span className="mono muted small nowrap">{d.genTime}</span>
          </dd>
          <dt>{d.hashAlgorithm === 'SHA-256' ? t('hash') : t('hashOf', { algorithm: d.hashAlgorithm })}</dt>
          <dd className="mono hash">{d.imprintHex}</dd>
          {result.documentHashHex && result.documentHashHex !== d.imprintHex && (
            <>
              <dt>{t('documentHash')}</dt>
              <dd className="mono hash">{result.documentHashHex}</dd>
            </>
          )}
          <dt>{t('documentChecked')}</dt>
          <dd>
            {result.source.document === 'given'
              ? (givenDocumentLabel ?? t('docGiven'))
              : result.source.document === 'embedded-original'
                ? t('docEmbedded')
                : result.source.document === 'original-revision'
                  ? t('docRevision')
                  : t('docNone')}
          </dd>
          <dt>{t('providerValidity')}</dt>
          <dd className="num">
            {t('validFromTo', { from: format.dateTime(d.providerNotBefore), to: format.dateTime(d.providerNotAfter) })}
          </dd>
          <dt>{t('providerIssuer')}</dt>
          <dd className="small">{d.providerIssuer}</dd>
          <dt>{t('policy')}</dt>
          <dd className="mono small">{d.policy}</dd>
        </dl>
      )}

      <ChecksHeading className="nom-checks-title">{t('checksTitle')}</ChecksHeading>
      <ul className="nom-checks">
        {CHECK_ORDER.map(({ id, key }) => (
          <li key={id} className={`nom-check nom-check-${result.checks[id]}`}>
            <Outcome outcome={result.checks[id]} t={t} />
            <span>{t(key)}</span>
          </li>
        ))}
        {result.sealedPages && (
          <li className={`nom-check nom-check-${result.sealedPages === 'match' ? 'passed' : 'failed'}`}>
            <Outcome outcome={result.sealedPages === 'match' ? 'passed' : 'failed'} t={t} />
            <span>{t('checkPages')}</span>
          </li>
        )}
      </ul>
    </div>
  );
}

/** The verdict as a badge (icon and word): verified, not fully verified (nothing to compare with), or not valid. */
export function Verdict({ result }: { result: Nom151Verification }) {
  const t = useT(messages);
  if (result.valid)
    return (
      <Badge tone="ok" icon={<IconCheck />}>
        {t('resultValid')}
      </Badge>
    );
  if (result.failure?.code === 'NO_DOCUMENT')
    return (
      <Badge tone="warn" icon={<IconWarning />}>
        {t('resultIncomplete')}
      </Badge>
    );
  return (
    <Badge tone="danger" icon={<IconDanger />}>
      {t('resultInvalid')}
    </Badge>
  );
}

function Outcome({ outcome, t }: { outcome: CheckOutcome; t: T }) {
  if (outcome === 'passed')
    return (
      <Badge tone="ok" icon={<IconCheck />}>
        {t('passed')}
      </Badge>
    );
  if (outcome === 'failed')
    return (
      <Badge tone="danger" icon={<IconDanger />}>
        {t('failed')}
      </Badge>
    );
  return (
    <Badge tone="neutral" icon={<IconMinus />}>
      {t('notRun')}
    </Badge>
  );
}
