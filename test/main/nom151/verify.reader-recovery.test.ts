import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  decodePDFRawStream,
  PDFArray,
  PDFContext,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFRef,
  StandardFonts,
  type PDFObject,
} from 'pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { attachEvidence } from '../../../main/nom151/pdf';
import { readersShowAlike, readerView } from '../../../main/nom151/reader-view';
import { createDemoTsa, type DemoTsa } from '../../../main/nom151/tsa';
import { verifyEvidence } from '../../../main/nom151/verify';
import { L, handPdf, plainObject, streamObject } from './pdf-surgery';

/**
 * Red team 13, finding 3: pdf.js reads an xref subsection `1 K` whose first row is free as `0 K`, finds every object
 * one number off, and recovers by scanning the file, taking the FIRST trailer with a catalog and an /ID; pdf-lib takes
 * the last. A sealed file rewritten that way, with a bare trailer naming a forged catalog left between its objects,
 * showed $850,000 in pdf.js while Verify said valid. Either part alone is refused now.
 */

const standardFontDataUrl =
  join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';
let tsa: DemoTsa;
let original: Uint8Array;
let sealed: Uint8Array;

beforeAll(async () => {
  tsa = await createDemoTsa();
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText('Monto: $85,000 MXN', { x: 50, y: 780, font, size: 14 });
  original = await doc.save();
  sealed = await attachEvidence(original, (await tsa.stamp(original)).tokenDer);
});

const serialize = (num: number, obj: PDFObject) => {
  const body = Buffer.alloc(obj.sizeInBytes());
  obj.copyBytesInto(body, 0);
  return Buffer.concat([L(`${num} 0 obj\n`), body, L('\nendobj\n')]);
};

/** A page object `num` under `parent` drawing `forged` (object `content`) with the sealed page's resources. */
function forgedPageObjects(num: number, parent: number, resources: PDFObject, content: number, forged: Buffer) {
  return [
    {
      num,
      bytes: Buffer.concat([
        L(`${num} 0 obj\n<< /Type /Page /Parent ${parent} 0 R /MediaBox [0 0 595 842] /Resources `),
        serialize(0, resources).subarray('0 0 obj\n'.length, -'\nendobj\n'.length),
        L(` /Contents ${content} 0 R >>\nendobj\n`),
      ]),
    },
    {
      num: content,
      bytes: Buffer.concat([
        L(`${content} 0 obj\n<< /Length ${forged.length} >>\nstream\n`),
        forged,
        L('\nendstream\nendobj\n'),
      ]),
    },
  ];
}

/** The sealed file written again by hand: its objects (renumbered one up if `shiftRows`), a forged page beside them. */
async function rewritten(opts: { shiftRows: boolean; bareTrailer: boolean }): Promise<Buffer> {
  const doc = await PDFDocument.load(sealed, { updateMetadata: false });
  const context = PDFContext.create();
  const by = opts.shiftRows ? 1 : 0;
  const shift = (o: PDFObject): PDFObject => {
    if (o instanceof PDFRef) return PDFRef.of(o.objectNumber + by, o.generationNumber);
    if (o instanceof PDFRawStream) return PDFRawStream.of(shift(o.dict) as PDFDict, o.contents);
    if (o instanceof PDFDict) {
      const d = PDFDict.withContext(context);
      for (const [k, v] of o.entries()) d.set(k, shift(v));
      return d;
    }
    if (o instanceof PDFArray) {
      const a = PDFArray.withContext(context);
      for (const v of o.asArray()) a.push(shift(v));
      return a;
    }
    return o;
  };
  const body = doc.context
    .enumerateIndirectObjects()
    .map(([ref, obj]) => ({ num: ref.objectNumber + by, bytes: serialize(ref.objectNumber + by, shift(obj)) }))
    .sort((a, b) => a.num - b.num);
  // The forged page: the sealed page's resources, its content with another amount. Listed, but no catalog of the
  // sealed file refers to it.
  const page = doc.getPages()[0]!;
  const listed = page.node.get(PDFName.of('Contents'));
  const contentsRef = listed instanceof PDFArray ? (listed.get(0) as PDFRef) : (listed as PDFRef);
  const contents = doc.context.lookup(contentsRef) as PDFRawStream;
  const hex = (s: string) => Buffer.from(s, 'latin1').toString('hex').toUpperCase();
  const forged = L(
    Buffer.from(decodePDFRawStream(contents).decode()).toString('latin1').replace(hex('$85,000'), hex('$850,000')),
  );
  const resources = shift(page.node.Resources()!);
  const n = Math.max(...body.map((o) => o.num));
  const [catalog, pages, forgedPage, content] = [n + 1, n + 2, n + 3, n + 4];
  body.push(
    { num: catalog, bytes: L(`${catalog} 0 obj\n<< /Type /Catalog /Pages ${pages} 0 R >>\nendobj\n`) },
    { num: pages, bytes: L(`${pages} 0 obj\n<< /Type /Pages /Kids [ ${forgedPage} 0 R ] /Count 1 >>\nendobj\n`) },
    ...forgedPageObjects(forgedPage, pages, resources, content, forged),
  );
  const id = '[ <00112233445566778899AABBCCDDEEFF> <00112233445566778899AABBCCDDEEFF> ]';
  const parts = [L('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  let at = parts[0]!.length;
  const offsets = new Map<number, number>();
  for (const o of body) {
    offsets.set(o.num, at);
    parts.push(o.bytes);
    at += o.bytes.length;
  }
  if (opts.bareTrailer) {
    const bare = L(`trailer\n<< /Size ${content + 1} /Root ${catalog} 0 R /ID ${id} >>\n`);
    parts.push(bare);
    at += bare.length;
  }
  const row = (offset: number) => `${String(offset).padStart(10, '0')} 00000 n\r\n`;
  let xref = opts.shiftRows
    ? `xref\n1 ${content}\n0000000000 65535 f\r\n`
    : `xref\n0 ${content + 1}\n0000000000 65535 f\r\n`;
  for (let k = 1 + by; k <= content; k++) xref += row(offsets.get(k)!);
  const { Root, Info } = doc.context.trailerInfo as { Root: PDFRef; Info?: PDFRef };
  const info = Info ? ` /Info ${Info.objectNumber + by} 0 R` : '';
  parts.push(
    L(
      `${xref}trailer\n<< /Size ${content + 1} /Root ${Root.objectNumber + by} 0 R${info} /ID ${id} >>\nstartxref\n${at}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
}

async function pdfJsFirstPage(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocument({
    data: new Uint8Array(bytes),
    useWorkerFetch: false,
    isEvalSupported: false,
    disableFontFace: true,
    standardFontDataUrl,
    verbosity: 0,
  }).promise;
  const text = (await (await pdf.getPage(1)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join('');
  await pdf.destroy();
  return text;
}

const verify = (evidence: Uint8Array) => verifyEvidence({ evidence, trustedRootsPem: [tsa.rootPem] });

describe('a sealed PDF that sends readers scanning for another trailer', () => {
  it('the whole attack: pdf.js shows the forged page, Verify refuses it', async () => {
    const forged = await rewritten({ shiftRows: true, bareTrailer: true });
    expect(await pdfJsFirstPage(forged)).toContain('$850,000');
    const result = await verify(forged);
    expect(result.valid).toBe(false);
    expect(result.failures.map((f) => f.code)).toContain('CHANGED_AFTER_SEALING');
  });

  it.each([
    ['a subsection 1 K opening with a free row (pdf.js renumbers it)', { shiftRows: true, bareTrailer: false }],
    ['a trailer among the objects that no table names', { shiftRows: false, bareTrailer: true }],
  ])('%s alone: changed after sealing', async (_, opts) => {
    const result = await verify(await rewritten(opts));
    expect(result.failures.map((f) => f.code)).toContain('CHANGED_AFTER_SEALING');
  });

  it('the same rewrite with neither: verifies (the objects beside the sealed ones are shown nowhere)', async () => {
    const result = await verify(await rewritten({ shiftRows: false, bareTrailer: false }));
    expect(result.failures).toEqual([]);
    expect(result.valid).toBe(true);
  });
});

/**
 * Red team 14: pdf-lib decodes `#xx` in a name only in upper-case hex; pdf.js and MuPDF in either. A sealed file
 * rewritten with `/#4bids [forged page]` in its page tree showed the forged page to both readers (a second `/Kids`,
 * the later wins) and an unknown key to pdf-lib, which compared the sealed pages: Verify said valid.
 */
async function withSecondKids(name: string): Promise<Buffer> {
  const doc = await PDFDocument.load(sealed, { updateMetadata: false });
  const page = doc.getPages()[0]!;
  const pages = page.node.get(PDFName.of('Parent')) as PDFRef;
  const body = doc.context
    .enumerateIndirectObjects()
    .map(([ref, obj]) => ({ num: ref.objectNumber, bytes: serialize(ref.objectNumber, obj) }));
  const n = Math.max(...body.map((o) => o.num));
  const [forgedPage, content] = [n + 1, n + 2];
  const listed = page.node.get(PDFName.of('Contents'));
  const contents = doc.context.lookup(listed instanceof PDFArray ? listed.get(0) : listed) as PDFRawStream;
  const hex = (s: string) => Buffer.from(s, 'latin1').toString('hex').toUpperCase();
  const forged = L(
    Buffer.from(decodePDFRawStream(contents).decode()).toString('latin1').replace(hex('$85,000'), hex('$850,000')),
  );
  for (const o of body) {
    if (o.num !== pages.objectNumber) continue;
    const text = o.bytes.toString('latin1');
    const end = text.lastIndexOf('>>');
    o.bytes = L(`${text.slice(0, end)}${name} [ ${forgedPage} 0 R ]\n${text.slice(end)}`);
  }
  body.push(...forgedPageObjects(forgedPage, pages.objectNumber, page.node.Resources()!, content, forged));
  body.sort((a, b) => a.num - b.num);
  const parts = [L('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  let at = parts[0]!.length;
  let xref = `xref\n0 ${content + 1}\n0000000000 65535 f\r\n`;
  for (const o of body) {
    xref += `${String(at).padStart(10, '0')} 00000 n\r\n`;
    parts.push(o.bytes);
    at += o.bytes.length;
  }
  const { Root, Info } = doc.context.trailerInfo as { Root: PDFRef; Info?: PDFRef };
  const info = Info ? ` /Info ${Info.objectNumber} 0 R` : '';
  parts.push(
    L(`${xref}trailer\n<< /Size ${content + 1} /Root ${Root.objectNumber} 0 R${info} >>\nstartxref\n${at}\n%%EOF\n`),
  );
  return Buffer.concat(parts);
}

describe('a name pdf-lib and readers decode differently', () => {
  it('a second /Kids spelled /#4bids: pdf.js shows the forged page, Verify refuses it', async () => {
    const forged = await withSecondKids('/#4bids');
    expect(await pdfJsFirstPage(forged)).toContain('$850,000');
    const result = await verify(forged);
    expect(result.valid).toBe(false);
    expect(result.failures.map((f) => f.code)).toContain('CHANGED_AFTER_SEALING');
  });

  it('the pages as pdf.js draws them tell the forgery on their own, and the genuine file alike', async () => {
    expect(await readersShowAlike(await withSecondKids('/#4bids'), original)).toBe(false);
    expect(await readersShowAlike(sealed, original)).toBe(true);
  });

  it('the same key spelled in upper case (/#4Bids, which pdf-lib reads as /Kids too) fails the page comparison', async () => {
    const result = await verify(await withSecondKids('/#4Bids'));
    expect(result.valid).toBe(false);
  });
});

describe('the words "trailer <<" in a genuine contract', () => {
  it("are no trailer: the app's own sealed file verifies (red team 14: it was refused)", async () => {
    const original = handPdf([
      plainObject(1, '<< /Type /Catalog /Pages 2 0 R >>'),
      plainObject(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
      plainObject(
        3,
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
      ),
      plainObject(4, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
      streamObject(5, '', L('BT /F1 12 Tf 50 700 Td (Clause 7: the trailer <<hitch>> is leased to the buyer.) Tj ET')),
    ]);
    const genuine = await attachEvidence(original, (await tsa.stamp(original)).tokenDer);
    expect(await pdfJsFirstPage(genuine)).toContain('trailer <<hitch>>');
    const result = await verify(genuine);
    expect(result.failures).toEqual([]);
    expect(result.valid).toBe(true);
  });
});

/** A sealed one-page contract whose content is `spaces` of whitespace, then the drawing, deflated, under `dict`. */
async function sealedWithContent(dict: Record<string, string>, spaces: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText('Monto: $85,000 MXN', { x: 50, y: 780, font, size: 14 });
  const data = deflateSync(
    Buffer.concat([Buffer.alloc(spaces, 0x20), L(' BT /F1 14 Tf 50 780 Td (Monto: $85,000 MXN) Tj ET')]),
  );
  const streamDict = doc.context.obj({ ...dict, Length: data.length });
  page.node.set(PDFName.of('Contents'), doc.context.register(PDFRawStream.of(streamDict, data)));
  const contract = await doc.save({ useObjectStreams: false });
  return attachEvidence(contract, (await tsa.stamp(contract)).tokenDer);
}

describe('what pdf.js decodes to draw', () => {
  it('draws a file alike however many documents the thread read before (its font names count them: g_d9_f1, g_d10_f1)', async () => {
    const views = [];
    for (let i = 0; i < 12; i++) views.push((await readerView(sealed)).pages.join());
    expect(new Set(views).size).toBe(1);
  });

  it.each([
    ['labelled an embedded file', { Filter: 'FlateDecode', Type: 'EmbeddedFile' }],
    ['with /F for /Filter (pdf-lib reads no filter, pdf.js inflates)', { F: 'FlateDecode' }],
  ])(
    'a page content %s is measured as pdf.js decodes it (red team 16: guessed beforehand with pdf-lib, it was not)',
    async (_, dict) => {
      const result = await verify(await sealedWithContent(dict, 48 * 1024 * 1024));
      expect(result.failures.map((f) => f.code)).toEqual(['PDF_TOO_COMPLEX']);
    },
  );

  it('a page whose content inflates past the limit is too complex to verify, before pdf.js decodes it (red team 15)', async () => {
    // 48 MB of spaces, then the genuine drawing: pdf-lib compares the content raw, pdf.js inflated it outside the
    // verifier thread's heap limit (1 GB of it took the app to 2.9 GB, and the file was called valid).
    const result = await verify(await sealedWithContent({ Filter: 'FlateDecode' }, 48 * 1024 * 1024));
    expect(result.valid).toBe(false);
    expect(result.failures.map((f) => f.code)).toEqual(['PDF_TOO_COMPLEX']);
  });
});
