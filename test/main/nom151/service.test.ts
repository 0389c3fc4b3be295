import { describe, expect, it } from 'vitest';
import type { AuditAction } from '../../../common/views';
import type { EnvironmentConfig, MainContext } from '../../../main/ports';
import { nom151Service } from '../../../main/nom151/service';
import { createDemoTsa } from '../../../main/nom151/tsa';
import { registerSecretSource } from '../../../main/log';

/** The service's own rules, with a fake service and fake shell services (no network). */

const env: EnvironmentConfig = {
  id: 'prod',
  kind: 'production',
  name: 'Production',
  baseUrl: 'https://omni.example',
  authUrl: 'https://auth.example',
  apiVersion: '1.0',
  tokenHeader: 'X',
};

function fakeContext(opts: {
  answer: (name: string, input: unknown) => unknown;
  roots?: string[];
  save?: 'cancel' | 'ok';
}) {
  const audit: { action: AuditAction; detail: Record<string, unknown> }[] = [];
  const ctx = {
    omni: () => ({ call: async (name: string, input: unknown) => opts.answer(name, input) }),
    environments: {
      active: () => env,
      list: () => [env],
      trustedNom151Roots: async () => opts.roots ?? [],
      addTrustedNom151Root: async () => undefined,
    },
    audit: {
      append: async (e: { action: AuditAction; detail: Record<string, unknown> }) => (
        audit.push(e),
        { ...e, seq: audit.length, at: '', environment: env.id, prevHash: '', hash: '' }
      ),
    },
    files: { save: async () => (opts.save === 'cancel' ? null : { savedTo: '/tmp/x' }) },
  } as unknown as MainContext;
  return { ctx, audit };
}

describe('nom151 service', () => {
  it('a contract answer without evidence is an explained, retryable error, not a silent success', async () => {
    const { ctx, audit } = fakeContext({
      answer: () => ({ success: false, sessionStatus: 'Alive', additionalInformation: null }),
    });
    const error = await nom151Service(ctx)
      .sealContract({ signedContractId: 'c-1', includeSignedDocument: true, includeSealedPdf: false })
      .catch((e: unknown) => e);
    expect(
      (error as { toIpcError(): { code: string; retryable: boolean; message: { es: string } } }).toIpcError(),
    ).toMatchObject({
      code: 'NOM151_NOT_SEALED',
      retryable: true,
      message: { es: expect.stringContaining('c-1') },
    });
    expect(audit).toEqual([]);
  });

  it('in production nothing is trusted until a root is imported: a real token reads as untrusted', async () => {
    const tsa = await createDemoTsa();
    const { ctx } = fakeContext({
      answer: async (_name, input) => {
        const text = (input as { body: { stringToSign: string } }).body.stringToSign;
        const { tokenDer, serial } = await tsa.stamp(new TextEncoder().encode(text));
        return { signedString: Buffer.from(tokenDer).toString('base64'), reference: serial };
      },
    });
    const view = await nom151Service(ctx).signString('hola');
    expect(view.verification.failure?.code).toBe('UNTRUSTED_CERTIFICATE');
    expect(view.verification.checks.imprint).toBe('passed');
  });

  it('keeps a folio that echoes a held secret redacted: on screen, in file names and on the trail (red team 18)', async () => {
    const key = 'ak-live-7f3a9c1d5e2b4a60';
    registerSecretSource({ knownSecrets: () => [key] });
    const tsa = await createDemoTsa();
    const { tokenDer } = await tsa.stamp(new TextEncoder().encode('z'));
    const { ctx, audit } = fakeContext({
      answer: () => ({ signedString: Buffer.from(tokenDer).toString('base64'), reference: `F-9-${key}` }),
    });
    const view = await nom151Service(ctx).signString('z');
    expect(JSON.stringify(view)).not.toContain(key);
    expect(JSON.stringify(audit)).not.toContain(key);
    expect(view.folio).toBe('F-9-[redacted]');
  });

  it('a cancelled save returns null and is not audited; an unknown artifact is an explained error', async () => {
    const tsa = await createDemoTsa();
    const { tokenDer } = await tsa.stamp(new TextEncoder().encode('x'));
    const { ctx, audit } = fakeContext({
      answer: () => ({ signedString: Buffer.from(tokenDer).toString('base64'), reference: 'F-1' }),
      roots: [tsa.rootPem],
      save: 'cancel',
    });
    const service = nom151Service(ctx);
    const view = await service.signString('x');
    expect(view.verification.valid).toBe(true);
    expect(await service.saveArtifact(view.artifactId, 'evidence')).toBeNull();
    expect(audit.map((a) => a.action)).toEqual(['signed']);
    const gone = await service
      .saveArtifact('00000000-0000-4000-8000-000000000000', 'evidence')
      .catch((e: unknown) => e);
    expect((gone as { code: string }).code).toBe('NOM151_ARTIFACT_GONE');
    const missingKind = await service.saveArtifact(view.artifactId, 'sealedPdf').catch((e: unknown) => e);
    expect((missingKind as { code: string }).code).toBe('NOM151_ARTIFACT_GONE');
  });

  it('evidence that is not a token still yields a result (malformed), and the audit says so', async () => {
    const { ctx, audit } = fakeContext({ answer: () => ({ signedString: 'bm90IGEgdG9rZW4=', reference: 'F-2' }) });
    const view = await nom151Service(ctx).signString('y');
    expect(view.verification.failure?.code).toBe('MALFORMED_EVIDENCE');
    expect(audit[0]).toMatchObject({
      action: 'signed',
      detail: { folio: 'F-2', valid: false, failure: 'MALFORMED_EVIDENCE' },
    });
  });
});
