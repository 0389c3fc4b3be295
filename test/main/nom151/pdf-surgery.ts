/**
 * PDF files written byte by byte for the NOM-151 tests (no PDF library writes these): one-revision files and
 * incremental updates whose xref sections say exactly what the test wants, as an attacker's hand-written update would.
 */
import { deflateSync } from 'node:zlib';

export const L = (s: string) => Buffer.from(s, 'latin1');

export const plainObject = (num: number, body: string) => L(`${num} 0 obj\n${body}\nendobj\n`);
export const streamObject = (num: number, dict: string, data: Buffer) =>
  Buffer.concat([L(`${num} 0 obj\n<< ${dict} /Length ${data.length} >>\nstream\n`), data, L('\nendstream\nendobj\n')]);

/** A one-revision PDF: objects 1..n in order, classic xref, trailer. */
export function handPdf(objects: Buffer[], root = 1): Buffer {
  const parts: Buffer[] = [L('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  for (const o of objects) {
    offsets.push(offset);
    parts.push(o);
    offset += o.length;
  }
  let xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f\r\n`;
  for (const at of offsets) xref += `${String(at).padStart(10, '0')} 00000 n\r\n`;
  parts.push(L(`${xref}trailer\n<< /Size ${objects.length + 1} /Root ${root} 0 R >>\nstartxref\n${offset}\n%%EOF\n`));
  return Buffer.concat(parts);
}

const lastStartXref = (pdf: Buffer) =>
  /startxref\s+(\d+)\s+%%EOF\s*$/.exec(pdf.subarray(-1024).toString('latin1'))?.[1];

/**
 * Appends an incremental update: `chunks` are written in order; `xref` maps object numbers to the index of the chunk
 * the xref section points at (chunks not named there are written but not referenced), or to 'free'.
 */
export function appendUpdate(
  base: Buffer,
  chunks: Buffer[],
  xref: Record<number, number | 'free'>,
  trailer: string,
): Buffer {
  const prev = lastStartXref(base);
  if (!prev) throw new Error('base has no startxref');
  const parts: Buffer[] = [base];
  let offset = base.length;
  if (base[base.length - 1] !== 0x0a) {
    parts.push(L('\n'));
    offset++;
  }
  const offsets: number[] = [];
  for (const c of chunks) {
    offsets.push(offset);
    parts.push(c);
    offset += c.length;
  }
  let table = 'xref\n';
  for (const num of Object.keys(xref)
    .map(Number)
    .sort((a, b) => a - b)) {
    const at = xref[num]!;
    table +=
      at === 'free'
        ? `${num} 1\n0000000000 00001 f\r\n`
        : `${num} 1\n${String(offsets[at]).padStart(10, '0')} 00000 n\r\n`;
  }
  parts.push(L(`${table}trailer\n<< ${trailer} /Prev ${prev} >>\nstartxref\n${offset}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/**
 * The same update with an xref stream (FlateDecode, PNG "Up" predictor, as qpdf and Acrobat write them) instead of a
 * table. The xref stream is object `xrefNum`.
 */
export function appendUpdateWithXrefStream(
  base: Buffer,
  objects: Array<[number, Buffer]>,
  xrefNum: number,
  trailer: string,
): Buffer {
  const prev = lastStartXref(base);
  if (!prev) throw new Error('base has no startxref');
  const parts: Buffer[] = [base];
  let offset = base.length;
  const rows: Array<[number, number]> = [];
  for (const [num, bytes] of objects) {
    rows.push([num, offset]);
    parts.push(bytes);
    offset += bytes.length;
  }
  rows.push([xrefNum, offset]);
  rows.sort(([a], [b]) => a - b);
  const raw = Buffer.alloc(rows.length * 6); // W [1 4 1]
  rows.forEach(([, at], i) => {
    raw[i * 6] = 1;
    raw.writeUInt32BE(at, i * 6 + 1);
  });
  const predicted = Buffer.alloc(rows.length * 7);
  for (let r = 0; r < rows.length; r++) {
    predicted[r * 7] = 2; // PNG Up
    for (let c = 0; c < 6; c++)
      predicted[r * 7 + 1 + c] = (raw[r * 6 + c]! - (r > 0 ? raw[(r - 1) * 6 + c]! : 0)) & 0xff;
  }
  const index = rows.map(([num]) => `${num} 1`).join(' ');
  parts.push(
    streamObject(
      xrefNum,
      `/Type /XRef /W [1 4 1] /Index [${index}] /Filter /FlateDecode /DecodeParms << /Columns 6 /Predictor 12 >> ${trailer} /Prev ${prev}`,
      deflateSync(predicted),
    ),
  );
  parts.push(L(`startxref\n${offset}\n%%EOF\n`));
  return Buffer.concat(parts);
}

export const page = (text: string) => L(`BT /F1 18 Tf 72 720 Td (${text}) Tj ET`);

/** A one-page contract: catalog 1, pages 2, page 3, content 4, font 5. */
export function contract(amount = '85,000.00', catalogExtra = ''): Buffer {
  return handPdf([
    plainObject(1, `<< /Type /Catalog /Pages 2 0 R ${catalogExtra} >>`),
    plainObject(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    plainObject(
      3,
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    ),
    streamObject(4, '', page(`Monto del credito: $${amount} MXN`)),
    plainObject(5, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
  ]);
}
