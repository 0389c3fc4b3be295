import { useCallback, useMemo } from 'react';
import type { AuditAction, AuditEntry } from '../../../main/ipc/context';
import type { RecordingType } from '../../../main/omni/contract/common';
import type { AuthenticateResponse } from '../../../main/omni/contract/face';
import type { AuthResultView, ImageSource } from '../../../preload/contract/capture';
import type { DecisionKind } from '../../../preload/contract/interview';
import type { ArtifactKind } from '../../../preload/contract/nom151';
import type { LocalReviewState } from '../../../preload/contract/queue';
import { useFormat, useT, type Translate } from '../../i18n/index';
import { messages } from './messages';
import { useLocalStateLabel } from './shared';

type Words = (typeof messages)['en'];
type Word = keyof Words & string;

/**
 * The label of every key main writes into an audit entry's detail (main/review, main/nom151, main/ipc/handlers).
 * test/unit/audit-labels.test.ts reads main's `audit.append` calls and fails when this list and main disagree.
 */
const DETAIL_KEY_WORDS = {
  text: 'detail_text',
  decision: 'detail_decision',
  reason: 'detail_reason',
  acknowledgedFindings: 'detail_acknowledgedFindings',
  positionSeconds: 'detail_positionSeconds',
  what: 'detail_what',
  documentId: 'detail_documentId',
  bytes: 'detail_bytes',
  name: 'detail_name',
  kind: 'detail_kind',
  folio: 'detail_folio',
  sha256: 'detail_sha256',
  valid: 'detail_valid',
  failure: 'detail_failure',
  signedContractId: 'detail_signedContractId',
  sealedPdfValid: 'detail_sealedPdfValid',
  evidenceName: 'detail_evidenceName',
  documentName: 'detail_documentName',
  failures: 'detail_failures',
  nom151: 'detail_nom151',
  fileName: 'detail_fileName',
  subject: 'detail_subject',
  source: 'detail_source',
  recapture: 'detail_recapture',
  failReason: 'detail_failReason',
  mode: 'detail_mode',
  overallStatus: 'detail_overallStatus',
  error: 'detail_error',
  type: 'detail_type',
  recordingId: 'detail_recordingId',
  validRFC: 'detail_validRFC',
  code: 'detail_code',
  rows: 'detail_rows',
  from: 'detail_from',
  to: 'detail_to',
} as const satisfies Record<string, Word>;

export type AuditDetailKey = keyof typeof DETAIL_KEY_WORDS;
export const AUDIT_DETAIL_KEYS = Object.keys(DETAIL_KEY_WORDS) as AuditDetailKey[];

const isDetailKey = (key: string): key is AuditDetailKey => Object.hasOwn(DETAIL_KEY_WORDS, key);

/** What main writes as `kind` (captured, validated, signed) and `what` (downloaded). */
type EntryKind = 'string' | 'contract' | 'selfie' | 'backSecondId' | 'faceAuthentication' | 'videoImport' | 'rfc' | 'curp' | 'rfcBatch' | 'curpBatch';
type DownloadedWhat = 'contract' | 'snapshot' | 'auditJson' | 'reviewReport' | 'validationCsv' | 'auditTrail' | 'apiKeysCsv';

const KIND_WORDS: Record<EntryKind, Word> = {
  string: 'kind_string',
  contract: 'kind_contract',
  selfie: 'kind_selfie',
  backSecondId: 'kind_backSecondId',
  faceAuthentication: 'kind_faceAuthentication',
  videoImport: 'kind_videoImport',
  rfc: 'kind_rfc',
  curp: 'kind_curp',
  rfcBatch: 'kind_rfcBatch',
  curpBatch: 'kind_curpBatch',
};

/**
 * Detail values that are codes, in words, per key. Each table is a full Record over its contract type, so tsc fails
 * when an enum grows without a word for it; a value not listed (an older or newer code) is shown as written.
 */
const VALUE_WORDS: Partial<Record<AuditDetailKey, Record<string, Word>>> = {
  decision: { approve: 'approve', reject: 'reject', requestNewCapture: 'requestNewCapture' } satisfies Record<DecisionKind, Word>,
  from: { toReview: 'stateToReview', inReview: 'stateInReview', decided: 'stateDecided' } satisfies Record<LocalReviewState, Word>,
  to: { toReview: 'stateToReview', inReview: 'stateInReview', decided: 'stateDecided' } satisfies Record<LocalReviewState, Word>,
  kind: KIND_WORDS,
  what: {
    contract: 'kind_contract',
    snapshot: 'what_snapshot',
    auditJson: 'what_auditJson',
    reviewReport: 'what_reviewReport',
    validationCsv: 'what_validationCsv',
    auditTrail: 'what_auditTrail',
    apiKeysCsv: 'what_apiKeysCsv',
  } satisfies Record<DownloadedWhat, Word>,
  nom151: { evidence: 'nom151_evidence', signedDocument: 'nom151_signedDocument', sealedPdf: 'nom151_sealedPdf' } satisfies Record<ArtifactKind, Word>,
  source: { file: 'source_file', url: 'source_url' } satisfies Record<ImageSource['kind'], Word>,
  mode: { oneToOne: 'mode_oneToOne', oneToN: 'mode_oneToN' } satisfies Record<AuthResultView['mode'], Word>,
  overallStatus: { PASS: 'overall_PASS', FAIL: 'overall_FAIL' } satisfies Record<AuthenticateResponse['overallStatus'], Word>,
  type: {
    frontId: 'recording_frontId',
    backId: 'recording_backId',
    merged: 'recording_merged',
    selfie: 'recording_selfie',
    authenticationattempt: 'recording_authenticationattempt',
  } satisfies Record<RecordingType, Word>,
};

export interface DetailFormat {
  t: Translate<Words>;
  number: (n: number) => string;
  bytes: (n: number) => string;
  duration: (seconds: number) => string;
}

function describeValue(key: string, value: unknown, f: DetailFormat): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return f.t(value ? 'detailYes' : 'detailNo');
  if (typeof value === 'number') return key === 'bytes' ? f.bytes(value) : key === 'positionSeconds' ? f.duration(value) : f.number(value);
  if (typeof value === 'string') {
    const word = isDetailKey(key) ? VALUE_WORDS[key]?.[value] : undefined;
    return word ? f.t(word) : value;
  }
  if (Array.isArray(value)) return value.length === 0 ? f.t('detailNone') : value.map((v) => describeValue(key, v, f)).join(', ');
  return JSON.stringify(value);
}

/** Every key of a detail as "label: value", in the screen's language; a key this table does not know keeps its name. */
export function describeAuditDetail(detail: Record<string, unknown>, f: DetailFormat): string {
  return Object.entries(detail)
    .map(([key, value]) => `${isDetailKey(key) ? f.t(DETAIL_KEY_WORDS[key]) : key}: ${describeValue(key, value, f)}`)
    .join(' · ');
}

/**
 * An audit entry in words, for every screen that lists them (an interview's trail, Settings' environment-wide one).
 * The label table is a full Record: tsc fails when the AuditAction union grows and a label is missing.
 */
export function useAuditLabels() {
  const t = useT(messages);
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
      signed: t('actSigned'),
      verified: t('actVerified'),
      captured: t('actCaptured'),
      validated: t('actValidated'),
      stateChanged: t('actStateChanged'),
      trustedRootAdded: t('actTrustedRootAdded'),
    }),
    [t],
  );
  const action = useCallback((a: AuditAction) => labels[a], [labels]);
  const detail = useCallback(
    (e: AuditEntry) => {
      if (e.action === 'stateChanged') return `${stateLabel(e.detail.from as LocalReviewState)} → ${stateLabel(e.detail.to as LocalReviewState)}`;
      if (e.action === 'trustedRootAdded') return t('trustedRootDetail', { subject: String(e.detail.subject ?? '—'), sha256: String(e.detail.sha256 ?? '—') });
      return describeAuditDetail(e.detail, { t, number: format.number, bytes: format.bytes, duration: format.duration });
    },
    [t, format, stateLabel],
  );
  return { action, detail };
}
