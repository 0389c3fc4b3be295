import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractEvidence } from '../../../main/nom151/pdf';
import { verifyEvidence } from '../../../main/nom151/verify';
import { startHarness, type Harness } from '../../helpers/demo-support';

let h: Harness;
let rootPem = '';
beforeAll(async () => {
  h = await startHarness();
  const res = await fetch(`${h.server.url}/__demo/nom151-root.pem`);
  expect(res.headers.get('content-type')).toMatch(/pem/);
  rootPem = await res.text();
});
afterAll(() => h.close());

const b64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));

describe('demo server: NOM-151', () => {
  it('publishes the demo root certificate', () => {
    expect(rootPem).toMatch(/^-----BEGIN CERTIFICATE-----/);
  });

  it('signs a string with verifiable evidence and a unique folio', async () => {
    const client = await h.client();
    const text = 'Acepto los términos del crédito 2025-09-12';
    const first = await client.call('signStringNom151', { body: { stringToSign: text } });
    const second = await client.call('signStringNom151', { body: { stringToSign: text } });
    expect(first.reference).not.toBe(second.reference);
    const verification = await verifyEvidence({
      evidence: b64(first.signedString),
      document: new TextEncoder().encode(text),
      trustedRootsPem: [rootPem],
    });
    expect(verification.valid).toBe(true);
    const tampered = await verifyEvidence({
      evidence: b64(first.signedString),
      document: new TextEncoder().encode(`${text}.`),
      trustedRootsPem: [rootPem],
    });
    expect(tampered.valid).toBe(false);
    expect(tampered.failure?.code).toBe('HASH_MISMATCH');
  });

  it('seals a signed contract: evidence always, the document and the sealed PDF only when asked', async () => {
    const client = await h.client();
    const bare = await client.call('calculateContractNom151', {
      body: { signedContractId: 'demo-clean-pass-credito' },
    });
    expect(bare.success).toBe(true);
    expect(bare.sessionStatus).toBe('Alive');
    expect(Object.keys(bare.additionalInformation ?? {})).toEqual(['signedDocumentNom151']);

    const full = await client.call('calculateContractNom151', {
      body: {
        signedContractId: 'demo-clean-pass-credito',
        includeSignedDocumentInResponse: true,
        includeCertificateDetailsInResponse: true,
      },
    });
    const info = full.additionalInformation!;
    const pdf = b64(info.signedDocumentBase64!);
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
    // The PDF is the one the contract link serves.
    const links = await client.call('getContractLinks', { query: { id: 'demo-clean-pass' } });
    const served = new Uint8Array(
      await (await fetch(links.additionalInformation!['demo-clean-pass-credito']!)).arrayBuffer(),
    );
    expect(Buffer.from(served).equals(Buffer.from(pdf))).toBe(true);

    const evidence = await verifyEvidence({
      evidence: b64(info.signedDocumentNom151!),
      document: pdf,
      trustedRootsPem: [rootPem],
    });
    expect(evidence.valid).toBe(true);
    const sealed = b64(info.signedDocumentWithNomSignatureBase64!);
    expect(await extractEvidence(sealed)).not.toBeNull();
    const sealedCheck = await verifyEvidence({ evidence: sealed, trustedRootsPem: [rootPem] });
    expect(sealedCheck.valid).toBe(true);

    const onlyDoc = await client.call('calculateContractNom151', {
      body: { signedContractId: 'demo-closed-credito', includeSignedDocumentInResponse: true },
    });
    expect(onlyDoc.sessionStatus).toBe('Closed');
    expect(Object.keys(onlyDoc.additionalInformation ?? {}).sort()).toEqual([
      'signedDocumentBase64',
      'signedDocumentNom151',
    ]);
  });

  it('refuses an unknown contract or another organization’s contract with 400', async () => {
    const client = await h.client();
    await expect(client.call('calculateContractNom151', { body: { signedContractId: 'nope' } })).rejects.toMatchObject({
      httpStatus: 400,
    });
    await expect(
      client.call('calculateContractNom151', { body: { signedContractId: 'demo-orgb-onboarding-seguro' } }),
    ).rejects.toMatchObject({ httpStatus: 400 });
    const deleted = await client
      .call('calculateContractNom151', { body: { signedContractId: 'demo-deleted-credito' } })
      .catch((e: { body?: { message?: string } }) => e);
    expect(deleted).toMatchObject({ httpStatus: 400, body: { details: { sessionStatus: 'Deleted' } } });
  });
});
