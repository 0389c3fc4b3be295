import type { ReactNode } from 'react';
import type { InterviewOverview } from '../../../common/ipc/interview';
import { RISK_UNASSESSED } from '../../../common/ipc/queue';
import { checkWord } from '../../../common/audit-words';
import { isQuietSeverity } from '../../../common/omni';
import { useLocale, useT } from '../../i18n/index';
import { useMissingEvidence, useRawIdv } from './ChecksPanel';
import { messages } from './messages';
import { useDecisionWord, useReasonCodes, useRiskWord } from './shared';
import type { ClaimState } from './useClaim';

/** How many high-severity checks are named before "+N more": the line stays one line at 1280 px. */
const NAMED_CHECKS = 2;

/**
 * The case in one line, at the top of the workspace: its risk, what failed (high-severity checks, the fraud risk),
 * who holds it, and where its decision stands. Each part is read from what the panels already asked for.
 */
export function CaseSummary({
  interviewId,
  overview,
  claim,
}: {
  interviewId: string;
  overview: InterviewOverview | undefined;
  claim: ClaimState;
}) {
  const t = useT(messages);
  const { locale } = useLocale();
  const rawQuery = useRawIdv(interviewId);
  const raw = rawQuery.data?.data;
  const missing = useMissingEvidence(interviewId);
  const word = useDecisionWord();
  const reasons = useReasonCodes();
  const riskWord = useRiskWord();
  const levelWords = { HIGH: t('riskHigh'), MEDIUM: t('riskMedium'), LOW: t('riskLow') } as const;
  const parts: { key: string; node: ReactNode }[] = [];

  // The service's risk level says "low" of an interview no check ran on: not assessed, in the app's words first.
  if (rawQuery.error)
    parts.push({
      key: 'risk',
      node: <strong className="case-risk case-risk-other">{t('summaryChecksUnread')}</strong>,
    });
  if (raw) {
    const risk = raw.riskLevel;
    const level = riskWord(risk);
    const unassessed = missing.includes('checks');
    parts.push({
      key: 'risk',
      node: unassessed ? (
        <>
          <strong className="case-risk case-risk-other" data-testid="risk-unassessed">
            {t('summaryRiskUnassessed')}
          </strong>{' '}
          {risk !== RISK_UNASSESSED && (
            <span className="muted">{t('summaryServiceSays', { level: level.toLocaleLowerCase() })}</span>
          )}
        </>
      ) : (
        <strong className={`case-risk case-risk-${['high', 'medium', 'low'].includes(risk) ? risk : 'other'}`}>
          {level}
        </strong>
      ),
    });
    // The checks an approval must acknowledge, as the decision dialog lists them: high, and a severity newer than the
    // spec (said beside its name), so the summary never says "no high-severity check" above a dialog that asks to
    // acknowledge one (UX review 23).
    const high = raw.result.checkResults.filter((c) => !isQuietSeverity(c.severity));
    parts.push({
      key: 'checks',
      node:
        high.length === 0 ? (
          t(unassessed ? 'summaryNoCheckRan' : 'summaryNoHighChecks')
        ) : (
          <>
            {high.length === 1 ? t('summaryHighCheck') : t('summaryHighChecks', { n: high.length })}{' '}
            {/* In words where the app has them (as the checks table), the service's name in its title. */}
            {high.slice(0, NAMED_CHECKS).map(({ name, severity }, i) => (
              <span key={`${name}-${i}`}>
                {i > 0 && ', '}
                {checkWord(name, locale) ? (
                  <span title={name}>{checkWord(name, locale)}</span>
                ) : (
                  <span className="mono">{name}</span>
                )}
                {severity.toLowerCase() !== 'high' && <span className="mono"> ({severity})</span>}
              </span>
            ))}
            {high.length > NAMED_CHECKS && ` ${t('summaryMore', { n: high.length - NAMED_CHECKS })}`}
          </>
        ),
    });
    const fraud = raw.result.fraudRisk?.severity;
    parts.push({
      key: 'fraud',
      node: fraud
        ? t('summaryFraud', {
            level: fraud in levelWords ? levelWords[fraud as keyof typeof levelWords].toLocaleLowerCase() : fraud,
          })
        : t('summaryNoFraud'),
    });
  }

  if (claim.kind === 'mine') parts.push({ key: 'holder', node: t('summaryHeldByYou') });
  if (claim.kind === 'held') {
    const holder = String(claim.error.details?.holder ?? '');
    parts.push({ key: 'holder', node: holder ? t('summaryHeldBy', { holder }) : t('summaryHeldByOther') });
  }

  if (overview) {
    const last = overview.lastDecision;
    const decision = last && `${word(last.decision)}${last.reasonCode ? ` (${reasons.labelOf(last)})` : ''}`;
    parts.push({
      key: 'decision',
      node:
        !last || !decision
          ? t('summaryUndecided')
          : last.status === 'proposed'
            ? t('summaryProposed', { decision })
            : last.status === 'overturned'
              ? t('summaryOverturned')
              : t('summaryDecided', { decision }),
    });
  }

  return (
    <p className="case-summary" data-testid="case-summary">
      <span className="visually-hidden">{t('summaryLabel')}: </span>
      {parts.length === 0 ? (
        <span className="muted">{t('summaryReading')}</span>
      ) : (
        parts.map((part, i) => (
          <span key={part.key} className="case-summary-part" data-part={part.key}>
            {i > 0 && (
              <span className="case-summary-sep muted" aria-hidden="true">
                ·
              </span>
            )}
            {part.node}
          </span>
        ))
      )}
    </p>
  );
}
