import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createDemoTsa, type DemoTsa } from '../../../main/nom151/tsa';
import { attachEvidence } from '../../../main/nom151/pdf';
import { verifyEvidence as verifyHere } from '../../../main/nom151/verify';
import { createVerifier } from '../../../main/nom151/verifier';

/** The verifier's thread: a sealed PDF from outside is parsed off main, under a memory and a time limit. */

const misbehaving = pathToFileURL(new URL('./fixtures/misbehaving-verifier.mjs', import.meta.url).pathname).href;
const pdfSaying = (what: string) => new TextEncoder().encode(`%PDF-1.7 ${what}`);
let tsa: DemoTsa;
let sealed: Uint8Array;
const verifiers: ReturnType<typeof createVerifier>[] = [];
const verifier = (limits: Parameters<typeof createVerifier>[0]) => {
  const made = createVerifier(limits);
  verifiers.push(made);
  return made;
};

beforeAll(async () => {
  tsa = await createDemoTsa();
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText('Contrato de crédito', { x: 50, y: 780, font, size: 14 });
  const original = await doc.save();
  sealed = await attachEvidence(original, (await tsa.stamp(original)).tokenDer);
});

afterEach(async () => {
  await Promise.all(verifiers.splice(0).map((v) => v.stop()));
});

describe('the NOM-151 verifier thread', () => {
  it('verifies a sealed PDF on its thread exactly as in place', async () => {
    const input = { evidence: sealed, trustedRootsPem: [tsa.rootPem] };
    const onThread = await verifier({ memoryMb: 512, timeMs: 60_000 }).verify(input);
    expect(onThread.valid).toBe(true);
    expect(onThread).toEqual(await verifyHere(input));
  });

  it('ends a thread that outgrows its memory and reports the PDF as too complex; the next one gets a new thread', async () => {
    const v = verifier({ memoryMb: 64, timeMs: 600_000, entry: misbehaving });
    const result = await v.verify({ evidence: pdfSaying('allocate'), trustedRootsPem: [] });
    expect(result.valid).toBe(false);
    expect(result.failures.map((f) => f.code)).toEqual(['PDF_TOO_COMPLEX']);
    expect(result.failure?.message.es).toContain('memoria o tiempo');
    const next = (await v.verify({ evidence: pdfSaying('hello'), trustedRootsPem: [] })) as unknown as {
      answered: string;
      heapLimitMb: number;
    };
    expect(next.answered).toBe('%PDF-1.7 hello');
    // The thread's heap is the one asked for (with V8's young generation on top), not main's default.
    expect(next.heapLimitMb).toBeLessThan(64 + 64);
  });

  it('ends a thread that holds buffers past twice its heap limit outside the heap (red team 15: pdf.js decodes there)', async () => {
    // No time limit to speak of: only the bound on the process's memory can end it.
    const v = verifier({ memoryMb: 64, timeMs: 600_000, entry: misbehaving });
    const result = await v.verify({ evidence: pdfSaying('buffers'), trustedRootsPem: [] });
    expect(result.failures.map((f) => f.code)).toEqual(['PDF_TOO_COMPLEX']);
  });

  it('ends a verification past its time while main keeps answering, then verifies the next on a new thread', async () => {
    const v = verifier({ memoryMb: 512, timeMs: 1_000, entry: misbehaving });
    const spinning = v.verify({ evidence: pdfSaying('spin'), trustedRootsPem: [tsa.rootPem] });
    // Evidence that is no PDF is verified in place, at once, while the thread spins.
    const token = await tsa.stamp(new TextEncoder().encode('hola'));
    const meanwhile = await v.verify({
      evidence: token.tokenDer,
      document: new TextEncoder().encode('hola'),
      trustedRootsPem: [tsa.rootPem],
    });
    expect(meanwhile.valid).toBe(true);
    const result = await spinning;
    expect(result.failures.map((f) => f.code)).toEqual(['PDF_TOO_COMPLEX']);
    expect(result.source).toEqual({ evidence: 'sealed-pdf', document: 'none' });
    expect(await v.verify({ evidence: pdfSaying('again'), trustedRootsPem: [] })).toMatchObject({
      answered: '%PDF-1.7 again',
    });
  });
});
