import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import * as pkijs from 'pkijs';
import { createDemoTsa, tokenToTimeStampResp, DEMO_TSA_POLICY, type DemoTsa } from '../../../main/nom151/tsa';
import { attachEvidence, extractEvidence } from '../../../main/nom151/pdf';

const OPENSSL = '/usr/bin/openssl';
let dir: string;
let tsa: DemoTsa;

function opensslVerify(args: { data: string; token: string; tokenIn: boolean }): string {
  const argv = [
    'ts',
    '-verify',
    '-data',
    args.data,
    '-in',
    args.token,
    ...(args.tokenIn ? ['-token_in'] : []),
    '-CAfile',
    join(dir, 'root.pem'),
    '-untrusted',
    join(dir, 'provider.pem'),
  ];
  try {
    return execFileSync(OPENSSL, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return `${e.stdout ?? ''}${e.stderr ?? ''}`;
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nom151-tsa-'));
  tsa = await createDemoTsa();
  writeFileSync(join(dir, 'root.pem'), tsa.rootPem);
  writeFileSync(join(dir, 'provider.pem'), tsa.providerPem);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('demo NOM-151 time-stamping authority', () => {
  it('issues a token OpenSSL verifies against the demo root and the content', async () => {
    const content = new TextEncoder().encode('Contrato de prestación de servicios — firmado');
    const { tokenDer } = await tsa.stamp(content);
    writeFileSync(join(dir, 'content.txt'), content);
    writeFileSync(join(dir, 'token.tst'), tokenDer);
    writeFileSync(join(dir, 'reply.tsr'), tokenToTimeStampResp(tokenDer));

    expect(opensslVerify({ data: join(dir, 'content.txt'), token: join(dir, 'token.tst'), tokenIn: true })).toContain(
      'Verification: OK',
    );
    expect(opensslVerify({ data: join(dir, 'content.txt'), token: join(dir, 'reply.tsr'), tokenIn: false })).toContain(
      'Verification: OK',
    );
  });

  it('OpenSSL rejects the token for different content', async () => {
    const { tokenDer } = await tsa.stamp(new TextEncoder().encode('original'));
    writeFileSync(join(dir, 'other.txt'), 'originaL');
    writeFileSync(join(dir, 'token2.tst'), tokenDer);
    const out = opensslVerify({ data: join(dir, 'other.txt'), token: join(dir, 'token2.tst'), tokenIn: true });
    expect(out).not.toContain('Verification: OK');
    expect(out).toMatch(/message imprint mismatch/i);
  });

  it('puts the SHA-256 imprint, policy, serial and time in the TSTInfo, with unique serials', async () => {
    const content = new TextEncoder().encode('abc');
    const a = await tsa.stamp(content);
    const b = await tsa.stamp(content);
    expect(a.serial).not.toBe(b.serial);
    const signed = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(new Uint8Array(a.tokenDer)).content });
    const eContent = signed.encapContentInfo.eContent;
    if (!eContent) throw new Error('token without eContent');
    const tst = pkijs.TSTInfo.fromBER(eContent.getValue());
    expect(tst.policy).toBe(DEMO_TSA_POLICY);
    expect(tst.messageImprint.hashAlgorithm.algorithmId).toBe('2.16.840.1.101.3.4.2.1');
    expect(Buffer.from(tst.messageImprint.hashedMessage.getValue()).toString('hex')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(Buffer.from(tst.serialNumber.valueBlock.valueHexView).toString('hex').toUpperCase()).toBe(a.serial);
    expect(tst.genTime.getTime()).toBe(a.genTime.getTime());
  });

  it('seals a PDF: the evidence and the exact original travel inside it, and OpenSSL verifies the extracted pair', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([400, 200]);
    page.drawText('Contrato firmado', { x: 40, y: 120, font: await doc.embedFont(StandardFonts.Helvetica) });
    const original = await doc.save();
    const { tokenDer } = await tsa.stamp(original);
    const sealed = await attachEvidence(original, tokenDer);
    const extracted = await extractEvidence(sealed);
    expect(extracted).not.toBeNull();
    expect(Buffer.from(extracted!.originalPdf!).equals(Buffer.from(original))).toBe(true);
    expect(Buffer.from(extracted!.tokenDer).equals(Buffer.from(tokenDer))).toBe(true);
    writeFileSync(join(dir, 'original.pdf'), extracted!.originalPdf!);
    writeFileSync(join(dir, 'pdf.tst'), extracted!.tokenDer);
    expect(opensslVerify({ data: join(dir, 'original.pdf'), token: join(dir, 'pdf.tst'), tokenIn: true })).toContain(
      'Verification: OK',
    );
    expect(await extractEvidence(original)).toBeNull();
  });
});
