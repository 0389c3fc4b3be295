import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { AuditAction } from '../../../common/views';
import type { EnvironmentConfig, MainContext } from '../../../main/ports';
import { createRouter } from '../../../main/ipc/router';
import { handlers } from '../../../main/ipc/handlers/index';
import { createDemoTsa } from '../../../main/nom151/tsa';
import { startHarness, type Harness } from '../../helpers/demo-support';

/** The nom151 IPC domain end to end: router → handlers → OmniClient → demo server → offline verification. */

const APP_URL = 'http://127.0.0.1:1';
const sender = { url: `${APP_URL}/`, isMainFrame: true };
let harness: Harness;
const audit: { action: AuditAction; detail: Record<string, unknown> }[] = [];
const saved: { suggestedName: string; data: Uint8Array; mimeType: string }[] = [];
const trusted: string[] = [];
let router: ReturnType<typeof createRouter>;

async function call<T>(channel: string, input: unknown): Promise<T> {
  const result = await router.handle(channel, input, sender);
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message.en}`);
  return result.data as T;
}

beforeAll(async () => {
  harness = await startHarness();
  // The demo root is not stored: the service trusts the demo server's published root in the demo environment.
  const client = await harness.client();
  const env: EnvironmentConfig = {
    id: 'demo',
    kind: 'demo',
    name: 'Demo',
    baseUrl: harness.server.url,
    authUrl: harness.server.url,
    apiVersion: '1.0',
    tokenHeader: 'X-Incode-Hardware-Id',
  };
  const ctx = {
    omni: () => client,
    environments: {
      list: () => [env],
      active: () => env,
      trustedNom151Roots: async () => [...trusted],
      addTrustedNom151Root: async (_id: string, pem: string) => void trusted.push(pem),
    },
    audit: {
      append: async (entry: { action: AuditAction; detail: Record<string, unknown> }) => {
        audit.push(entry);
        return {
          ...entry,
          seq: audit.length,
          at: new Date().toISOString(),
          environment: 'demo',
          prevHash: '',
          hash: '',
        };
      },
    },
    files: {
      save: async (file: { suggestedName: string; data: Uint8Array; mimeType: string }) => {
        saved.push(file);
        return { downloadUrl: `/download/${saved.length}` };
      },
    },
  } as unknown as MainContext;
  router = createRouter({ handlers, context: ctx, appUrl: APP_URL });
});
afterAll(() => harness?.close());

interface Verification {
  valid: boolean;
  failure?: { code: string };
  details?: { serial: string; provider: string; genTime: string };
  documentHashHex?: string;
  source: { evidence: string; document: string };
}

describe('nom151 domain against the demo server', () => {
  it('signs a string: the folio is the token serial and the evidence verifies against the demo root', async () => {
    const view = await call<{ folio: string; verification: Verification; contentSha256: string; artifactId: string }>(
      'nom151.signString',
      { text: 'Acepto — contrato 42' },
    );
    expect(view.verification.valid).toBe(true);
    expect(view.verification.details?.serial).toBe(view.folio);
    expect(view.verification.documentHashHex).toBe(view.contentSha256);
    expect(audit.at(-1)).toMatchObject({
      action: 'signed',
      detail: { kind: 'string', folio: view.folio, valid: true },
    });
    expect(JSON.stringify(audit.at(-1))).not.toContain('contrato 42');
  });

  it('seals a contract with both options, verifies it and the sealed PDF, and saves all three files', async () => {
    const id = 'demo-clean-pass-credito';
    const view = await call<{
      artifactId: string;
      folio: string;
      verification: Verification;
      sealedPdfVerification?: Verification;
      available: Record<string, boolean>;
    }>('nom151.sealContract', { signedContractId: id, includeSignedDocument: true, includeSealedPdf: true });
    expect(view.verification.valid).toBe(true);
    expect(view.sealedPdfVerification?.valid).toBe(true);
    expect(view.sealedPdfVerification?.source).toEqual({ evidence: 'sealed-pdf', document: 'embedded-original' });
    expect(view.available).toEqual({ evidence: true, signedDocument: true, sealedPdf: true });
    expect(view.folio).toMatch(/^[0-9A-F]{32}$/);

    for (const kind of ['evidence', 'signedDocument', 'sealedPdf'])
      await call('nom151.saveArtifact', { artifactId: view.artifactId, kind });
    const [evidence, document, sealed] = saved.slice(-3);
    expect(evidence?.suggestedName).toMatch(/\.tsr$/);
    expect(sealed?.suggestedName).toMatch(/sellado-nom151\.pdf$/);

    const pdf = await getDocument({ data: sealed!.data.slice(), isEvalSupported: false, useWorkerFetch: false })
      .promise;
    expect(pdf.numPages).toBeGreaterThan(0);
    expect(Object.keys((await pdf.getAttachments()) ?? {})).toHaveLength(2);
    await pdf.destroy();

    // A third party verifies what was saved: the .tsr with the document, then a tampered copy.
    const b64 = (d: Uint8Array) => Buffer.from(d).toString('base64');
    const ok = await call<Verification>('nom151.verify', {
      evidence: { name: 'c.tsr', base64: b64(evidence!.data) },
      document: { name: 'c.pdf', base64: b64(document!.data) },
    });
    expect(ok.valid).toBe(true);
    const tampered = document!.data.slice();
    tampered[100] = tampered[100]! ^ 1;
    const bad = await call<Verification>('nom151.verify', {
      evidence: { name: 'c.tsr', base64: b64(evidence!.data) },
      document: { name: 'c.pdf', base64: b64(tampered) },
    });
    expect(bad.failure?.code).toBe('HASH_MISMATCH');
    expect(audit.at(-1)).toMatchObject({ action: 'verified', detail: { valid: false, failures: ['HASH_MISMATCH'] } });
    const sealedAlone = await call<Verification>('nom151.verify', {
      evidence: { name: 's.pdf', base64: b64(sealed!.data) },
    });
    expect(sealedAlone.valid).toBe(true);
  });

  it('seals with neither option: the evidence is read and checked, but there is no document to compare', async () => {
    const view = await call<{ verification: Verification; available: Record<string, boolean> }>('nom151.sealContract', {
      signedContractId: 'demo-clean-pass-privacidad',
      includeSignedDocument: false,
      includeSealedPdf: false,
    });
    expect(view.available).toEqual({ evidence: true, signedDocument: false, sealedPdf: false });
    expect(view.verification.failure?.code).toBe('NO_DOCUMENT');
  });

  it('an unknown contract id is a clean service error', async () => {
    const result = await router.handle(
      'nom151.sealContract',
      { signedContractId: 'no-such', includeSignedDocument: true, includeSealedPdf: false },
      sender,
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.httpStatus).toBe(400);
  });

  it('evidence from a provider the environment does not trust is "untrusted" until its root is imported', async () => {
    const stranger = await createDemoTsa({ name: 'Proveedor Externo' });
    const content = new TextEncoder().encode('otro documento');
    const { tokenDer } = await stranger.stamp(content);
    const input = {
      evidence: { name: 'x.tsr', base64: Buffer.from(tokenDer).toString('base64') },
      document: { name: 'x.txt', base64: Buffer.from(content).toString('base64') },
    };
    expect((await call<Verification>('nom151.verify', input)).failure?.code).toBe('UNTRUSTED_CERTIFICATE');
    const before = await call<{ subject: string }[]>('nom151.trustedRoots', {});
    expect(before.map((r) => r.subject)).toEqual([expect.stringContaining('Omni Reviewer Demo NOM-151 Root CA')]);

    const leaf = await router.handle('nom151.addTrustedRoot', { pem: stranger.providerPem }, sender);
    expect(leaf.ok).toBe(false);
    if (!leaf.ok) expect(leaf.error.code).toBe('NOM151_INVALID_ROOT');
    const roots = await call<{ subject: string }[]>('nom151.addTrustedRoot', { pem: stranger.rootPem });
    expect(roots.map((r) => r.subject).join('\n')).toContain('Proveedor Externo');
    expect((await call<Verification>('nom151.verify', input)).valid).toBe(true);
  });

  it('a truncated evidence file fails cleanly', async () => {
    const view = await call<{ artifactId: string }>('nom151.signString', { text: 'abc' });
    await call('nom151.saveArtifact', { artifactId: view.artifactId, kind: 'evidence' });
    const tsr = saved.at(-1)!.data;
    const result = await call<Verification>('nom151.verify', {
      evidence: { name: 'cut.tsr', base64: Buffer.from(tsr.slice(0, tsr.length - 40)).toString('base64') },
      document: { name: 'abc.txt', base64: Buffer.from('abc').toString('base64') },
    });
    expect(result.failure?.code).toBe('MALFORMED_EVIDENCE');
  });
});
