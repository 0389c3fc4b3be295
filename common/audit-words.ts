import type { RecordingType } from './omni/common';
import type { AuthenticateResponse } from './omni/face';
import type { AuthResultView, ImageSource } from './ipc/capture';
import type { DecisionKind } from './ipc/interview';
import type { ArtifactKind } from './ipc/nom151';
import type { LocalReviewState } from './ipc/queue';
import type { DecisionStatus, FourEyesRule } from './team-review';

/**
 * The words of an audit entry's detail, in English and Spanish (es-MX): one table read by the screen (renderer's
 * useAuditLabels) and by the PDF review report (main/review/report.ts), so both say the same thing. Pure data and
 * pure functions, no Node or React imports, so either side can bundle it.
 */

export type AuditLanguage = 'en' | 'es';
export type Bilingual = { en: string; es: string };

/**
 * The label of every key main writes into an audit entry's detail (main/review, main/nom151, main/ipc/handlers).
 * test/common/audit-words.test.ts reads main's `audit.append` calls and fails when this list and main disagree.
 */
const DETAIL_LABELS = {
  text: { en: 'Text', es: 'Texto' },
  decision: { en: 'Decision', es: 'Decisión' },
  reason: { en: 'Reason', es: 'Motivo' },
  acknowledgedFindings: { en: 'Acknowledged high-severity findings', es: 'Hallazgos de severidad alta reconocidos' },
  positionSeconds: { en: 'Position', es: 'Posición' },
  what: { en: 'Content', es: 'Contenido' },
  documentId: { en: 'Document ID', es: 'ID del documento' },
  bytes: { en: 'Size', es: 'Tamaño' },
  name: { en: 'File name', es: 'Nombre del archivo' },
  kind: { en: 'Kind', es: 'Tipo' },
  folio: { en: 'Folio', es: 'Folio' },
  seq: { en: 'Up to entry', es: 'Hasta la entrada' },
  hash: { en: 'Hash of that entry', es: 'Hash de esa entrada' },
  token: { en: 'Time-stamp token', es: 'Sello de tiempo' },
  genTime: { en: 'Timestamped at', es: 'Sellada el' },
  sha256: { en: 'SHA-256', es: 'SHA-256' },
  exportEntry: { en: 'Export entry', es: 'Entrada de la exportación' },
  valid: { en: 'Valid', es: 'Válido' },
  failure: { en: 'Failure code', es: 'Código de falla' },
  signedContractId: { en: 'Signed contract ID', es: 'ID del contrato firmado' },
  sealedPdfValid: { en: 'Sealed PDF valid', es: 'PDF sellado válido' },
  evidenceName: { en: 'Evidence file', es: 'Archivo de la constancia' },
  documentName: { en: 'Document file', es: 'Archivo del documento' },
  failures: { en: 'Failure codes', es: 'Códigos de falla' },
  nom151: { en: 'NOM-151 file', es: 'Archivo NOM-151' },
  fileName: { en: 'File name', es: 'Nombre del archivo' },
  subject: { en: 'Certificate subject', es: 'Titular del certificado' },
  source: { en: 'Image source', es: 'Origen de la imagen' },
  recapture: { en: 'Recapture advised', es: 'Se recomienda recapturar' },
  failReason: { en: 'Why the ID was refused', es: 'Por qué se rechazó la identificación' },
  mode: { en: 'Mode', es: 'Modo' },
  overallStatus: { en: 'Result', es: 'Resultado' },
  error: { en: 'Error', es: 'Error' },
  type: { en: 'Recording type', es: 'Tipo de grabación' },
  recordingId: { en: 'Recording ID', es: 'ID de la grabación' },
  validRFC: { en: 'Valid RFC', es: 'RFC válido' },
  code: { en: 'Code', es: 'Código' },
  rows: { en: 'Rows', es: 'Filas' },
  from: { en: 'From', es: 'De' },
  to: { en: 'To', es: 'A' },
  by: { en: 'Sent by', es: 'Enviado por' },
  next: { en: 'Taken as the next in the queue', es: 'Tomada como la siguiente de la bandeja' },
  inView: { en: "Within the analyst's queue view", es: 'Dentro de la vista de la bandeja del analista' },
  of: { en: 'Whose it was', es: 'De quién era' },
  addedBy: { en: 'Added to the queue by', es: 'Agregada a la bandeja por' },
  addedAt: { en: 'Added to the queue at', es: 'Agregada a la bandeja el' },
  decidedBy: { en: 'Decided by', es: 'Decidida por' },
  sealedSha256: { en: 'Sealed token (SHA-256)', es: 'Token sellado (SHA-256)' },
  decisionStatus: { en: 'Decision status', es: 'Estado de la decisión' },
  fourEyes: { en: 'Second reviewer needed for', es: 'Requieren segunda revisión' },
  targetHours: { en: 'Target time (hours)', es: 'Tiempo objetivo (horas)' },
  leaseMinutes: { en: 'Claim lapses after (minutes)', es: 'La asignación vence tras (minutos)' },
  reasonCode: { en: 'Reason code', es: 'Código de motivo' },
  reasonCodes: { en: 'Reason codes in use', es: 'Códigos de motivo en uso' },
  statement: { en: 'Statement version', es: 'Versión de la declaración' },
  purpose: { en: 'Stated purpose', es: 'Propósito declarado' },
  language: { en: 'Language', es: 'Idioma' },
  periodFrom: { en: 'Period from', es: 'Periodo desde' },
  periodTo: { en: 'Period to', es: 'Periodo hasta' },
} as const satisfies Record<string, Bilingual>;

export type AuditDetailKey = keyof typeof DETAIL_LABELS;
export const AUDIT_DETAIL_KEYS = Object.keys(DETAIL_LABELS) as AuditDetailKey[];

const isDetailKey = (key: string): key is AuditDetailKey => Object.hasOwn(DETAIL_LABELS, key);

/** A detail key's label; a key this table does not know keeps its name, so nothing is dropped. */
export function auditDetailLabel(key: string, language: AuditLanguage): string {
  return isDetailKey(key) ? DETAIL_LABELS[key][language] : key;
}

/** The recording types of the service (video import, recordings list), in words. */
export const RECORDING_TYPE_WORDS: Record<RecordingType, Bilingual> = {
  frontId: { en: 'Front of ID', es: 'Frente de la identificación' },
  backId: { en: 'Back of ID', es: 'Reverso de la identificación' },
  merged: { en: 'Merged', es: 'Combinada' },
  selfie: { en: 'Selfie', es: 'Selfie' },
  authenticationattempt: { en: 'Authentication attempt', es: 'Intento de autenticación' },
};

export const LOCAL_STATE_WORDS: Record<LocalReviewState, Bilingual> = {
  toReview: { en: 'To review', es: 'Por revisar' },
  inReview: { en: 'In review', es: 'En revisión' },
  decided: { en: 'Decided', es: 'Decidida' },
};

export const DECISION_WORDS: Record<DecisionKind, Bilingual> = {
  approve: { en: 'Approve', es: 'Aprobar' },
  reject: { en: 'Reject', es: 'Rechazar' },
  requestNewCapture: { en: 'Request new capture', es: 'Solicitar nueva captura' },
};

/** What main writes as `kind` (captured, validated, signed) and `what` (downloaded). */
type EntryKind =
  | 'string'
  | 'contract'
  | 'selfie'
  | 'backSecondId'
  | 'faceAuthentication'
  | 'videoImport'
  | 'rfc'
  | 'curp'
  | 'rfcBatch'
  | 'curpBatch';
type DownloadedWhat =
  | 'contract'
  | 'snapshot'
  | 'auditJson'
  | 'reviewReport'
  | 'validationCsv'
  | 'auditTrail'
  | 'apiKeysCsv'
  | 'queueCsv'
  | 'evidenceFile'
  | 'evidenceManifest'
  | 'evidenceNotWritten';

const CONTRACT: Bilingual = { en: 'Contract', es: 'Contrato' };

const KIND_WORDS: Record<EntryKind, Bilingual> = {
  string: { en: 'Text string', es: 'Cadena de texto' },
  contract: CONTRACT,
  selfie: { en: 'Selfie', es: 'Selfie' },
  backSecondId: { en: 'Back of second ID', es: 'Reverso de segunda identificación' },
  faceAuthentication: { en: 'Face authentication', es: 'Autenticación facial' },
  videoImport: { en: 'Video import', es: 'Importación de video' },
  rfc: { en: 'RFC', es: 'RFC' },
  curp: { en: 'CURP', es: 'CURP' },
  rfcBatch: { en: 'RFC batch', es: 'Lote de RFC' },
  curpBatch: { en: 'CURP batch', es: 'Lote de CURP' },
};

const DOWNLOADED_WORDS: Record<DownloadedWhat, Bilingual> = {
  contract: CONTRACT,
  snapshot: { en: 'Video snapshot', es: 'Captura del video' },
  auditJson: { en: 'Audit trail (JSON)', es: 'Bitácora (JSON)' },
  reviewReport: { en: 'Review report (PDF)', es: 'Reporte de revisión (PDF)' },
  validationCsv: { en: 'Validation results (CSV)', es: 'Resultados de validación (CSV)' },
  auditTrail: { en: 'Environment audit trail (JSON)', es: 'Bitácora del ambiente (JSON)' },
  apiKeysCsv: { en: 'API keys (CSV)', es: 'Claves de API (CSV)' },
  queueCsv: { en: 'Queue rows (CSV)', es: 'Filas de la bandeja (CSV)' },
  evidenceFile: { en: 'Evidence file (regulator’s file)', es: 'Expediente de evidencia (para el regulador)' },
  evidenceManifest: {
    en: 'Evidence file as written (its manifest)',
    es: 'Expediente de evidencia tal como se escribió (su manifiesto)',
  },
  evidenceNotWritten: {
    en: 'Evidence file not written (cancelled, or the error given)',
    es: 'Expediente de evidencia no escrito (cancelado, o el error indicado)',
  },
};

/**
 * The service's check names (RawIdvCheckResultDto.name, FraudRiskDto.name) in words. A name not listed is shown as
 * the service wrote it, marked as its term by the screen.
 */
export const CHECK_WORDS: Record<string, Bilingual> = {
  faceTamperCheck: { en: 'Face tampering', es: 'Alteración del rostro' },
  screenLivenessCheck: { en: 'Photo of a screen', es: 'Foto de una pantalla' },
  deepFraudCheck: { en: 'Deep fraud', es: 'Fraude profundo' },
  idTamperCheck: { en: 'ID tampering', es: 'Alteración de la identificación' },
  printedCopyCheck: { en: 'Printed copy', es: 'Copia impresa' },
  checkFraudRisk: { en: 'Fraud risk', es: 'Riesgo de fraude' },
};

/** A check's name in words, or undefined when the table does not know it. */
export function checkWord(name: string, language: AuditLanguage): string | undefined {
  return Object.hasOwn(CHECK_WORDS, name) ? CHECK_WORDS[name]![language] : undefined;
}

/** The service's severities (checks: low/medium/high; fraud risk: LOW/MEDIUM/HIGH), in words. */
export const SEVERITY_WORDS: Record<'low' | 'medium' | 'high', Bilingual> = {
  low: { en: 'low', es: 'baja' },
  medium: { en: 'medium', es: 'media' },
  high: { en: 'high', es: 'alta' },
};

/**
 * A finding an approval acknowledged, as main words it (main/review/decision.ts, `openHighFindings`: "name (high,
 * 0.91)", "name (high, did not run)", "checkFraudRisk (HIGH, 0.93)"), in the reader's language. A text of another
 * shape is shown as written.
 */
export function describeFinding(finding: string, language: AuditLanguage): string {
  const parts = /^(\S+) \((low|medium|high), (did not run|[^)]+)\)$/i.exec(finding);
  if (!parts) return finding;
  const [, name, severity, result] = parts as unknown as [string, string, string, string];
  const check = checkWord(name, language) ?? name;
  const level = SEVERITY_WORDS[severity.toLowerCase() as keyof typeof SEVERITY_WORDS][language];
  const value = result === 'did not run' ? DID_NOT_RUN[language] : result;
  return language === 'es' ? `${check} (severidad ${level}, ${value})` : `${check} (${level} severity, ${value})`;
}

const DID_NOT_RUN: Bilingual = { en: 'did not run', es: 'no se ejecutó' };

export const DECISION_STATUS_WORDS: Record<DecisionStatus, Bilingual> = {
  final: { en: 'Final', es: 'Definitiva' },
  proposed: { en: 'Proposed', es: 'Propuesta' },
  confirmed: { en: 'Confirmed', es: 'Confirmada' },
  overturned: { en: 'Overturned', es: 'Revocada' },
};

const FOUR_EYES_WORDS: Record<FourEyesRule, Bilingual> = {
  'high-risk-approvals': {
    en: 'Approvals with a high-severity finding, a high fraud risk or no check run',
    es: 'Aprobaciones con un hallazgo de severidad alta, riesgo de fraude alto o ninguna validación ejecutada',
  },
  'all-approvals': { en: 'Every approval', es: 'Todas las aprobaciones' },
  none: { en: 'No decision', es: 'Ninguna decisión' },
};

/**
 * Detail values that are codes, in words, per key. Each table is a full Record over its contract type, so tsc fails
 * when an enum grows without a word for it; a value not listed (an older or newer code) is shown as written.
 */
const VALUE_WORDS: Partial<Record<AuditDetailKey, Record<string, Bilingual>>> = {
  decision: DECISION_WORDS,
  from: LOCAL_STATE_WORDS,
  to: LOCAL_STATE_WORDS,
  kind: KIND_WORDS,
  what: DOWNLOADED_WORDS,
  nom151: {
    evidence: { en: 'Evidence (constancia de conservación)', es: 'Constancia de conservación' },
    signedDocument: { en: 'Signed document', es: 'Documento firmado' },
    sealedPdf: { en: 'Sealed PDF', es: 'PDF sellado' },
  } satisfies Record<ArtifactKind, Bilingual>,
  source: { file: { en: 'File', es: 'Archivo' }, url: { en: 'URL', es: 'URL' } } satisfies Record<
    ImageSource['kind'],
    Bilingual
  >,
  mode: { oneToOne: { en: 'One-to-one', es: 'Uno a uno' }, oneToN: { en: 'One-to-N', es: 'Uno a N' } } satisfies Record<
    AuthResultView['mode'],
    Bilingual
  >,
  overallStatus: { PASS: { en: 'Passed', es: 'Aprobada' }, FAIL: { en: 'Failed', es: 'Rechazada' } } satisfies Record<
    AuthenticateResponse['overallStatus'],
    Bilingual
  >,
  type: RECORDING_TYPE_WORDS,
  fourEyes: FOUR_EYES_WORDS,
  decisionStatus: DECISION_STATUS_WORDS,
};

const YES: Bilingual = { en: 'Yes', es: 'Sí' };
const NO: Bilingual = { en: 'No', es: 'No' };
const NONE: Bilingual = { en: 'none', es: 'ninguno' };

/** The language plus how numbers read in it; the screen and the report each bring their own number style. */
export interface AuditDetailFormat {
  language: AuditLanguage;
  number: (n: number) => string;
  bytes: (n: number) => string;
  duration: (seconds: number) => string;
}

export function describeAuditValue(key: string, value: unknown, f: AuditDetailFormat): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return (value ? YES : NO)[f.language];
  if (typeof value === 'number')
    return key === 'bytes' ? f.bytes(value) : key === 'positionSeconds' ? f.duration(value) : f.number(value);
  if (typeof value === 'string') {
    if (key === 'acknowledgedFindings') return describeFinding(value, f.language);
    const words = isDetailKey(key) ? VALUE_WORDS[key] : undefined;
    return words && Object.hasOwn(words, value) ? words[value]![f.language] : value;
  }
  if (Array.isArray(value))
    return value.length === 0 ? NONE[f.language] : value.map((v) => describeAuditValue(key, v, f)).join(', ');
  return JSON.stringify(value);
}

/** Every key of a detail as "label: value" in one language; a key or code this module does not know stays as written. */
export function describeAuditDetail(detail: Record<string, unknown>, f: AuditDetailFormat): string {
  return Object.entries(detail)
    .map(([key, value]) => `${auditDetailLabel(key, f.language)}: ${describeAuditValue(key, value, f)}`)
    .join(' · ');
}
