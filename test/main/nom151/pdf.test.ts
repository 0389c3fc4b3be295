import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { createDemoTsa, type DemoTsa } from '../../../main/nom151/tsa';
import { attachEvidence, EVIDENCE_ATTACHMENT, ORIGINAL_ATTACHMENT } from '../../../main/nom151/pdf';
import { verifyEvidence } from '../../../main/nom151/verify';

const standardFontDataUrl =
  join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';
let tsa: DemoTsa;
let original: Uint8Array;

beforeAll(async () => {
  tsa = await createDemoTsa();
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const n of [1, 2])
    doc.addPage([595, 842]).drawText(`Contrato de crédito — página ${n}`, { x: 50, y: 780, font, size: 14 });
  original = await doc.save();
});

async function openWithPdfJs(bytes: Uint8Array) {
  // pdf.js transfers (detaches) the buffer it is given: hand it a copy.
  const pdf = await getDocument({
    data: bytes.slice(),
    useWorkerFetch: false,
    isEvalSupported: false,
    disableFontFace: true,
    standardFontDataUrl,
  }).promise;
  const firstPage = await pdf.getPage(1);
  const text = (await firstPage.getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join('');
  const attachments = (await pdf.getAttachments()) as Record<string, { filename: string; content: Uint8Array }> | null;
  await pdf.destroy();
  return { pages: pdf.numPages, text, attachments };
}

describe('sealed PDF', () => {
  it('opens in pdf.js with the original pages, and its embedded evidence verifies', async () => {
    const { tokenDer, serial } = await tsa.stamp(original);
    const sealed = await attachEvidence(original, tokenDer);

    const opened = await openWithPdfJs(sealed);
    expect(opened.pages).toBe(2);
    expect(opened.text).toContain('Contrato de crédito');
    const names = Object.values(opened.attachments ?? {})
      .map((a) => a.filename)
      .sort();
    expect(names).toEqual([EVIDENCE_ATTACHMENT, ORIGINAL_ATTACHMENT].sort());

    const result = await verifyEvidence({ evidence: sealed, trustedRootsPem: [tsa.rootPem] });
    expect(result.failures).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.details?.serial).toBe(serial);
    expect(result.source).toEqual({ evidence: 'sealed-pdf', document: 'embedded-original' });
    expect(result.sealedPages).toBe('match');
  });

  it('a sealed PDF whose visible pages were changed (original still attached) fails with "pages differ"', async () => {
    const { tokenDer } = await tsa.stamp(original);
    const sealed = await attachEvidence(original, tokenDer);
    const forged = await PDFDocument.load(sealed);
    forged.getPages()[0]!.drawText('Monto: $1,000,000.00', {
      x: 50,
      y: 700,
      size: 14,
      font: await forged.embedFont(StandardFonts.Helvetica),
    });
    const result = await verifyEvidence({
      evidence: await forged.save({ useObjectStreams: false }),
      trustedRootsPem: [tsa.rootPem],
    });
    expect(result.valid).toBe(false);
    expect(result.sealedPages).toBe('differ');
    expect(result.failures.map((f) => f.code)).toEqual(['SEALED_PAGES_DIFFER']);
    expect(result.checks.imprint).toBe('passed'); // the attached original still matches its token

    // Rewriting the file without changing what it shows (object numbers, cross-reference layout) is not a change.
    const rewritten = await (await PDFDocument.load(sealed)).save({ useObjectStreams: false });
    expect((await verifyEvidence({ evidence: rewritten, trustedRootsPem: [tsa.rootPem] })).sealedPages).toBe('match');
    // Into object streams, which the app never writes and whose objects readers and pdf-lib may each find elsewhere
    // (red team 8): changed after sealing, whatever it shows.
    const packed = await (await PDFDocument.load(sealed)).save({ useObjectStreams: true });
    expect(
      (await verifyEvidence({ evidence: packed, trustedRootsPem: [tsa.rootPem] })).failures.map((f) => f.code),
    ).toEqual(['CHANGED_AFTER_SEALING']);
  });

  it('checks a separately loaded copy against the sealed evidence: the original passes, a tampered copy fails', async () => {
    const { tokenDer } = await tsa.stamp(original);
    const sealed = await attachEvidence(original, tokenDer);
    expect((await verifyEvidence({ evidence: sealed, document: original, trustedRootsPem: [tsa.rootPem] })).valid).toBe(
      true,
    );
    const tampered = original.slice();
    tampered[tampered.length - 10] = tampered[tampered.length - 10]! ^ 0x20;
    const result = await verifyEvidence({ evidence: sealed, document: tampered, trustedRootsPem: [tsa.rootPem] });
    expect(result.failure?.code).toBe('HASH_MISMATCH');
  });

  it('a PDF without evidence and a truncated PDF fail with clear codes', async () => {
    expect((await verifyEvidence({ evidence: original, trustedRootsPem: [tsa.rootPem] })).failure?.code).toBe(
      'NO_EVIDENCE_IN_PDF',
    );
    const { tokenDer } = await tsa.stamp(original);
    const sealed = await attachEvidence(original, tokenDer);
    const truncated = await verifyEvidence({ evidence: sealed.slice(0, 200), trustedRootsPem: [tsa.rootPem] });
    expect(['UNREADABLE_PDF', 'NO_EVIDENCE_IN_PDF']).toContain(truncated.failure?.code);
    expect(truncated.valid).toBe(false);
  });
});
