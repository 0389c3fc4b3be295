import { PDFDict, PDFName, PDFRef } from 'pdf-lib';
import { EVIDENCE_ATTACHMENT, loadPdf } from '../nom151/pdf';

/**
 * The standard sealed layout of production NOM-151 providers: the original PDF's bytes unchanged, followed by one
 * incremental update that adds the evidence as an embedded file and a new revision of the catalog naming it. The
 * app's own sealing (main/nom151/pdf.ts) embeds the original instead; the demo service's production profile answers
 * this layout so the verifier is exercised on both.
 */
export async function sealInStandardLayout(original: Uint8Array, timeStampResp: Uint8Array): Promise<Uint8Array> {
  const doc = await loadPdf(original, { updateMetadata: false });
  const size = doc.context.largestObjectNumber + 1;
  const root = doc.context.trailerInfo.Root;
  if (!(root instanceof PDFRef)) throw new Error('the original PDF has no catalog reference');
  const prev = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(Buffer.from(original.subarray(-1024)).toString('latin1'))?.[1];
  if (!prev) throw new Error('the original PDF does not end with startxref and %%EOF');

  const fileNum = size;
  const specNum = size + 1;
  const catalogEntries = doc.catalog
    .entries()
    .filter(([key]) => key !== PDFName.of('Names') && key !== PDFName.of('AF'))
    .map(([key, value]) => `${key.toString()} ${value.toString()}`)
    .join(' ');
  const names = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  const otherNames = (names?.entries() ?? [])
    .filter(([key]) => key !== PDFName.of('EmbeddedFiles'))
    .map(([key, value]) => `${key.toString()} ${value.toString()}`)
    .join(' ');

  const objects: Array<[number, Buffer]> = [
    [
      fileNum,
      Buffer.concat([
        Buffer.from(
          `<< /Type /EmbeddedFile /Subtype /application#2Ftimestamp-reply /Length ${timeStampResp.byteLength} >>\nstream\n`,
          'latin1',
        ),
        Buffer.from(timeStampResp),
        Buffer.from('\nendstream', 'latin1'),
      ]),
    ],
    [
      specNum,
      Buffer.from(
        `<< /Type /Filespec /F (${EVIDENCE_ATTACHMENT}) /UF (${EVIDENCE_ATTACHMENT}) /EF << /F ${fileNum} 0 R >> ` +
          `/AFRelationship /Supplement /Desc (Constancia NOM-151) >>`,
        'latin1',
      ),
    ],
    [
      root.objectNumber,
      Buffer.from(
        `<< ${catalogEntries} /Names << ${otherNames} /EmbeddedFiles << /Names [(${EVIDENCE_ATTACHMENT}) ${specNum} 0 R] >> >> /AF [${specNum} 0 R] >>`,
        'latin1',
      ),
    ],
  ];

  // The original's last byte stays where it was; a newline first if it has none, so the update starts on its own line.
  const parts: Buffer[] = [Buffer.from(original)];
  let offset = original.byteLength;
  if (original[original.byteLength - 1] !== 0x0a) {
    parts.push(Buffer.from('\n'));
    offset += 1;
  }
  const offsets: Array<[number, number]> = [];
  for (const [num, body] of objects) {
    const bytes = Buffer.concat([Buffer.from(`${num} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    offsets.push([num, offset]);
    parts.push(bytes);
    offset += bytes.byteLength;
  }
  const xref = offsets
    .sort(([a], [b]) => a - b)
    .map(([num, at]) => `${num} 1\n${String(at).padStart(10, '0')} 00000 n\r\n`)
    .join('');
  parts.push(
    Buffer.from(
      `xref\n${xref}trailer\n<< /Size ${size + 2} /Root ${root.toString()} /Prev ${prev} >>\nstartxref\n${offset}\n%%EOF\n`,
      'latin1',
    ),
  );
  return new Uint8Array(Buffer.concat(parts));
}
