import { beforeAll, describe, expect, it } from 'vitest';
import { attachEvidence } from '../../../main/nom151/pdf';
import { createDemoTsa, tokenToTimeStampResp, type DemoTsa } from '../../../main/nom151/tsa';
import { verifyEvidence } from '../../../main/nom151/verify';

/**
 * Sealed PDFs in the standard layout (the original's bytes unchanged, then an incremental update that embeds the
 * evidence), written here byte by byte, independently of our sealing code (main/nom151/pdf.ts) and of pdf-lib's
 * writer: offsets, xref sections and trailers with /Prev, as an incremental-update writer produces them.
 */
type PdfObject = { num: number; body: Buffer };

const obj = (num: number, text: string): PdfObject => ({ num, body: Buffer.from(text, 'latin1') });
const stream = (num: number, dict: string, data: Buffer): PdfObject => ({
  num,
  body: Buffer.concat([
    Buffer.from(`<< ${dict} /Length ${data.byteLength} >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ]),
});

/** Appends one revision: the objects, an xref section for them, a trailer pointing at the previous xref. */
function appendRevision(base: Buffer, objects: PdfObject[], trailer: string): Buffer {
  const parts: Buffer[] = [base];
  let offset = base.byteLength;
  const offsets = new Map<number, number>();
  for (const o of objects) {
    offsets.set(o.num, offset);
    const bytes = Buffer.concat([Buffer.from(`${o.num} 0 obj\n`, 'latin1'), o.body, Buffer.from('\nendobj\n')]);
    parts.push(bytes);
    offset += bytes.byteLength;
  }
  const xrefAt = offset;
  let xref = 'xref\n';
  if (base.byteLength === 0) xref += '0 1\n0000000000 65535 f\r\n';
  for (const num of [...offsets.keys()].sort((a, b) => a - b))
    xref += `${num} 1\n${String(offsets.get(num)).padStart(10, '0')} 00000 n\r\n`;
  const prev = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(base.toString('latin1'))?.[1];
  parts.push(
    Buffer.from(
      `${xref}trailer\n<< ${trailer}${prev ? ` /Prev ${prev}` : ''} >>\nstartxref\n${xrefAt}\n%%EOF\n`,
      'latin1',
    ),
  );
  return Buffer.concat(parts);
}

const page = (text: string) => Buffer.from(`BT /F1 18 Tf 72 720 Td (${text}) Tj ET`, 'latin1');

function originalContract(): Buffer {
  return appendRevision(
    Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'),
    [
      obj(1, '<< /Type /Catalog /Pages 2 0 R >>'),
      obj(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
      obj(
        3,
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
      ),
      stream(4, '', page('Contrato de credito: monto 10,000.00 MXN')),
      obj(5, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
    ],
    '/Size 6 /Root 1 0 R',
  );
}

/** The evidence as an embedded file, and the catalog again (same object number) naming it. */
function sealStandard(original: Buffer, tsr: Uint8Array): Buffer {
  return appendRevision(
    original,
    [
      stream(6, '/Type /EmbeddedFile /Subtype /application#2Ftimestamp-reply', Buffer.from(tsr)),
      obj(7, '<< /Type /Filespec /F (constancia-nom151.tsr) /UF (constancia-nom151.tsr) /EF << /F 6 0 R >> >>'),
      obj(
        1,
        '<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(constancia-nom151.tsr) 7 0 R] >> >> >>',
      ),
    ],
    '/Size 8 /Root 1 0 R',
  );
}

let tsa: DemoTsa;
let original: Buffer;
let sealed: Buffer;

beforeAll(async () => {
  tsa = await createDemoTsa();
  original = originalContract();
  const { tokenDer } = await tsa.stamp(original);
  sealed = sealStandard(original, tokenToTimeStampResp(tokenDer));
});

const verify = (evidence: Uint8Array) => verifyEvidence({ evidence, trustedRootsPem: [tsa.rootPem] });

describe('NOM-151 sealed PDF in the standard layout (original + incremental update)', () => {
  it('verifies offline: the first revision is the original the evidence names, and its pages are the ones shown', async () => {
    expect(sealed.subarray(0, original.byteLength).equals(original)).toBe(true);
    const result = await verify(sealed);
    expect(result.failures).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.source).toEqual({ evidence: 'sealed-pdf', document: 'original-revision' });
    expect(result.sealedPages).toBe('match');
    expect(result.documentHashHex).toBe(result.details?.imprintHex);
  });

  it('our own layout (evidence and original embedded) still verifies', async () => {
    const { tokenDer } = await tsa.stamp(original);
    const ours = await verify(await attachEvidence(original, tokenDer));
    expect(ours.valid).toBe(true);
    expect(ours.source.document).toBe('embedded-original');
  });

  it('one byte of the original changed: the imprint no longer matches', async () => {
    const tampered = Buffer.from(sealed);
    const at = tampered.indexOf('10,000.00');
    tampered[at] = '9'.charCodeAt(0);
    const result = await verify(tampered);
    expect(result.valid).toBe(false);
    expect(result.failures.map((f) => f.code)).toContain('HASH_MISMATCH');
  });

  it('a later update that changes what the page shows is caught, though the original revision still matches', async () => {
    const rewritten = appendRevision(
      sealed,
      [stream(4, '', page('Contrato de credito: monto 90,000.00 MXN'))],
      '/Size 8 /Root 1 0 R',
    );
    const result = await verify(rewritten);
    expect(result.valid).toBe(false);
    expect(result.checks.imprint).toBe('passed');
    // A later update is a change after sealing on its own; this one also changes the page.
    expect(result.failures.map((f) => f.code)).toEqual(['CHANGED_AFTER_SEALING', 'SEALED_PAGES_DIFFER']);
  });
});
