import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDemoTsa, tokenToTimeStampResp, type DemoTsa } from '../../../main/nom151/tsa';
import { verifyEvidence } from '../../../main/nom151/verify';

const enc = (s: string) => new TextEncoder().encode(s);
let tsa: DemoTsa;

beforeAll(async () => {
  tsa = await createDemoTsa();
});

describe('offline NOM-151 verification', () => {
  it('a sealed string verifies, with folio, provider, time and hash', async () => {
    const content = enc('Acepto los términos del contrato 2026-0042');
    const { tokenDer, serial, genTime } = await tsa.stamp(content);
    const result = await verifyEvidence({ evidence: tokenDer, document: content, trustedRootsPem: [tsa.rootPem] });
    expect(result.failures).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.checks).toEqual({
      imprint: 'passed',
      signature: 'passed',
      chain: 'passed',
      validity: 'passed',
      usage: 'passed',
    });
    expect(result.details?.serial).toBe(serial);
    expect(result.details?.genTime).toBe(genTime.toISOString());
    expect(result.details?.provider).toContain('NOM-151 Provider');
    expect(result.details?.chain).toHaveLength(2);
    expect(result.documentHashHex).toBe(result.details?.imprintHex);
    expect(result.source).toEqual({ evidence: 'token', document: 'given' });
  });

  it('accepts the evidence as a TimeStampResp (.tsr) and as base64 text, with or without line breaks', async () => {
    const content = enc('contenido');
    const { tokenDer } = await tsa.stamp(content);
    const tsr = await verifyEvidence({
      evidence: tokenToTimeStampResp(tokenDer),
      document: content,
      trustedRootsPem: [tsa.rootPem],
    });
    expect(tsr.valid).toBe(true);
    expect(tsr.source.evidence).toBe('timestamp-response');
    const b64 = Buffer.from(tokenDer)
      .toString('base64')
      .replace(/(.{64})/g, '$1\n');
    const text = await verifyEvidence({ evidence: enc(b64), document: content, trustedRootsPem: [tsa.rootPem] });
    expect(text.valid).toBe(true);
  });

  it('one byte changed in the content fails with "hash mismatch" and nothing else', async () => {
    const content = enc('Monto: $10,000.00 MXN');
    const { tokenDer } = await tsa.stamp(content);
    const changed = content.slice();
    changed[7] = changed[7]! ^ 0x01;
    const result = await verifyEvidence({ evidence: tokenDer, document: changed, trustedRootsPem: [tsa.rootPem] });
    expect(result.valid).toBe(false);
    expect(result.failure?.code).toBe('HASH_MISMATCH');
    expect(result.failures.map((f) => f.code)).toEqual(['HASH_MISMATCH']);
    expect(result.failure?.message.en).toMatch(/does not match/);
    expect(result.failure?.message.es).toMatch(/no corresponde/);
    expect(result.checks.signature).toBe('passed');
  });

  it('a token from a provider the environment does not trust fails with "untrusted"', async () => {
    const stranger = await createDemoTsa({ name: 'Unknown Vendor' });
    const content = enc('documento');
    const { tokenDer } = await stranger.stamp(content);
    const result = await verifyEvidence({ evidence: tokenDer, document: content, trustedRootsPem: [tsa.rootPem] });
    expect(result.valid).toBe(false);
    expect(result.failure?.code).toBe('UNTRUSTED_CERTIFICATE');
    expect(result.checks).toMatchObject({ imprint: 'passed', signature: 'passed', chain: 'failed' });
    const noRoots = await verifyEvidence({ evidence: tokenDer, document: content, trustedRootsPem: [] });
    expect(noRoots.failure?.code).toBe('UNTRUSTED_CERTIFICATE');
  });

  it('a provider certificate not valid at genTime fails with "expired"', async () => {
    const day = 86_400_000;
    const expired = await createDemoTsa({
      name: 'Lapsed',
      providerValidity: { notBefore: new Date(Date.now() - 30 * day), notAfter: new Date(Date.now() - day) },
    });
    const content = enc('x');
    const { tokenDer } = await expired.stamp(content);
    const result = await verifyEvidence({ evidence: tokenDer, document: content, trustedRootsPem: [expired.rootPem] });
    expect(result.failure?.code).toBe('EXPIRED_CERTIFICATE');
    expect(result.checks).toMatchObject({ chain: 'passed', validity: 'failed' });
  });

  it('an altered signature fails with "bad signature"', async () => {
    const content = enc('y');
    const { tokenDer } = await tsa.stamp(content);
    const forged = tokenDer.slice();
    forged[forged.length - 1] = forged[forged.length - 1]! ^ 0xff; // last byte of the ECDSA signature value
    const result = await verifyEvidence({ evidence: forged, document: content, trustedRootsPem: [tsa.rootPem] });
    expect(result.failure?.code).toBe('BAD_SIGNATURE');
    expect(result.checks.imprint).toBe('passed');
  });

  it('a truncated token fails cleanly as malformed, at every cut', async () => {
    const content = enc('z');
    const { tokenDer } = await tsa.stamp(content);
    for (const cut of [0, 1, 2, 10, 100, Math.floor(tokenDer.length / 2), tokenDer.length - 1]) {
      const result = await verifyEvidence({
        evidence: tokenDer.slice(0, cut),
        document: content,
        trustedRootsPem: [tsa.rootPem],
      });
      expect(result.valid, `cut at ${cut}`).toBe(false);
      expect(result.failure?.code, `cut at ${cut}`).toBe('MALFORMED_EVIDENCE');
      expect(result.details).toBeUndefined();
    }
    const garbage = await verifyEvidence({
      evidence: enc('not evidence at all'),
      document: content,
      trustedRootsPem: [tsa.rootPem],
    });
    expect(garbage.failure?.code).toBe('MALFORMED_EVIDENCE');
  });

  it('a token not shaped as one signer over a TSTInfo, with its certificate, fails as malformed', async () => {
    const content = enc('forma');
    const { tokenDer } = await tsa.stamp(content);
    const reshaped = (change: (signedData: pkijs.SignedData) => void) => {
      const contentInfo = pkijs.ContentInfo.fromBER(new Uint8Array(tokenDer));
      const signedData = new pkijs.SignedData({ schema: contentInfo.content });
      change(signedData);
      contentInfo.content = signedData.toSchema(true);
      return new Uint8Array(contentInfo.toSchema().toBER());
    };
    const withExtra = asn1js.fromBER(new Uint8Array(tokenDer)).result as asn1js.Sequence;
    withExtra.valueBlock.value.push(new asn1js.Integer({ value: 1 }));
    const shapes = {
      'two signers': reshaped((sd) => sd.signerInfos.push(sd.signerInfos[0]!)),
      'no certificate of its signer': reshaped((sd) => delete sd.certificates),
      'not a TSTInfo': reshaped((sd) => (sd.encapContentInfo.eContentType = '1.2.840.113549.1.7.1')),
      'a field after the content': new Uint8Array(withExtra.toBER()),
    };
    for (const [shape, evidence] of Object.entries(shapes)) {
      const result = await verifyEvidence({ evidence, document: content, trustedRootsPem: [tsa.rootPem] });
      expect(result.failure?.code, shape).toBe('MALFORMED_EVIDENCE');
    }
    // Re-encoded unchanged, the same token still verifies: the failures above are the shapes'.
    const same = await verifyEvidence({
      evidence: reshaped(() => {}),
      document: content,
      trustedRootsPem: [tsa.rootPem],
    });
    expect(same.valid).toBe(true);
  });

  it('without a document the evidence is read and checked but not declared valid', async () => {
    const { tokenDer } = await tsa.stamp(enc('a'));
    const result = await verifyEvidence({ evidence: tokenDer, trustedRootsPem: [tsa.rootPem] });
    expect(result.valid).toBe(false);
    expect(result.failure?.code).toBe('NO_DOCUMENT');
    expect(result.checks).toMatchObject({ imprint: 'not-run', signature: 'passed', chain: 'passed' });
  });
});
