import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { CrossDocResponse, RawIdvResponse } from '../omni/contract';
import type { AuditEntry, EnvironmentConfig } from '../ipc/context';
import type { AuditView, DecisionRecord } from '../../preload/contract/interview';
import type { QueueEntry } from '../../preload/contract/queue';
import { crossDocRows } from './crossdoc';

export type Outcome<T> = { ok: true; data: T } | { ok: false; error: string };

export interface ReviewReportInput {
  interviewId: string;
  environment: Pick<EnvironmentConfig, 'id' | 'name' | 'kind'>;
  generatedAt: string;
  entry?: QueueEntry;
  rawIdv: Outcome<RawIdvResponse>;
  crossDoc: Outcome<CrossDocResponse>;
  decision?: DecisionRecord;
  audit: AuditView;
}

/** The audit trail of one interview as a self-describing JSON document (entries keep their hashes). */
export function auditJson(input: Pick<ReviewReportInput, 'interviewId' | 'environment' | 'generatedAt' | 'audit' | 'decision'>): string {
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
  return text.normalize('NFC').replace(/[^\u0020-\u007e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac]/g, '?');
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
    this.page.drawText(pdfSafe(this.footer), { x: PAGE.margin, y: 24, size: 7, font: this.fonts.regular, color: MUTED });
  }

  private ensure(height: number) {
    if (this.y - height < PAGE.margin) this.newPage();
  }

  text(text: string, opts: { size?: number; font?: 'regular' | 'bold' | 'mono'; color?: ReturnType<typeof rgb>; indent?: number } = {}) {
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

const decisionText: Record<DecisionRecord['decision'], string> = {
  approve: 'Approve / Aprobar',
  reject: 'Reject / Rechazar',
  requestNewCapture: 'Request new capture / Solicitar nueva captura',
};

function describeAudit(entry: AuditEntry): string {
  const d = entry.detail;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(d)) {
    if (key === 'text' || key === 'reason') continue;
    parts.push(`${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  return parts.join(', ');
}

/** The review as a PDF: who/what/when, findings, cross-document comparison, decision, notes and the audit trail. */
export async function reviewReportPdf(input: ReviewReportInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Review report ${input.interviewId}`);
  doc.setSubject('Omni Reviewer interview review');
  doc.setProducer('Omni Reviewer');
  doc.setCreationDate(new Date(input.generatedAt));
  const fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    mono: await doc.embedFont(StandardFonts.Courier),
  };
  const w = new Writer(doc, fonts, `Omni Reviewer · ${input.interviewId} · ${input.environment.name} (${input.environment.kind}) · ${input.generatedAt}`);

  w.text('Interview review report / Reporte de revisión de entrevista', { size: 16, font: 'bold' });
  w.gap(4);
  w.text(`Interview / Entrevista: ${input.interviewId}`, { font: 'mono' });
  w.text(`Environment / Ambiente: ${input.environment.name} (${input.environment.kind})`);
  if (input.environment.kind === 'demo') w.text('DEMO DATA: not a real interview / DATOS DE DEMOSTRACIÓN', { font: 'bold', color: rgb(0.6, 0.3, 0) });
  w.text(`Generated / Generado: ${input.generatedAt}`);
  if (input.entry) {
    w.text(`Session status / Estado de la sesión: ${input.entry.sessionStatus ?? 'unknown'}${input.entry.sessionStatusSeenAt ? ` (seen ${input.entry.sessionStatusSeenAt})` : ''}`);
    w.text(`Local state / Estado local: ${input.entry.localState}`);
  }

  w.heading('Decision / Decisión');
  if (input.decision) {
    w.text(decisionText[input.decision.decision], { font: 'bold' });
    w.text(`Reason / Motivo: ${input.decision.reason}`);
    w.text(`Decided at / Fecha: ${input.decision.decidedAt}`);
    if (input.decision.acknowledgedFindings.length) w.text(`Acknowledged high-severity findings: ${input.decision.acknowledgedFindings.join('; ')}`);
  } else w.text('No decision recorded yet. / Aún no hay decisión.', { color: MUTED });

  w.heading('ID validation checks / Validaciones de identificación');
  if (!input.rawIdv.ok) w.text(`Could not be fetched: ${input.rawIdv.error}`, { color: MUTED });
  else if (input.rawIdv.data.checkResults.length === 0) w.text('The ID-validation service was not run for this interview.', { color: MUTED });
  else
    for (const c of input.rawIdv.data.checkResults)
      w.text(`[${c.severity.toUpperCase()}] ${c.name}  v${c.version}  ${c.result === null ? 'did not run' : String(c.result)}`, { font: 'mono', size: 8.5 });

  w.heading('Fraud risk / Riesgo de fraude');
  const fraud = input.rawIdv.ok ? input.rawIdv.data.fraudRisk : undefined;
  if (!input.rawIdv.ok) w.text('Could not be fetched (see above).', { color: MUTED });
  else if (!fraud) w.text('No fraud risk was produced. / No se produjo riesgo de fraude.', { color: MUTED });
  else {
    w.text(`[${fraud.severity}] score ${String(fraud.result)}  v${fraud.version}  ${fraud.responseCategory ?? ''}`, { font: 'mono' });
    if (fraud.responseText) w.text(fraud.responseText);
    fraud.topNFraudFeatures.forEach((f, i) => w.text(`fraud: ${fraud.topNFraudCodes[i] ?? '-'}  ${f}`, { indent: 10, size: 8.5 }));
    fraud.topNLegitFeatures.forEach((f, i) => w.text(`legit: ${fraud.topNLegitCodes[i] ?? '-'}  ${f}`, { indent: 10, size: 8.5 }));
  }

  w.heading('Cross-document comparison / Comparación entre documentos');
  if (!input.crossDoc.ok) w.text(`Could not be fetched: ${input.crossDoc.error}`, { color: MUTED });
  else {
    const rows = crossDocRows(input.crossDoc.data);
    if (rows.length === 0) w.text('No fields were compared.', { color: MUTED });
    for (const row of rows) {
      const verdict = row.verdict === 'match' ? 'MATCH' : row.verdict === 'mismatch' ? 'MISMATCH' : 'UNKNOWN';
      w.text(`${verdict.padEnd(9)} ${row.field}`, { font: 'mono', size: 8.5 });
      for (const [k, v] of row.details) w.text(`${k}: ${v}`, { indent: 16, size: 8.5, color: MUTED });
    }
  }

  w.heading('Notes and name / Notas y nombre');
  const sent = input.audit.entries.filter((e) => e.action === 'noted' || e.action === 'named');
  if (sent.length === 0) w.text('No notes or name were sent from this app.', { color: MUTED });
  for (const e of sent) {
    w.text(`${e.at}  ${e.action === 'named' ? 'Name / Nombre' : 'Note / Nota'}`, { font: 'bold', size: 8.5 });
    w.text(String(e.detail.text ?? ''), { indent: 10 });
  }

  w.heading('Audit trail / Bitácora');
  w.text(
    input.audit.chain.ok
      ? 'Hash chain verified: no entry was changed or removed. / Cadena de hashes verificada.'
      : `HASH CHAIN BROKEN at entry ${input.audit.chain.brokenAt}: the trail was altered. / CADENA ROTA.`,
    { font: 'bold', color: input.audit.chain.ok ? INK : rgb(0.7, 0, 0) },
  );
  for (const e of input.audit.entries) {
    w.text(`#${e.seq}  ${e.at}  ${e.action}  ${describeAudit(e)}`, { size: 8.5 });
    w.text(`hash ${e.hash}`, { font: 'mono', size: 6.5, color: MUTED, indent: 10 });
  }
  return doc.save();
}
