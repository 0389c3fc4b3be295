import { useCallback, useMemo } from 'react';
import type { AuditAction, AuditEntry } from '../../../common/views';
import { describeAuditDetail } from '../../../common/audit-words';
import type { LocalReviewState } from '../../../common/ipc/queue';
import { useFormat, useLocale, useT } from '../../i18n/index';
import { messages } from './messages';
import { useLocalStateLabel } from './shared';

/**
 * An audit entry in words, for every screen that lists them (an interview's trail, Settings' environment-wide one).
 * Detail keys and code values read from common/audit-words, the table the PDF review report uses too.
 * The action label table is a full Record: tsc fails when the AuditAction union grows and a label is missing.
 */
export function useAuditLabels() {
  const t = useT(messages);
  const { locale } = useLocale();
  const format = useFormat();
  const stateLabel = useLocalStateLabel();
  const labels = useMemo(
    (): Record<AuditAction, string> => ({
      opened: t('actOpened'),
      played: t('actPlayed'),
      downloaded: t('actDownloaded'),
      noted: t('actNoted'),
      named: t('actNamed'),
      decided: t('actDecided'),
      proposed: t('actProposed'),
      confirmed: t('actConfirmed'),
      overturned: t('actOverturned'),
      signed: t('actSigned'),
      verified: t('actVerified'),
      captured: t('actCaptured'),
      validated: t('actValidated'),
      stateChanged: t('actStateChanged'),
      trustedRootAdded: t('actTrustedRootAdded'),
      claimed: t('actClaimed'),
      released: t('actReleased'),
      reassigned: t('actReassigned'),
      teamSettingsChanged: t('actTeamSettingsChanged'),
      removed: t('actRemoved'),
      restored: t('actRestored'),
      decisionRemoved: t('actDecisionRemoved'),
      checkpoint: t('actCheckpoint'),
      tokenShared: t('actTokenShared'),
      tokenUnshared: t('actTokenUnshared'),
    }),
    [t],
  );
  const action = useCallback((a: AuditAction) => labels[a], [labels]);
  const detail = useCallback(
    (e: AuditEntry) => {
      if (e.action === 'stateChanged')
        return `${stateLabel(e.detail.from as LocalReviewState)} → ${stateLabel(e.detail.to as LocalReviewState)}`;
      if (e.action === 'trustedRootAdded')
        return t('trustedRootDetail', {
          subject: String(e.detail.subject ?? '—'),
          sha256: String(e.detail.sha256 ?? '—'),
        });
      if (e.action === 'reassigned') return t('reassignedDetail', { to: String(e.detail.to ?? '—') });
      return describeAuditDetail(e.detail, {
        language: locale,
        number: format.number,
        bytes: format.bytes,
        duration: format.duration,
      });
    },
    [t, locale, format, stateLabel],
  );
  return { action, detail };
}
