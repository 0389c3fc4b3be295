import { describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { AuditAction, AuditEntry } from '../../../common/views';
import { pdfSafe, reviewReportPdf } from '../../../main/review/report';

/** Every audit action, with the words the PDF report must use for it in each language. */
const LABELS: Record<AuditAction, { en: string; es: string }> = {
  opened: { en: 'opened', es: 'abierta' },
  played: { en: 'played', es: 'reproducido' },
  downloaded: { en: 'downloaded', es: 'descargado' },
  noted: { en: 'noted', es: 'nota enviada' },
  named: { en: 'named', es: 'nombre enviado' },
  decided: { en: 'decided', es: 'decidida' },
  proposed: { en: 'proposed for a second review', es: 'propuesta para segunda revisión' },
  confirmed: { en: 'confirmed by a second reviewer', es: 'confirmada por un segundo revisor' },
  overturned: { en: 'overturned by a second reviewer', es: 'revertida por un segundo revisor' },
  signed: { en: 'signed', es: 'firmado' },
  verified: { en: 'verified', es: 'verificado' },
  captured: { en: 'captured', es: 'capturado' },
  validated: { en: 'validated', es: 'validado' },
  stateChanged: { en: 'state changed', es: 'estado cambiado' },
  trustedRootAdded: { en: 'NOM-151 root trusted', es: 'raíz NOM-151 de confianza agregada' },
  claimed: { en: 'taken', es: 'tomada' },
  released: { en: 'released', es: 'liberada' },
  reassigned: { en: 'handed over', es: 'pasada a otra persona' },
  teamSettingsChanged: { en: 'team rules changed', es: 'reglas del equipo cambiadas' },
  removed: { en: 'removed from the queue', es: 'quitada de la bandeja' },
  restored: { en: 'put back in the queue', es: 'devuelta a la bandeja' },
  decisionRemoved: { en: 'decision removed (admin)', es: 'decisión eliminada (administración)' },
  checkpoint: {
    en: 'trail timestamped (NOM-151 checkpoint)',
    es: 'bitácora sellada en el tiempo (punto de control NOM-151)',
  },
  tokenShared: { en: 'session token shared with the team', es: 'token de sesión compartido con el equipo' },
  tokenUnshared: { en: 'shared session token removed', es: 'token de sesión compartido eliminado' },
};

const entries: AuditEntry[] = (Object.keys(LABELS) as AuditAction[]).map((action, i) => ({
  seq: i + 1,
  at: '2026-01-01T00:00:00.000Z',
  environment: 'demo',
  interviewId: 'demo-clean-pass',
  action,
  detail: {},
  prevHash: 'a'.repeat(64),
  hash: 'b'.repeat(64),
}));

const report = (language: 'en' | 'es', trail: AuditEntry[] = entries) =>
  reviewReportPdf({
    language,
    interviewId: 'demo-clean-pass',
    environment: { id: 'demo', name: 'Demo', kind: 'demo' },
    generatedAt: '2026-01-01T00:00:00.000Z',
    entry: {
      interviewId: 'demo-clean-pass',
      addedAt: '2026-01-01T00:00:00.000Z',
      localState: 'inReview',
      sessionStatus: 'Alive',
      hasSessionToken: true,
    },
    rawIdv: { ok: true, data: { checkResults: [], fraudRisk: null } },
    crossDoc: { ok: false, error: { en: 'The service timed out.', es: 'El servicio tardó demasiado.' } },
    audit: { chain: { ok: true }, entries: trail },
  }).then(pdfText);

describe('PDF report audit lines', () => {
  it.each(['en', 'es'] as const)('names every action in words, in %s', async (language) => {
    const lines = (await report(language)).split('\n').filter((l) => /^#\d+ /.test(l));
    expect(lines).toHaveLength(entries.length);
    entries.forEach((e, i) => expect(lines[i]).toBe(`#${e.seq} ${e.at} ${LABELS[e.action][language]}`));
    expect(lines.join('\n')).not.toMatch(/trustedRootAdded|stateChanged/);
  });
});

describe('PDF report of rows the app did not write (red team 17)', () => {
  it('shows a kind, state, action or findings it does not know as written, and each entry’s writer as the database says', async () => {
    const forged: AuditEntry = {
      ...entries[0]!,
      action: 'noted',
      actor: 'beto',
      detail: { text: 'identity confirmed by phone', by: 'ana' },
    };
    const odd = { ...entries[0]!, seq: 2, action: 'parkedByScript' as AuditAction, actor: 'postgres' };
    const text = await reviewReportPdf({
      language: 'en',
      interviewId: 'k-1',
      environment: { id: 'production', name: 'Production', kind: 'production' },
      generatedAt: '2026-01-01T00:00:00.000Z',
      entry: {
        interviewId: 'k-1',
        addedAt: '2026-01-01T00:00:00.000Z',
        localState: 'parked' as never,
        hasSessionToken: false,
      },
      rawIdv: { ok: true, data: { checkResults: [], fraudRisk: null } },
      crossDoc: { ok: true, data: { fields: [] } as never },
      decision: {
        decision: 'Approve' as never,
        reason: 'x',
        acknowledgedFindings: 'deepFraudCheck' as never,
        decidedAt: '2026-01-01T00:00:00.000Z',
        environment: 'production',
      } as never,
      audit: { chain: { ok: true }, entries: [forged, odd] },
      person: (login) => (login === 'postgres' ? 'maria' : login),
    }).then(pdfText);
    expect(text).toContain('Local state: parked');
    expect(text).toMatch(/^Approve$/m);
    expect(text).toContain('Acknowledged high-severity findings: "deepFraudCheck"');
    // The note is beto's, whatever its detail says; the database's one user is the person the app knows.
    expect(text).toMatch(/^2026-01-01T00:00:00.000Z Note beto$/m);
    expect(text).toMatch(/^#1 2026-01-01T00:00:00.000Z noted \(beto\) /m);
    expect(text).toMatch(/^#2 2026-01-01T00:00:00.000Z parkedByScript \(maria\)/m);
  });
});

/** Entries as main writes them, with details whose keys and values are codes. */
const detailed: AuditEntry[] = (
  [
    ['downloaded', { what: 'contract', documentId: 'doc-7', bytes: 1536 }],
    ['captured', { kind: 'videoImport', type: 'frontId', bytes: 2048, recordingId: 'rec-1' }],
    ['decided', { decision: 'requestNewCapture', reason: 'Foto borrosa', acknowledgedFindings: [] }],
    ['stateChanged', { from: 'inReview', to: 'decided' }],
    ['played', { positionSeconds: 75.4, laterKey: 'kept' }],
  ] as const
).map(([action, detail], i) => ({ ...entries[0]!, seq: i + 1, action, detail }));

describe('PDF report audit details', () => {
  it('reads each detail as label: value in Spanish, with codes in words and no raw key left', async () => {
    const text = (await report('es', detailed)).replace(/\s+/g, ' ');
    expect(text).toContain(
      '#1 2026-01-01T00:00:00.000Z descargado Contenido: Contrato · ID del documento: doc-7 · Tamaño: 1,536 bytes',
    );
    expect(text).toContain(
      'capturado Tipo: Importación de video · Tipo de grabación: Frente de la identificación · Tamaño: 2,048 bytes · ID de la grabación: rec-1',
    );
    expect(text).toContain(
      'decidida Decisión: Solicitar nueva captura · Hallazgos de severidad alta reconocidos: ninguno',
    );
    expect(text).toContain('estado cambiado De: En revisión · A: Decidida');
    // A key the words do not know yet stays readable as written.
    expect(text).toContain('reproducido Posición: 75.4 s · laterKey: kept');
    expect(text).not.toMatch(/documentId|recordingId|frontId|videoImport|requestNewCapture|inReview|positionSeconds|=/);
  });

  it('uses the English words in an English report', async () => {
    const text = (await report('en', detailed)).replace(/\s+/g, ' ');
    expect(text).toContain('downloaded Content: Contract · Document ID: doc-7 · Size: 1,536 bytes');
    expect(text).toContain(
      'captured Kind: Video import · Recording type: Front of ID · Size: 2,048 bytes · Recording ID: rec-1',
    );
    expect(text).toContain('state changed From: In review · To: Decided');
    expect(text).not.toMatch(/documentId|frontId|Tipo de grabación/);
  });
});

describe('review report PDF', () => {
  it('renders findings, decision, notes and the chain state, even with characters the standard font lacks', async () => {
    const bytes = await reviewReportPdf({
      language: 'en',
      interviewId: 'demo-fraud-high',
      environment: { id: 'demo', name: 'Demo', kind: 'demo' },
      generatedAt: '2026-01-01T00:00:00.000Z',
      rawIdv: {
        ok: true,
        data: {
          checkResults: [{ name: 'faceTamperCheck', severity: 'high', version: '3', result: 0.97 }],
          fraudRisk: null,
        },
      },
      crossDoc: { ok: false, error: { en: 'timeout', es: 'tiempo agotado' } },
      decision: {
        decision: 'reject',
        reason: 'Rostro reutilizado 👀 — 日本',
        acknowledgedFindings: [],
        decidedAt: '2026-01-01T00:00:00.000Z',
        environment: 'demo',
        status: 'final',
      },
      audit: {
        chain: { ok: true },
        entries: Array.from({ length: 120 }, (_, i) => ({
          seq: i + 1,
          at: '2026-01-01T00:00:00.000Z',
          environment: 'demo',
          interviewId: 'demo-fraud-high',
          action: i === 3 ? ('noted' as const) : ('played' as const),
          detail: i === 3 ? { text: 'Nota larga '.repeat(80) } : { positionSeconds: i },
          prevHash: 'a'.repeat(64),
          hash: 'b'.repeat(64),
        })),
      },
    });
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBeGreaterThan(2);
    expect(doc.getTitle()).toBe('Review report demo-fraud-high');
  });

  const reportIn = (language: 'en' | 'es') =>
    reviewReportPdf({
      language,
      interviewId: 'demo-fraud-high',
      environment: { id: 'demo', name: 'Demo', kind: 'demo' },
      generatedAt: '2026-01-01T00:00:00.000Z',
      entry: {
        interviewId: 'demo-fraud-high',
        addedAt: '2026-01-01T00:00:00.000Z',
        localState: 'decided',
        sessionStatus: 'Alive',
        hasSessionToken: true,
      },
      rawIdv: {
        ok: true,
        data: {
          checkResults: [{ name: 'faceTamperCheck', severity: 'high', version: '3', result: 0.97 }],
          fraudRisk: null,
        },
      },
      crossDoc: { ok: false, error: { en: 'The service timed out.', es: 'El servicio tardó demasiado.' } },
      decision: {
        decision: 'reject',
        reasonCode: 'identity_mismatch',
        reasonLabel: { en: 'Identity mismatch', es: 'La identidad no coincide' },
        reason: 'Rostro reutilizado',
        acknowledgedFindings: [],
        decidedAt: '2026-01-01T00:00:00.000Z',
        environment: 'demo',
        status: 'confirmed',
        decidedBy: 'ana',
        reviewedBy: 'beto',
        reviewedAt: '2026-01-01T01:00:00.000Z',
        reviewReason: 'Comparé las fotos',
      },
      audit: {
        chain: { ok: true },
        entries: [
          {
            seq: 1,
            at: '2026-01-01T00:00:00.000Z',
            environment: 'demo',
            interviewId: 'demo-fraud-high',
            action: 'stateChanged',
            detail: { from: 'decided', to: 'inReview' },
            prevHash: 'a'.repeat(64),
            hash: 'b'.repeat(64),
          },
        ],
      },
    }).then(pdfText);

  it('is written in the requested language only, never both side by side', async () => {
    const es = await reportIn('es');
    for (const word of [
      'Reporte de revisión de entrevista',
      'Decisión',
      'Rechazar',
      'Validaciones de identificación',
      '[ALTA]',
      'No se produjo riesgo de fraude.',
      'El servicio tardó demasiado.',
      'Bitácora',
      'estado cambiado',
      'Decidida',
      // The code with the labels it had when recorded, the status, who decided and who reviewed.
      'Rechazar · Confirmada',
      'Código de motivo: La identidad no coincide (identity_mismatch)',
      'Decidida por: ana',
      'Segunda revisión de: beto',
    ])
      expect(es).toContain(word);
    for (const word of [
      'Interview review report',
      'Decision',
      'Reject',
      'ID validation checks',
      '[HIGH]',
      'No fraud risk',
      'timed out',
      'Audit trail',
      'state changed',
      ' / ',
    ])
      expect(es).not.toContain(word);

    const en = await reportIn('en');
    for (const word of [
      'Interview review report',
      'Decision',
      'Reject',
      'ID validation checks',
      '[HIGH]',
      'No fraud risk was produced.',
      'The service timed out.',
      'Audit trail',
      'state changed',
      'Decided',
      'Reject · Confirmed',
      'Reason code: Identity mismatch (identity_mismatch)',
      'Decided by: ana',
      'Second review by: beto',
    ])
      expect(en).toContain(word);
    for (const word of ['Reporte', 'Decisión', 'Rechazar', 'Validaciones', '[ALTA]', 'tardó', 'Bitácora', ' / '])
      expect(en).not.toContain(word);
  });

  it('replaces characters WinAnsi cannot encode', () => {
    expect(pdfSafe('José Ñandú 👀 日本')).toBe('José Ñandú ?? ??');
  });
});

/** All text of a PDF as pdf.js reads it (what a reader of the file would see). */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocument({ data: bytes, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++)
    pages.push((await (await pdf.getPage(n)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join('\n'));
  await pdf.destroy();
  return pages.join('\n');
}
