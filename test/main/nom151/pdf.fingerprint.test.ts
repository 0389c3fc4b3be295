import { PDFDict, PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { attachEvidence, visiblePagesMatch } from '../../../main/nom151/pdf';
import { createDemoTsa } from '../../../main/nom151/tsa';
import { L, handPdf, plainObject, streamObject } from './pdf-surgery';

/**
 * Red-team round 7, findings 3 and 7: the page comparison dropped /Parent on every dictionary (so a widget's field,
 * its value, was never compared) and counted everything below depth 64 as equal. Here the sealed pages are compared
 * with a full rewrite (one revision, so only the page comparison can tell).
 */

const match = (shown: Uint8Array, original: Uint8Array) => visiblePagesMatch(shown, original).catch(() => false);

describe('NOM-151 page comparison', () => {
  it("finding 3: a form field's value changed in the field (its widget untouched) is a different page", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([612, 792]);
    page.drawText('Contrato de credito simple. Monto del credito:', { x: 72, y: 720, size: 14, font });
    const field = doc.getForm().createTextField('monto');
    field.setText('$85,000.00 MXN');
    field.addToPage(page, { x: 72, y: 680, width: 300, height: 28, font });
    const original = await doc.save({ useObjectStreams: false });

    const forged = await PDFDocument.load(original);
    const fieldDict = forged.getForm().getTextField('monto').acroField.dict;
    expect(fieldDict.get(PDFName.of('Kids'))).toBeDefined(); // the widget is a separate kid, as pdf-lib writes it
    fieldDict.set(PDFName.of('V'), PDFString.of('$850,000.00 MXN'));
    expect(await match(await forged.save(), original)).toBe(false);
    // A rewrite that changes nothing still matches.
    expect(await match(await (await PDFDocument.load(original)).save(), original)).toBe(true);
  });

  /** A page drawing its amount through `levels` nested form XObjects (objects 6 ..). */
  const nested = (levels: number, amount: string) =>
    handPdf([
      plainObject(1, '<< /Type /Catalog /Pages 2 0 R >>'),
      plainObject(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
      plainObject(
        3,
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /X0 6 0 R >> >> >>',
      ),
      streamObject(4, '', L('/X0 Do')),
      plainObject(5, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
      ...Array.from({ length: levels }, (_, i) => {
        const last = i === levels - 1;
        const draw = last ? `BT /F1 18 Tf 72 720 Td (Monto: ${amount} MXN) Tj ET` : `/X${i + 1} Do`;
        const res = last ? '/Font << /F1 5 0 R >>' : `/XObject << /X${i + 1} ${7 + i} 0 R >>`;
        return streamObject(
          6 + i,
          `/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << ${res} >>`,
          L(draw),
        );
      }),
    ]);

  it('finding 7: a change 20 nested forms deep is a different page', async () => {
    const original = nested(20, '$85,000.00');
    expect(await match(original, original)).toBe(true);
    expect(await match(nested(20, '$850,000.00'), original)).toBe(false);
  });

  it('finding 7: past the depth limit the pages are not called equal', async () => {
    expect(await match(nested(250, '$850,000.00'), nested(250, '$85,000.00'))).toBe(false);
  });

  it("a whole-file rewrite that changes only the catalog's display state (a script, layers, XFA) is not the sealed PDF", async () => {
    const doc = await PDFDocument.create();
    doc.addPage([612, 792]).drawText('Monto del credito: $85,000.00 MXN', { x: 72, y: 720, size: 14 });
    const original = await doc.save();
    // The app's own layout: one revision carrying the original and its evidence.
    const sealed = await attachEvidence(original, (await (await createDemoTsa()).stamp(original)).tokenDer);
    expect(await match(sealed, original)).toBe(true);
    expect(await match(await (await PDFDocument.load(sealed)).save(), original)).toBe(true);
    for (const key of ['OpenAction', 'OCProperties', 'NeedsRendering', 'AcroForm']) {
      const forged = await PDFDocument.load(sealed);
      // Any value: the original's catalog has none of these.
      forged.catalog.set(PDFName.of(key), forged.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') }));
      expect(await match(await forged.save(), original), key).toBe(false);
    }
    // A script beside the attachments, in the one catalog entry sealing changes.
    const scripted = await PDFDocument.load(sealed);
    const names = scripted.catalog.lookup(PDFName.of('Names'), PDFDict);
    names.set(PDFName.of('JavaScript'), scripted.context.obj({ Names: [PDFString.of('x'), { S: 'JavaScript' }] }));
    expect(await match(await scripted.save(), original)).toBe(false);
  });
});
