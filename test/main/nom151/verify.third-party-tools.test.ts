import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachEvidence, EVIDENCE_ATTACHMENT } from '../../../main/nom151/pdf';
import { createDemoTsa, tokenToTimeStampResp, type DemoTsa } from '../../../main/nom151/tsa';
import { verifyEvidence } from '../../../main/nom151/verify';

/**
 * Sealed PDFs in the standard layout written by tools other than our code (Debian's `qpdf` and MuPDF's `mutool`,
 * installed by .ci/run): qpdf writes the original, once with a classic xref table and once with object streams and
 * an xref stream; mutool appends the incremental update that embeds the evidence, in the original's own xref form
 * (an xref stream after an xref stream). qpdf cannot append an update itself, so MuPDF writes that part.
 */

/** MuPDF's script (`mutool run`): the evidence as an embedded file, the catalog naming it, saved incrementally. */
const SEAL_SCRIPT = `
var doc = new PDFDocument(scriptArgs[0]);
var name = scriptArgs[3];
var fileDict = doc.newDictionary();
fileDict.put("Type", doc.newName("EmbeddedFile"));
fileDict.put("Subtype", doc.newName("application/timestamp-reply"));
var file = doc.addStream(readFile(scriptArgs[1]), fileDict);
var ef = doc.newDictionary();
ef.put("F", file);
var spec = doc.newDictionary();
spec.put("Type", doc.newName("Filespec"));
spec.put("F", doc.newString(name));
spec.put("UF", doc.newString(name));
spec.put("EF", ef);
var list = doc.newArray();
list.push(doc.newString(name));
list.push(doc.addObject(spec));
var tree = doc.newDictionary();
tree.put("Names", list);
var names = doc.newDictionary();
names.put("EmbeddedFiles", tree);
doc.getTrailer().get("Root").put("Names", names);
doc.save(scriptArgs[2], "incremental");
`;

let dir: string;
let tsa: DemoTsa;
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });

async function contract(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText('Contrato de credito: monto 10,000.00 MXN', { x: 72, y: 720, size: 18, font });
  return doc.save({ useObjectStreams: false });
}

/** qpdf rewrites the contract in the layout asked, and the evidence is stamped over those exact bytes. */
async function sealWithTools(layout: 'xref-table' | 'xref-stream') {
  writeFileSync(join(dir, 'contract.pdf'), await contract());
  const streams = layout === 'xref-stream' ? 'generate' : 'disable';
  run('qpdf', [`--object-streams=${streams}`, '--deterministic-id', 'contract.pdf', `${layout}.pdf`]);
  const original = readFileSync(join(dir, `${layout}.pdf`));
  const { tokenDer } = await tsa.stamp(original);
  writeFileSync(join(dir, `${layout}.tsr`), tokenToTimeStampResp(tokenDer));
  run('mutool', ['run', 'seal.js', `${layout}.pdf`, `${layout}.tsr`, `${layout}-sealed.pdf`, EVIDENCE_ATTACHMENT]);
  return { original, sealed: readFileSync(join(dir, `${layout}-sealed.pdf`)) };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nom151-tools-'));
  writeFileSync(join(dir, 'seal.js'), SEAL_SCRIPT);
  tsa = await createDemoTsa();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const verify = (evidence: Uint8Array) => verifyEvidence({ evidence, trustedRootsPem: [tsa.rootPem] });

describe.each(['xref-table', 'xref-stream'] as const)('NOM-151 sealed by qpdf and mutool (%s)', (layout) => {
  let original: Buffer;
  let sealed: Buffer;
  beforeAll(async () => {
    ({ original, sealed } = await sealWithTools(layout));
  });

  it('is the original followed by one incremental update in the same xref form, which qpdf finds sound', () => {
    expect(sealed.subarray(0, original.byteLength).equals(original)).toBe(true);
    const update = sealed.subarray(original.byteLength).toString('latin1');
    expect(update).toMatch(/\/Prev \d+/);
    if (layout === 'xref-stream') expect(update).toMatch(/\/Type\s*\/XRef/);
    else expect(update).toMatch(/^xref$/m);
    expect(run('qpdf', ['--check', `${layout}-sealed.pdf`]).toString()).toMatch(/No syntax or stream encoding errors/);
  });

  it('verifies offline: the first revision is the original the evidence names, its pages the ones shown', async () => {
    const result = await verify(sealed);
    expect(result.failures).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.source).toEqual({ evidence: 'sealed-pdf', document: 'original-revision' });
    expect(result.sealedPages).toBe('match');
  });

  it('one byte of the original changed: not valid', async () => {
    // The header's version digit: the file still parses (its objects may sit in compressed object streams).
    const tampered = Buffer.from(sealed);
    expect(tampered.toString('latin1', 0, 7)).toBe('%PDF-1.');
    tampered[7] = tampered[7] === 0x39 ? 0x38 : tampered[7]! + 1;
    const result = await verify(tampered);
    expect(result.valid).toBe(false);
    expect(result.failures.map((f) => f.code)).toContain('HASH_MISMATCH');
  });
});

/**
 * Linearized ("Fast Web View") is refused as changed after sealing, genuine or not: pdf.js shows a linearized file's
 * first page from the object its linearization dictionary names (/O), counts pages by /N, and reads the xref after the
 * first endobj; a one-byte edit of /N or /O, or a hidden xref section there, showed other pages with every check passed
 * while it was accepted (red team 13). The page comparison reads the page tree only.
 */
describe('a sealed PDF linearized afterwards', () => {
  it.each([
    ['qpdf', ['qpdf', '--linearize', 'app-sealed.pdf', 'linear.pdf']],
    ['mutool', ['mutool', 'clean', '-l', 'app-sealed.pdf', 'linear.pdf']],
  ])('by %s, and with its page count cut to one: changed after sealing', async (_, [cmd, ...args]) => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (const text of ['Monto: $85,000 MXN', 'Clausula 2: pagos mensuales'])
      doc.addPage([612, 792]).drawText(text, { x: 72, y: 720, size: 18, font });
    const original = await doc.save();
    writeFileSync(join(dir, 'app-sealed.pdf'), await attachEvidence(original, (await tsa.stamp(original)).tokenDer));
    run(cmd!, args);
    const linear = readFileSync(join(dir, 'linear.pdf'));
    const head = linear.toString('latin1', 0, 1024);
    expect(head).toMatch(/\/Linearized/);
    const count = /\/N\s*2\b/.exec(head)!;
    const oneCounted = Buffer.from(linear);
    oneCounted.write(count[0].replace('2', '1'), count.index, 'latin1');
    for (const file of [linear, oneCounted]) {
      const result = await verify(file);
      expect(result.valid).toBe(false);
      expect(result.failures.map((f) => f.code)).toContain('CHANGED_AFTER_SEALING');
    }
  });
});
