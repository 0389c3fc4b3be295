import { beforeAll, describe, expect, it } from 'vitest';
import { attachEvidence } from '../../../main/nom151/pdf';
import { createDemoTsa, tokenToTimeStampResp, type DemoTsa } from '../../../main/nom151/tsa';
import { verifyEvidence } from '../../../main/nom151/verify';
import {
  L,
  appendUpdate,
  appendUpdateWithXrefStream,
  contract,
  handPdf,
  page,
  plainObject,
  streamObject,
} from './pdf-surgery';

/**
 * Red-team round 7, findings 1, 2, 4, 5 and 8: after the seal only the update that embeds the evidence may follow the
 * original, it must end the file, and it may only add new objects and the catalog again with the evidence named.
 * Each attack here verified "valid" before: pdf-lib, which compared the pages, reads the body, not the xref.
 */

const CATALOG = '/Type /Catalog /Pages 2 0 R';
const NAMES = '/Names << /EmbeddedFiles << /Names [(constancia-nom151.tsr) 7 0 R] >> >> /AF [7 0 R]';
const evidenceObjects = (tsr: Uint8Array) => [
  streamObject(6, '/Type /EmbeddedFile /Subtype /application#2Ftimestamp-reply', Buffer.from(tsr)),
  plainObject(7, '<< /Type /Filespec /F (constancia-nom151.tsr) /UF (constancia-nom151.tsr) /EF << /F 6 0 R >> >>'),
];

let tsa: DemoTsa;
let original: Buffer;
let tsr: Uint8Array;
let sealed: Buffer;
let embedded: Buffer;

/** The standard layout: the original, then one update adding objects 6, 7 and catalog 1 (as the demo server seals). */
const seal = (catalog = `${CATALOG} ${NAMES}`, extra: Buffer[] = [], extraXref: Record<number, number | 'free'> = {}) =>
  appendUpdate(
    original,
    [...evidenceObjects(tsr), plainObject(1, `<< ${catalog} >>`), ...extra],
    { 6: 0, 7: 1, 1: 2, ...extraXref },
    '/Size 8 /Root 1 0 R',
  );

beforeAll(async () => {
  tsa = await createDemoTsa();
  original = contract();
  const { tokenDer } = await tsa.stamp(original);
  tsr = tokenToTimeStampResp(tokenDer);
  sealed = seal();
  embedded = Buffer.from(await attachEvidence(original, tokenDer));
});

const verify = (evidence: Uint8Array) => verifyEvidence({ evidence, trustedRootsPem: [tsa.rootPem] });

async function expectChanged(pdf: Buffer) {
  const result = await verify(pdf);
  expect(result.valid).toBe(false);
  expect(result.failures.map((f) => f.code)).toContain('CHANGED_AFTER_SEALING');
  expect(result.sealedPages).toBe('differ');
  return result;
}

/** Finding 1: the xref names a forged object 4; a verbatim copy of the sealed one follows, unreferenced. */
function xrefShadow(base: Buffer, size: string, root: string): Buffer {
  return appendUpdate(
    base,
    [
      streamObject(4, '', page('Monto del credito: $850,000.00 MXN')),
      streamObject(4, '', page('Monto del credito: $85,000.00 MXN')),
    ],
    { 4: 0 },
    `/Size ${size} /Root ${root}`,
  );
}

describe('NOM-151 standard layout: only the evidence may be added after the seal', () => {
  it('the genuine layout verifies, with a table or an xref stream, with or without the original catalog keys', async () => {
    expect((await verify(sealed)).valid).toBe(true);
    const withStream = appendUpdateWithXrefStream(
      original,
      [
        ...evidenceObjects(tsr).map((bytes, i) => [6 + i, bytes] as [number, Buffer]),
        [1, plainObject(1, `<< ${NAMES} /Pages 2 0 R /Type /Catalog >>`)],
      ],
      8,
      '/Size 9 /Root 1 0 R',
    );
    const result = await verify(withStream);
    expect(result.failures).toEqual([]);
    expect(result.valid).toBe(true);
    // End-of-line whitespace after %%EOF is not a change.
    expect((await verify(Buffer.concat([sealed, L('\r\n')]))).valid).toBe(true);
  });

  it('finding 1: an object redefined through the xref, a sealed copy left for pdf-lib, fails', async () => {
    const result = await expectChanged(xrefShadow(sealed, '8', '1 0 R'));
    expect(result.checks.imprint).toBe('passed');
  });

  it('the same redefinition inside the evidence update itself fails', async () => {
    await expectChanged(seal(undefined, [streamObject(4, '', page('Monto del credito: $850,000.00 MXN'))], { 4: 3 }));
  });

  it('finding 2: the page tree rewritten (new objects only, the page tree root redefined) fails', async () => {
    const attacked = appendUpdate(
      sealed,
      [
        plainObject(2, '<< /Type /Pages /Kids [8 0 R 9 0 R] /Count 1 >>'),
        plainObject(8, '<< /Type /Pages /Kids [3 0 R] /Count 0 >>'),
        plainObject(
          9,
          '<< /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 10 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
        ),
        streamObject(10, '', page('Monto del credito: $850,000.00 MXN')),
      ],
      { 2: 0, 8: 1, 9: 2, 10: 3 },
      '/Size 11 /Root 1 0 R',
    );
    await expectChanged(attacked);
  });

  it('findings 4 and 5: the catalog changed beyond the evidence (XFA, optional content, JavaScript, open action) fails', async () => {
    for (const extra of [
      '/NeedsRendering true /AcroForm << /XFA 6 0 R >>',
      '/OCProperties << /OCGs [] /D << /ON [] /OFF [] >> >>',
      '/OpenAction << /S /JavaScript /JS (app.alert(1)) >>',
    ])
      await expectChanged(seal(`${CATALOG} ${NAMES} ${extra}`));
    await expectChanged(
      seal(`${CATALOG} /Names << /JavaScript 6 0 R /EmbeddedFiles << /Names [(constancia-nom151.tsr) 7 0 R] >> >>`),
    );
    // A catalog key of the original dropped is a change too.
    await expectChanged(seal(`/Pages 2 0 R ${NAMES}`));
  });

  it('a new object may not take a number the original refers to without defining it', async () => {
    // The author leaves page content 8 undefined (null to readers); an update re-embedding the evidence defines it.
    const dangling = handPdf([
      plainObject(1, `<< ${CATALOG} >>`),
      plainObject(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
      plainObject(
        3,
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents [4 0 R 8 0 R] /Resources << /Font << /F1 5 0 R >> >> >>',
      ),
      streamObject(4, '', page('Monto del credito: $85,000.00 MXN')),
      plainObject(5, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
    ]);
    const evidence = tokenToTimeStampResp((await tsa.stamp(dangling)).tokenDer);
    const sealWithout = (extra: Buffer[], xref: Record<number, number>) =>
      appendUpdate(
        dangling,
        [...evidenceObjects(evidence), plainObject(1, `<< ${CATALOG} ${NAMES} >>`), ...extra],
        { 6: 0, 7: 1, 1: 2, ...xref },
        '/Size 9 /Root 1 0 R',
      );
    expect((await verify(sealWithout([], {}))).valid).toBe(true);
    await expectChanged(sealWithout([streamObject(8, '', page('1 0 0 1 0 -40 cm (y $850,000.00) Tj'))], { 8: 3 }));
  });

  it('a later update after the evidence update fails, even one adding only new objects', async () => {
    await expectChanged(appendUpdate(sealed, [plainObject(8, '<< >>')], { 8: 0 }, '/Size 9 /Root 1 0 R'));
  });

  it('a trailer in the update that its section does not name fails (a reader that scans takes the first: red team 13)', async () => {
    await expectChanged(seal(undefined, [L('trailer\n<< /Size 8 /Root 1 0 R /ID [<00> <00>] >>\n')]));
  });

  it('an original object freed by the evidence update fails', async () => {
    await expectChanged(seal(undefined, [], { 5: 'free' }));
  });

  it('finding 8: bytes after the last %%EOF fail', async () => {
    await expectChanged(Buffer.concat([sealed, L('PK\x03\x04 not part of the sealed file')]));
  });

  it('offsets shifted by bytes inserted before the update (the xref no longer points at the objects) fail', async () => {
    const shifted = Buffer.concat([original, L(`% ${'x'.repeat(4000)}\n`), sealed.subarray(original.length)]);
    await expectChanged(shifted);
  });
});

describe('NOM-151 app layout (attachEvidence): no update may follow the sealed revision', () => {
  it('the sealed file verifies; with any incremental update or trailing bytes it fails', async () => {
    expect((await verify(embedded)).valid).toBe(true);
    const trailer = /trailer\s*<<([\s\S]*?)>>\s*startxref/.exec(embedded.toString('latin1'))!;
    const size = /\/Size (\d+)/.exec(trailer[1]!)![1]!;
    const root = /\/Root (\d+ \d+ R)/.exec(trailer[1]!)![1]!;
    const contentNum = Number(
      /(\d+) 0 obj\s*<<\s*\/Length \d+\s*>>\s*stream\s*BT \/F1/.exec(embedded.toString('latin1'))?.[1],
    );
    expect(contentNum).toBeGreaterThan(0);
    const shadow = appendUpdate(
      embedded,
      [
        streamObject(contentNum, '', page('Monto del credito: $850,000.00 MXN')),
        streamObject(contentNum, '', page('Monto del credito: $85,000.00 MXN')),
      ],
      { [contentNum]: 0 },
      `/Size ${size} /Root ${root}`,
    );
    await expectChanged(shadow);
    await expectChanged(
      appendUpdate(
        embedded,
        [plainObject(Number(size), '<< >>')],
        { [Number(size)]: 0 },
        `/Size ${Number(size) + 1} /Root ${root}`,
      ),
    );
    await expectChanged(Buffer.concat([embedded, L('junk')]));
    // Red team 8: the sealed revision's %%EOF blanked out (same length), so one %%EOF is left.
    const firstEof = shadow.indexOf('%%EOF');
    const hidden = Buffer.concat([shadow.subarray(0, firstEof), L('     '), shadow.subarray(firstEof + 5)]);
    expect(hidden.toString('latin1').split('%%EOF')).toHaveLength(2);
    await expectChanged(hidden);
  });

  /** The embedded file with `extra` inserted before its (only) xref table, `editTail` applied to table and trailer. */
  function beforeXref(extra: Buffer, editTail: (tail: string, at: number) => string): Buffer {
    const text = embedded.toString('latin1');
    const xrefAt = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)![1]);
    const tail = editTail(text.slice(xrefAt), xrefAt).replace(/startxref\s+\d+/, `startxref\n${xrefAt + extra.length}`);
    return Buffer.concat([embedded.subarray(0, xrefAt), extra, L(tail)]);
  }

  it('red team 9: a listed object of generation 1 beside the unlisted sealed one of generation 0 fails', async () => {
    const contentNum = Number(
      /(\d+) 0 obj\s*<<\s*\/Length \d+\s*>>\s*stream\s*BT \/F1/.exec(embedded.toString('latin1'))?.[1],
    );
    const forged = L(`${contentNum} 1 obj\n<< /Length 8 >>\nstream\nBT /F1 ET\nendstream\nendobj\n`);
    await expectChanged(
      beforeXref(forged, (tail, at) => {
        const row = [...tail.matchAll(/\d{10} \d{5} [nf]/g)][contentNum]!;
        return `${tail.slice(0, row.index)}${String(at).padStart(10, '0')} 00001 n${tail.slice(row.index! + row[0].length)}`;
      }),
    );
  });

  it('red team 9: a second trailer naming another catalog for readers than the one pdf-lib takes fails', async () => {
    const text = embedded.toString('latin1');
    const size = Number(/\/Size (\d+)/.exec(text.slice(text.lastIndexOf('trailer')))![1]);
    const root = /\/Root (\d+) 0 R/.exec(text.slice(text.lastIndexOf('trailer')))![1]!;
    const catalog = new RegExp(`\\n${root} 0 obj\\s*(<<[\\s\\S]*?>>)\\s*endobj`).exec(text)![1]!;
    const copy = L(`${size} 0 obj\n${catalog}\nendobj\n`);
    await expectChanged(
      beforeXref(copy, (tail, at) => {
        const trailerAt = tail.indexOf('trailer');
        const original = /trailer\s*(<<[\s\S]*?>>)\s*startxref/.exec(tail)![1]!;
        const forReaders = original
          .replace(`/Root ${root} 0 R`, `/Root ${size} 0 R`)
          .replace(`/Size ${size}`, `/Size ${size + 1}`);
        return `${tail.slice(0, trailerAt)}${size} 1\n${String(at).padStart(10, '0')} 00000 n \ntrailer\n${forReaders}\ntrailer\n${original}\nstartxref\n0\n%%EOF\n`;
      }),
    );
  });
});
