import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { CrossDocResponse, RawIdvResponse } from '../../common/omni';
import type { AuditEntry } from '../../common/views';
import type { EnvironmentConfig } from '../ports';
import type { AuditView, DecisionRecord } from '../../common/ipc/interview';
import type { QueueEntry } from '../../common/ipc/queue';
import {
  DECISION_STATUS_WORDS,
  DECISION_WORDS,
  LOCAL_STATE_WORDS,
  describeAuditDetail,
  type AuditDetailFormat,
} from '../../common/audit-words';
import { crossDocRows } from './crossdoc';

export type Outcome<T> = { ok: true; data: T } | { ok: false; error: { en: string; es: string } };

export interface ReviewReportInput {
  language: ReportLanguage;
  interviewId: string;
  environment: Pick<EnvironmentConfig, 'id' | 'name' | 'kind'>;
  generatedAt: string;
  entry?: QueueEntry;
  rawIdv: Outcome<RawIdvResponse>;
  crossDoc: Outcome<CrossDocResponse>;
  decision?: DecisionRecord;
  audit: AuditView;
  /** Each entry's writer (the database's `actor`) as the screens name them (person.ts); as stored when absent. */
  person?: (login: string) => string;
}

/** The audit trail of one interview as a self-describing JSON document (entries keep their hashes). */
export function auditJson(
  input: Pick<ReviewReportInput, 'interviewId' | 'environment' | 'generatedAt' | 'audit' | 'decision'>,
): string {
  return JSON.stringify(
    {
      format: 'omni-reviewer.audit',
      version: 1,
      interviewId: input.interviewId,
      environment: input.environment,
      exportedAt: input.generatedAt,
      chain: input.audit.chain,
      decision: input.decision ?? null,
      entries: input.audit.entries,
    },
    null,
    2,
  );
}

const PAGE = { width: 595.28, height: 841.89, margin: 48 };
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.4, 0.4, 0.45);

/** Standard fonts encode WinAnsi only; anything else would throw, so it becomes "?". */
export function pdfSafe(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[^\u0020-\u007e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac]/g, '?');
}

class Writer {
  private page!: PDFPage;
  private y = 0;
  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: { regular: PDFFont; bold: PDFFont; mono: PDFFont },
    private readonly footer: string,
  ) {
    this.newPage();
  }

  private newPage() {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - PAGE.margin;
    this.page.drawText(pdfSafe(this.footer), {
      x: PAGE.margin,
      y: 24,
      size: 7,
      font: this.fonts.regular,
      color: MUTED,
    });
  }

  private ensure(height: number) {
    if (this.y - height < PAGE.margin) this.newPage();
  }

  text(
    text: string,
    opts: { size?: number; font?: 'regular' | 'bold' | 'mono'; color?: ReturnType<typeof rgb>; indent?: number } = {},
  ) {
    const size = opts.size ?? 9.5;
    const font = this.fonts[opts.font ?? 'regular'];
    const x = PAGE.margin + (opts.indent ?? 0);
    const width = PAGE.width - PAGE.margin - x;
    for (const paragraph of pdfSafe(text).split(/\r?\n/)) {
      for (const line of wrap(paragraph, font, size, width)) {
        this.ensure(size * 1.4);
        this.page.drawText(line, { x, y: this.y - size, size, font, color: opts.color ?? INK });
        this.y -= size * 1.4;
      }
    }
  }

  heading(text: string) {
    this.gap(8);
    this.ensure(40);
    this.text(text, { size: 13, font: 'bold' });
    this.gap(2);
  }

  gap(points: number) {
    this.y -= points;
  }
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  if (text === '') return [''];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/(\s+)/)) {
    const candidate = line + word;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      line = candidate;
      continue;
    }
    if (line.trim() !== '') lines.push(line.trimEnd());
    line = word.trimStart();
    // A single word wider than the line (hashes, ids) is cut hard.
    while (font.widthOfTextAtSize(line, size) > width) {
      let cut = line.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line.trim() !== '' || lines.length === 0) lines.push(line.trimEnd());
  return lines;
}

/**
 * An entry's detail in the report's language, worded as on screen. Numbers stay exact (bytes as a count, seconds as
 * written): the report is evidence. Note text and decision reasons are left out here: they print in their own sections.
 */
function describeAudit(entry: AuditEntry, language: ReportLanguage): string {
  const number = (n: number) =>
    new Intl.NumberFormat(language === 'es' ? 'es-MX' : 'en-US', { maximumFractionDigits: 3 }).format(n);
  const format: AuditDetailFormat = {
    language,
    number,
    bytes: (n) => `${number(n)} bytes`,
    duration: (s) => `${number(s)} s`,
  };
  const shown = Object.entries(entry.detail).filter(([key]) => key !== 'text' && key !== 'reason');
  return describeAuditDetail(Object.fromEntries(shown), format);
}

export type ReportLanguage = 'en' | 'es';

/** Every word of the report, per language: the report is written in the analyst's screen language alone. */
const words = {
  en: {
    docTitle: (id: string) => `Review report ${id}`,
    subject: 'Omni Reviewer interview review',
    title: 'Interview review report',
    interview: 'Interview',
    environment: 'Environment',
    demoData: 'DEMO DATA: not a real interview',
    generated: 'Generated',
    sessionStatus: 'Session status',
    seen: 'seen',
    unknown: 'unknown',
    localState: 'Local state',
    decision: 'Decision',
    reason: 'Reason',
    reasonCode: 'Reason code',
    decidedAt: 'Decided at',
    decidedBy: 'Decided by',
    reviewedBy: 'Second review by',
    acknowledged: 'Acknowledged high-severity findings',
    noDecision: 'No decision recorded yet.',
    checks: 'ID validation checks',
    notFetched: 'Could not be fetched',
    idvNotRun: 'The ID-validation service was not run for this interview.',
    didNotRun: 'did not run',
    severity: { low: 'LOW', medium: 'MEDIUM', high: 'HIGH' } as Record<string, string>,
    fraud: 'Fraud risk',
    seeAbove: 'Could not be fetched (see above).',
    noFraud: 'No fraud risk was produced.',
    score: 'score',
    fraudFeature: 'fraud',
    legitFeature: 'legitimate',
    crossDoc: 'Cross-document comparison',
    noFields: 'No fields were compared.',
    verdicts: { match: 'MATCH', mismatch: 'MISMATCH', unknown: 'UNKNOWN' },
    notes: 'Notes and name',
    noNotes: 'No notes or name were sent from this app.',
    name: 'Name',
    note: 'Note',
    audit: 'Audit trail',
    chainOk: 'Hash chain verified: no entry was changed or removed.',
    chainBroken: (n: number) => `HASH CHAIN BROKEN at entry ${n}: the trail was altered.`,
    actions: {
      opened: 'opened',
      played: 'played',
      downloaded: 'downloaded',
      noted: 'noted',
      named: 'named',
      decided: 'decided',
      proposed: 'proposed for a second review',
      confirmed: 'confirmed by a second reviewer',
      overturned: 'overturned by a second reviewer',
      signed: 'signed',
      verified: 'verified',
      captured: 'captured',
      validated: 'validated',
      stateChanged: 'state changed',
      trustedRootAdded: 'NOM-151 root trusted',
      claimed: 'taken',
      released: 'released',
      reassigned: 'handed over',
      teamSettingsChanged: 'team rules changed',
      removed: 'removed from the queue',
      restored: 'put back in the queue',
      decisionRemoved: 'decision removed (admin)',
      checkpoint: 'trail timestamped (NOM-151 checkpoint)',
      tokenShared: 'session token shared with the team',
      tokenUnshared: 'shared session token removed',
    } satisfies Record<AuditEntry['action'], string>,
  },
  es: {
    docTitle: (id: string) => `Reporte de revisión ${id}`,
    subject: 'Revisión de entrevista de Omni Reviewer',
    title: 'Reporte de revisión de entrevista',
    interview: 'Entrevista',
    environment: 'Ambiente',
    demoData: 'DATOS DE DEMOSTRACIÓN: no es una entrevista real',
    generated: 'Generado',
    sessionStatus: 'Estado de la sesión',
    seen: 'visto',
    unknown: 'desconocido',
    localState: 'Estado local',
    decision: 'Decisión',
    reason: 'Motivo',
    reasonCode: 'Código de motivo',
    decidedAt: 'Fecha de la decisión',
    decidedBy: 'Decidida por',
    reviewedBy: 'Segunda revisión de',
    acknowledged: 'Hallazgos de severidad alta reconocidos',
    noDecision: 'Aún no hay una decisión registrada.',
    checks: 'Validaciones de identificación',
    notFetched: 'No se pudo obtener',
    idvNotRun: 'El servicio de validación de identificación no se ejecutó para esta entrevista.',
    didNotRun: 'no se ejecutó',
    severity: { low: 'BAJA', medium: 'MEDIA', high: 'ALTA' } as Record<string, string>,
    fraud: 'Riesgo de fraude',
    seeAbove: 'No se pudo obtener (ver arriba).',
    noFraud: 'No se produjo riesgo de fraude.',
    score: 'puntaje',
    fraudFeature: 'fraude',
    legitFeature: 'legítimo',
    crossDoc: 'Comparación entre documentos',
    noFields: 'No se compararon campos.',
    verdicts: { match: 'COINCIDE', mismatch: 'NO COINCIDE', unknown: 'DESCONOCIDO' },
    notes: 'Notas y nombre',
    noNotes: 'No se enviaron notas ni nombre desde esta aplicación.',
    name: 'Nombre',
    note: 'Nota',
    audit: 'Bitácora',
    chainOk: 'Cadena de hashes verificada: ninguna entrada fue modificada ni eliminada.',
    chainBroken: (n: number) => `CADENA DE HASHES ROTA en la entrada ${n}: la bitácora fue alterada.`,
    actions: {
      opened: 'abierta',
      played: 'reproducido',
      downloaded: 'descargado',
      noted: 'nota enviada',
      named: 'nombre enviado',
      decided: 'decidida',
      proposed: 'propuesta para segunda revisión',
      confirmed: 'confirmada por un segundo revisor',
      overturned: 'revertida por un segundo revisor',
      signed: 'firmado',
      verified: 'verificado',
      captured: 'capturado',
      validated: 'validado',
      stateChanged: 'estado cambiado',
      trustedRootAdded: 'raíz NOM-151 de confianza agregada',
      claimed: 'tomada',
      released: 'liberada',
      reassigned: 'pasada a otra persona',
      teamSettingsChanged: 'reglas del equipo cambiadas',
      removed: 'quitada de la bandeja',
      restored: 'devuelta a la bandeja',
      decisionRemoved: 'decisión eliminada (administración)',
      checkpoint: 'bitácora sellada en el tiempo (punto de control NOM-151)',
      tokenShared: 'token de sesión compartido con el equipo',
      tokenUnshared: 'token de sesión compartido eliminado',
    } satisfies Record<AuditEntry['action'], string>,
  },
} as const;

/** The review as a PDF in one language: who/what/when, findings, cross-document comparison, decision, notes and the audit trail. */
export async function reviewReportPdf(input: ReviewReportInput): Promise<Uint8Array> {
  const w8 = words[input.language];
  const person = input.person ?? ((login: string) => login);
  /** A code in words; one this version does not know (an older or newer one, or a row written with psql) as it is. */
  const inWords = (table: Record<string, { en: string; es: string }>, code: string) =>
    Object.hasOwn(table, code) ? table[code]![input.language] : code;
  /** Who wrote a note: the database's word (the entry's writer), else what the entry says. */
  const writerOf = (e: AuditEntry) =>
    e.actor !== undefined ? person(e.actor) : typeof e.detail.by === 'string' ? e.detail.by : undefined;
  const doc = await PDFDocument.create();
  doc.setTitle(w8.docTitle(input.interviewId));
  doc.setSubject(w8.subject);
  doc.setLanguage(input.language === 'es' ? 'es-MX' : 'en-US');
  doc.setProducer('Omni Reviewer');
  doc.setCreationDate(new Date(input.generatedAt));
  const fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    mono: await doc.embedFont(StandardFonts.Courier),
  };
  const w = new Writer(
    doc,
    fonts,
    `Omni Reviewer · ${input.interviewId} · ${input.environment.name} (${input.environment.kind}) · ${input.generatedAt}`,
  );

  w.text(w8.title, { size: 16, font: 'bold' });
  w.gap(4);
  w.text(`${w8.interview}: ${input.interviewId}`, { font: 'mono' });
  w.text(`${w8.environment}: ${input.environment.name} (${input.environment.kind})`);
  if (input.environment.kind === 'demo') w.text(w8.demoData, { font: 'bold', color: rgb(0.6, 0.3, 0) });
  w.text(`${w8.generated}: ${input.generatedAt}`);
  if (input.entry) {
    w.text(
      `${w8.sessionStatus}: ${input.entry.sessionStatus ?? w8.unknown}${input.entry.sessionStatusSeenAt ? ` (${w8.seen} ${input.entry.sessionStatusSeenAt})` : ''}`,
    );
    w.text(`${w8.localState}: ${inWords(LOCAL_STATE_WORDS, input.entry.localState)}`);
  }

  w.heading(w8.decision);
  if (input.decision) {
    const d = input.decision;
    const status = typeof d.status === 'string' ? ` · ${inWords(DECISION_STATUS_WORDS, d.status)}` : '';
    w.text(`${inWords(DECISION_WORDS, d.decision)}${status}`, { font: 'bold' });
    // The code with the labels it had when the decision was recorded (0019); an earlier decision's, the code alone.
    if (d.reasonCode)
      w.text(
        `${w8.reasonCode}: ${typeof d.reasonLabel?.[input.language] === 'string' ? `${d.reasonLabel[input.language]} (${d.reasonCode})` : d.reasonCode}`,
      );
    w.text(`${w8.reason}: ${d.reason}`);
    w.text(`${w8.decidedAt}: ${d.decidedAt}`);
    if (d.decidedBy) w.text(`${w8.decidedBy}: ${d.decidedBy}`);
    if (d.reviewedBy)
      w.text(
        `${w8.reviewedBy}: ${d.reviewedBy}${d.reviewedAt ? ` · ${d.reviewedAt}` : ''}${d.reviewReason ? ` · ${d.reviewReason}` : ''}`,
      );
    const findings: unknown = input.decision.acknowledgedFindings;
    if (Array.isArray(findings) ? findings.length : findings)
      w.text(`${w8.acknowledged}: ${Array.isArray(findings) ? findings.join('; ') : JSON.stringify(findings)}`);
  } else w.text(w8.noDecision, { color: MUTED });

  w.heading(w8.checks);
  if (!input.rawIdv.ok) w.text(`${w8.notFetched}: ${input.rawIdv.error[input.language]}`, { color: MUTED });
  else if (input.rawIdv.data.checkResults.length === 0) w.text(w8.idvNotRun, { color: MUTED });
  else
    for (const c of input.rawIdv.data.checkResults)
      w.text(
        `[${w8.severity[c.severity.toLowerCase()] ?? c.severity}] ${c.name}  v${c.version}  ${c.result === null ? w8.didNotRun : String(c.result)}`,
        { font: 'mono', size: 8.5 },
      );

  w.heading(w8.fraud);
  const fraud = input.rawIdv.ok ? input.rawIdv.data.fraudRisk : undefined;
  if (!input.rawIdv.ok) w.text(w8.seeAbove, { color: MUTED });
  else if (!fraud) w.text(w8.noFraud, { color: MUTED });
  else {
    w.text(
      `[${w8.severity[fraud.severity.toLowerCase()] ?? fraud.severity}] ${w8.score} ${String(fraud.result)}  v${fraud.version}  ${fraud.responseCategory ?? ''}`,
      { font: 'mono' },
    );
    // The service's own free text and feature names stay as the service wrote them.
    if (fraud.responseText) w.text(fraud.responseText);
    fraud.topNFraudFeatures.forEach((f, i) =>
      w.text(`${w8.fraudFeature}: ${fraud.topNFraudCodes[i] ?? '-'}  ${f}`, { indent: 10, size: 8.5 }),
    );
    fraud.topNLegitFeatures.forEach((f, i) =>
      w.text(`${w8.legitFeature}: ${fraud.topNLegitCodes[i] ?? '-'}  ${f}`, { indent: 10, size: 8.5 }),
    );
  }

  w.heading(w8.crossDoc);
  if (!input.crossDoc.ok) w.text(`${w8.notFetched}: ${input.crossDoc.error[input.language]}`, { color: MUTED });
  else {
    const rows = crossDocRows(input.crossDoc.data);
    if (rows.length === 0) w.text(w8.noFields, { color: MUTED });
    const width = Math.max(...Object.values(w8.verdicts).map((v) => v.length)) + 1;
    for (const row of rows) {
      w.text(`${w8.verdicts[row.verdict].padEnd(width)} ${row.field}`, { font: 'mono', size: 8.5 });
      for (const [k, v] of row.details) w.text(`${k}: ${v}`, { indent: 16, size: 8.5, color: MUTED });
    }
  }

  w.heading(w8.notes);
  const sent = input.audit.entries.filter((e) => e.action === 'noted' || e.action === 'named');
  if (sent.length === 0) w.text(w8.noNotes, { color: MUTED });
  for (const e of sent) {
    const by = writerOf(e);
    w.text(`${e.at}  ${e.action === 'named' ? w8.name : w8.note}${by ? `  ${by}` : ''}`, { font: 'bold', size: 8.5 });
    w.text(String(e.detail.text ?? ''), { indent: 10 });
  }

  w.heading(w8.audit);
  w.text(input.audit.chain.ok ? w8.chainOk : w8.chainBroken(input.audit.chain.brokenAt), {
    font: 'bold',
    color: input.audit.chain.ok ? INK : rgb(0.7, 0, 0),
  });
  for (const e of input.audit.entries) {
    const action = Object.hasOwn(w8.actions, e.action) ? w8.actions[e.action] : e.action;
    const by = e.actor === undefined ? '' : `  (${person(e.actor)})`;
    w.text(`#${e.seq}  ${e.at}  ${action}${by}  ${describeAudit(e, input.language)}`, { size: 8.5 });
    w.text(`hash ${e.hash}`, { font: 'mono', size: 6.5, color: MUTED, indent: 10 });
  }
  return doc.save();
}
