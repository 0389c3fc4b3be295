import { deflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDemoTsa, tokenToTimeStampResp, type DemoTsa } from '../../../main/nom151/tsa';
import { verifyEvidence } from '../../../main/nom151/verify';
import { PDFDocument } from 'pdf-lib';
import { loadPdf } from '../../../main/nom151/pdf';
import { appendUpdate, contract, handPdf, plainObject, streamObject } from './pdf-surgery';

/**
 * Red-team round 7, finding 6: every embedded file was decoded (pure-JS inflate, no limit) before its name was looked
 * at, so a 3 MB PDF took 3 GB of memory and 11 s of main-process time. Only the evidence and the embedded original
 * are decoded now, with a hard cap, and the name tree is walked a bounded number of entries.
 */

let tsa: DemoTsa;
let original: Buffer;
let tsr: Uint8Array;

beforeAll(async () => {
  tsa = await createDemoTsa();
  original = contract();
  tsr = tokenToTimeStampResp((await tsa.stamp(original)).tokenDer);
});

const verify = (evidence: Uint8Array) => verifyEvidence({ evidence, trustedRootsPem: [tsa.rootPem] });

/** The standard layout, with `files` (name, stream dict, data) embedded before the evidence in the name tree. */
function sealWith(files: Array<[string, string, Buffer]>): Buffer {
  const objects: Buffer[] = [];
  const xref: Record<number, number> = {};
  const names: string[] = [];
  let num = 6;
  const add = (name: string, dict: string, data: Buffer) => {
    xref[num] = objects.push(streamObject(num, `/Type /EmbeddedFile ${dict}`, data)) - 1;
    xref[num + 1] =
      objects.push(plainObject(num + 1, `<< /Type /Filespec /F (${name}) /EF << /F ${num} 0 R >> >>`)) - 1;
    names.push(`(${name}) ${num + 1} 0 R`);
    num += 2;
  };
  for (const file of files) add(...file);
  add('constancia-nom151.tsr', '', Buffer.from(tsr));
  xref[1] =
    objects.push(
      plainObject(1, `<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [${names.join(' ')}] >> >> >>`),
    ) - 1;
  return appendUpdate(original, objects, xref, `/Size ${num} /Root 1 0 R`);
}

describe('NOM-151 sealed PDF: embedded files are decoded only when needed, and with a limit', () => {
  it('other attachments are never decoded: a broken or huge one beside the evidence does not matter', async () => {
    const bomb = deflateSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 }); // 64 MB of zeros in 64 KB
    const result = await verify(
      sealWith([
        ['broken.bin', '/Filter /FlateDecode', Buffer.from('not deflate data at all')],
        ['bomb.bin', '/Filter /FlateDecode', bomb],
      ]),
    );
    expect(result.failures).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('evidence that inflates past the limit is refused before it is inflated in full', async () => {
    // 64 MB of zeros named as the evidence: stopped at the 20 MB cap, reported as an unreadable PDF.
    const bomb = deflateSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
    const bombed = appendUpdate(
      original,
      [
        streamObject(6, '/Type /EmbeddedFile /Filter /FlateDecode', bomb),
        plainObject(7, '<< /Type /Filespec /F (constancia-nom151.tsr) /EF << /F 6 0 R >> >>'),
        plainObject(
          1,
          '<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(constancia-nom151.tsr) 7 0 R] >> >> >>',
        ),
      ],
      { 6: 0, 7: 1, 1: 2 },
      '/Size 8 /Root 1 0 R',
    );
    const result = await verify(bombed);
    expect(result.valid).toBe(false);
    expect(result.failure?.code).toBe('UNREADABLE_PDF');
  });

  it('the name tree is walked a bounded number of entries', async () => {
    const many = Array.from(
      { length: 1200 },
      (_, i) => [`f${i}.bin`, '', Buffer.from('x')] as [string, string, Buffer],
    );
    const result = await verify(sealWith(many));
    expect(result.failure?.code).toBe('NO_EVIDENCE_IN_PDF');
  });
});

describe('NOM-151: a PDF whose streams pdf-lib decodes as it loads is refused past a cap', () => {
  /** A one-page PDF carrying object stream 6 (`dict` and `data`), as anyone could hand-write one. */
  const withObjectStream = (dict: string, data: Buffer) =>
    handPdf([
      plainObject(1, '<< /Type /Catalog /Pages 2 0 R >>'),
      plainObject(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
      plainObject(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>'),
      plainObject(4, '/FlateDecode'),
      plainObject(5, '<< >>'),
      streamObject(6, `${dict} /N 1 /First 4`, data),
    ]);
  const zeros = deflateSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 }); // 64 MB in 64 KB

  it('refuses one past the cap however it is written: an escaped name, an indirect filter, a filter chain', async () => {
    // Object 4 is the name /FlateDecode, for a filter given by reference (red team 8).
    for (const dict of [
      '/Type /ObjStm /Filter /FlateDecode',
      '/Type /Obj#53tm /Filter /FlateDecode',
      '/Type /ObjStm /Filter 4 0 R',
    ])
      await expect(loadPdf(withObjectStream(dict, zeros), {}), dict).rejects.toThrow(/past the limit/);
    // Filters chained: each stage is capped, the last one here inflates 64 MB.
    await expect(
      loadPdf(withObjectStream('/Type /ObjStm /Filter [/FlateDecode /FlateDecode]', deflateSync(zeros)), {}),
    ).rejects.toThrow(/past the limit/);
  });

  it('refuses a few KB that would build millions of objects (red team 9), and a genuine file loads beside it', async () => {
    const arrays = deflateSync(Buffer.from(`6 0 [${'[]'.repeat(1_200_000)}]`, 'latin1'));
    const bomb = loadPdf(withObjectStream('/Type /ObjStm /Filter /FlateDecode', arrays), {});
    const genuine = await PDFDocument.create();
    genuine.addPage();
    // Each load has its budget to itself: the genuine one, started meanwhile, is not refused with the bomb.
    const beside = loadPdf(await genuine.save(), {});
    await expect(bomb).rejects.toThrow(/more objects than a document/);
    // Plain numbers count as much (red team 10).
    const numbers = deflateSync(Buffer.from(`6 0 [${'0 '.repeat(1_200_000)}]`, 'latin1'));
    await expect(loadPdf(withObjectStream('/Type /ObjStm /Filter /FlateDecode', numbers), {})).rejects.toThrow(
      /more objects than a document/,
    );
    expect((await beside).getPageCount()).toBe(1);
  });

  it('loads a PDF written with object streams as usual', async () => {
    const doc = await PDFDocument.create();
    for (let i = 0; i < 3; i++) doc.addPage();
    const pdf = await doc.save({ useObjectStreams: true });
    expect(Buffer.from(pdf).toString('latin1')).toContain('/ObjStm');
    expect((await loadPdf(pdf, {})).getPageCount()).toBe(3);
  });
});
