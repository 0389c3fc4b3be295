import { describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { parseImport, splitCsvLine } from '../../../main/review/import';
import { parseDeepLink } from '../../../common/deep-link';
import { formatDecisionNote, openHighFindings, parseDecisionNote } from '../../../main/review/decision';
import { crossDocRows } from '../../../main/review/crossdoc';
import { pdfSafe, reviewReportPdf } from '../../../main/review/report';
import { videoUrlExpiry } from '../../../main/review/video';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJpbnRlcnZpZXdJZCI6ImEifQ.c2lnbmF0dXJl';

describe('parseImport', () => {
  it('reads a pasted list with ids separated by lines, commas and spaces', () => {
    const r = parseImport('demo-a\ndemo-b, demo-c  demo-d\n\n# comment\n');
    expect(r.items.map((i) => i.interviewId)).toEqual(['demo-a', 'demo-b', 'demo-c', 'demo-d']);
    expect(r.problems).toEqual([]);
  });

  it('attaches a JWT-shaped token written after the id on the same line', () => {
    const r = parseImport(`demo-a ${JWT}\ndemo-b`);
    expect(r.items).toEqual([{ interviewId: 'demo-a', sessionToken: JWT }, { interviewId: 'demo-b' }]);
  });

  it('reports bad lines by number without dropping the good ones', () => {
    const r = parseImport('good-1\nbad/id\ngood-2');
    expect(r.items.map((i) => i.interviewId)).toEqual(['good-1', 'good-2']);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]?.line).toBe(2);
    expect(r.problems[0]?.message.es).toContain('no es un id');
  });

  it('reads a CSV with a header in any column order, quoted cells and semicolons', () => {
    const csv = '\uFEFFlabel;sessionToken;interviewId\r\n"Cliente; uno";' + JWT + ';demo-x\r\nsolo;;demo-y\r\n';
    const r = parseImport(csv);
    expect(r.items).toEqual([{ interviewId: 'demo-x', sessionToken: JWT }, { interviewId: 'demo-y' }]);
  });

  it('reads a headerless CSV as id then token when told it is CSV', () => {
    const r = parseImport(`demo-1,${JWT}\ndemo-2`, 'csv');
    expect(r.items).toEqual([{ interviewId: 'demo-1', sessionToken: JWT }, { interviewId: 'demo-2' }]);
  });

  it('never echoes an invalid token back in a problem', () => {
    const r = parseImport('interviewId,token\ndemo-1,"bad token with spaces"', 'csv');
    expect(r.items).toEqual([{ interviewId: 'demo-1' }]);
    expect(JSON.stringify(r.problems)).not.toContain('bad token');
  });

  it('keeps one item per id, the later token winning', () => {
    const r = parseImport(`interviewId,token\na1,${JWT}\na1,\na2,x`, 'csv');
    expect(r.items[0]).toEqual({ interviewId: 'a1', sessionToken: JWT });
    expect(r.items).toHaveLength(2);
  });

  it('splits quoted CSV cells with doubled quotes', () => {
    expect(splitCsvLine('"a ""b"", c",d', ',')).toEqual(['a "b", c', 'd']);
  });
});

describe('parseDeepLink', () => {
  it('reads the id and an optional token', () => {
    expect(parseDeepLink('omni-reviewer://interview/demo-clean-pass')).toEqual({ interviewId: 'demo-clean-pass' });
    expect(parseDeepLink(`omni-reviewer://interview/abc123?token=${JWT}`)).toEqual({
      interviewId: 'abc123',
      sessionToken: JWT,
    });
    expect(parseDeepLink('OMNI-REVIEWER:///interview/abc123/')).toEqual({ interviewId: 'abc123' });
  });

  it('refuses other schemes, paths and ids with a bilingual error', () => {
    for (const bad of [
      'https://interview/abc',
      'omni-reviewer://settings/x',
      'omni-reviewer://interview/',
      'omni-reviewer://interview/..%2Fetc',
      'omni-reviewer://interview/a/b',
    ]) {
      expect(() => parseDeepLink(bad), bad).toThrowError(/does not name an interview/);
    }
    try {
      parseDeepLink('omni-reviewer://interview/ok?token=has%20space');
      expect.unreachable();
    } catch (e) {
      expect((e as { data: { code: string; message: { es: string } } }).data.code).toBe('INVALID_DEEP_LINK');
    }
  });
});

describe('decision note', () => {
  it('round-trips through the readable and machine parts', () => {
    const record = {
      decision: 'reject' as const,
      reason: 'Selfie replayed: ñandú "quoted"\nsecond line',
      acknowledgedFindings: [],
      decidedAt: '2026-01-01T00:00:00.000Z',
      environment: 'demo',
    };
    const note = formatDecisionNote('demo-fraud-high', { ...record, status: 'final' });
    expect(note).toContain('Decision: REJECT');
    expect(parseDecisionNote(note)).toMatchObject({ interviewId: 'demo-fraud-high', ...record });
    expect(parseDecisionNote('just a note')).toBeNull();
  });

  it('lists high checks (also those that did not run) and a HIGH fraud risk as open findings', () => {
    const findings = openHighFindings({
      checkResults: [
        { name: 'a', severity: 'high', version: '1', result: 0.9 },
        { name: 'b', severity: 'high', version: '1', result: null },
        { name: 'c', severity: 'medium', version: '1', result: 0.5 },
      ],
      fraudRisk: {
        name: 'checkFraudRisk',
        severity: 'HIGH',
        version: '1',
        result: 0.87,
        topNFraudFeatures: [],
        topNLegitFeatures: [],
        topNFraudCodes: [],
        topNLegitCodes: [],
      },
    });
    expect(findings).toEqual(['a (high, 0.9)', 'b (high, did not run)', 'checkFraudRisk (HIGH, 0.87)']);
    expect(openHighFindings({ checkResults: [], fraudRisk: null })).toEqual([]);
  });
});

describe('crossDocRows', () => {
  it('reads known fields and keeps unknown shapes readable', () => {
    const rows = crossDocRows({
      fullName: { match: true, status: 'MATCH', score: 0.99, values: { frontId: 'ANA', curp: 'ANA' } },
      birthDate: { status: 'MISMATCH', values: { frontId: '1990', curp: '1991' } },
      odd: { weird: { nested: [1, 2] }, other: null },
      scalar: 'plain',
      address: { match: false, status: 'NOT_COMPARED', reason: 'no address on the back' },
      documentNumber: { match: false, score: 0 },
    });
    expect(rows.map((r) => [r.field, r.verdict])).toEqual([
      ['fullName', 'match'],
      ['birthDate', 'mismatch'],
      ['odd', 'unknown'],
      ['scalar', 'unknown'],
      // Not compared is not a mismatch, whatever `match` says.
      ['address', 'unknown'],
      ['documentNumber', 'mismatch'],
    ]);
    expect(rows[0]?.details).toEqual([
      ['frontId', 'ANA'],
      ['curp', 'ANA'],
    ]);
    expect(rows[2]?.details).toEqual([
      ['weird.nested', '[1,2]'],
      ['other', 'null'],
    ]);
    expect(rows[3]?.details).toEqual([['value', 'plain']]);
  });
});

describe('videoUrlExpiry', () => {
  const issued = new Date('2026-01-01T00:00:00Z');
  it('reads common pre-signed spellings, else issue + 1 hour', () => {
    expect(videoUrlExpiry('https://h/v.mp4?X-Amz-Date=20260101T000000Z&X-Amz-Expires=600', issued).toISOString()).toBe(
      '2026-01-01T00:10:00.000Z',
    );
    expect(videoUrlExpiry('https://h/v.mp4?expires=1767229200', issued).toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect(videoUrlExpiry('https://h/v.mp4?exp=1767225900000', issued).toISOString()).toBe('2026-01-01T00:05:00.000Z');
    expect(videoUrlExpiry('https://h/v.mp4', issued).toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect(videoUrlExpiry('not a url', issued).toISOString()).toBe('2026-01-01T01:00:00.000Z');
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
        reason: 'Rostro reutilizado',
        acknowledgedFindings: [],
        decidedAt: '2026-01-01T00:00:00.000Z',
        environment: 'demo',
        status: 'final',
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
