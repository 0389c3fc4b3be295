import { useCallback } from 'react';
import type { SessionStatus } from '../../../common/omni/common';
import type { DecisionKind, SavedFile } from '../../../common/ipc/interview';
import { RISK_UNASSESSED, type LocalReviewState } from '../../../common/ipc/queue';
import type { ReasonCode } from '../../../common/ipc/team';
import { keys, useOmniQuery } from '../../api/index';
import { useBilingual, useLocale, useT } from '../../i18n/index';
import { Badge, IconCheck, IconDanger, IconLock, IconMinus } from '../../ui/index';
import { messages } from './messages';

export function SessionStatusBadge({ status }: { status: SessionStatus | undefined }) {
  const t = useT(messages);
  switch (status) {
    case 'Alive':
      return (
        <Badge tone="ok" icon={<IconCheck />}>
          {t('statusAlive')}
        </Badge>
      );
    case 'Closed':
      return (
        <Badge tone="warn" icon={<IconLock />}>
          {t('statusClosed')}
        </Badge>
      );
    case 'Deleted':
      return (
        <Badge tone="danger" icon={<IconDanger />}>
          {t('statusDeleted')}
        </Badge>
      );
    default:
      return (
        <Badge tone="neutral" icon={<IconMinus />}>
          {t('unknownStatus')}
        </Badge>
      );
  }
}

export function useLocalStateLabel() {
  const t = useT(messages);
  return (state: LocalReviewState, proposed?: boolean) =>
    state === 'toReview'
      ? t('stateToReview')
      : state === 'inReview'
        ? t('stateInReview')
        : proposed
          ? t('stateProposed')
          : t('stateDecided');
}

/** An entry's label in the screen's language; Spanish falls back to the label the source gave. */
const RISK_WORD_KEYS = {
  high: 'riskNoteHigh',
  medium: 'riskNoteMedium',
  low: 'riskNoteLow',
  [RISK_UNASSESSED]: 'riskNoteUnassessed',
} as const;

/** A filed risk level in words ("High risk", "Not assessed"); a level newer than the spec as sent ("CRITICAL risk"). */
export function useRiskWord() {
  const t = useT(messages);
  return useCallback(
    (risk: string) =>
      Object.hasOwn(RISK_WORD_KEYS, risk)
        ? t(RISK_WORD_KEYS[risk as keyof typeof RISK_WORD_KEYS])
        : t('riskNote', { level: risk }),
    [t],
  );
}

export function useDecisionWord() {
  const t = useT(messages);
  return useCallback(
    (d: DecisionKind) => (d === 'approve' ? t('approve') : d === 'reject' ? t('reject') : t('requestNewCapture')),
    [t],
  );
}

/** The team's reason codes, and a code's label in the screen's language (the code itself if the list lacks it). */
export function useReasonCodes() {
  const query = useOmniQuery(keys.team.reasonCodes(), (api) => api.team.reasonCodes({}));
  const bilingual = useBilingual();
  const codes = query.data;
  const label = useCallback(
    (decision: DecisionKind, code: string) => {
      const found = codes?.find((c: ReasonCode) => c.decision === decision && c.code === code);
      return found ? bilingual(found) : code;
    },
    [codes, bilingual],
  );
  /** A recorded decision's reason: the labels its code had then, else (an earlier version's) the list's now. */
  const labelOf = useCallback(
    (record: { decision: DecisionKind; reasonCode?: string; reasonLabel?: { en: string; es: string } }) =>
      record.reasonLabel
        ? bilingual(record.reasonLabel)
        : record.reasonCode
          ? label(record.decision, record.reasonCode)
          : '',
    [label, bilingual],
  );
  return { query, label, labelOf };
}

export function useEntryLabel() {
  const { locale } = useLocale();
  return useCallback(
    (entry: { label?: string; labelEs?: string }) => (locale === 'es' ? (entry.labelEs ?? entry.label) : entry.label),
    [locale],
  );
}

/** The analyst's state of an entry; a proposal waiting for a second reviewer says so rather than "Decided". */
export function LocalStateBadge({ state, proposed }: { state: LocalReviewState; proposed?: boolean }) {
  const label = useLocalStateLabel();
  return <Badge tone={state === 'decided' && !proposed ? 'accent' : 'neutral'}>{label(state, proposed)}</Badge>;
}

/** The web shell answers a save with a one-time download URL; Electron has already written the file. */
export function followSaved(saved: SavedFile | null): SavedFile | null {
  if (saved?.downloadUrl) {
    const a = document.createElement('a');
    a.href = saved.downloadUrl;
    a.rel = 'noopener';
    a.download = '';
    document.body.append(a);
    a.click();
    a.remove();
  }
  return saved;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

/** Why session-bound writes are not possible right now, or null when they are. */
export function writeBlocker(
  entry: { sessionStatus?: SessionStatus; hasSessionToken: boolean } | undefined,
): 'closed' | 'deleted' | 'noToken' | null {
  if (!entry) return null;
  if (entry.sessionStatus === 'Closed') return 'closed';
  if (entry.sessionStatus === 'Deleted') return 'deleted';
  if (!entry.hasSessionToken) return 'noToken';
  return null;
}
