import { X509Certificate } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { recordAuditTrail } from '../../../main/record/audit-records';
import { engineFactory } from '../../helpers/record-engines';
import type { EnvironmentConfig, MainContext } from '../../../main/ports';
import { nom151Service } from '../../../main/nom151/service';
import { createDemoTsa } from '../../../main/nom151/tsa';

/** Trusting a NOM-151 provider root changes what every later verification concludes, so it must be audited. */

const env: EnvironmentConfig = {
  id: 'prod',
  kind: 'production',
  name: 'Production',
  baseUrl: 'https://omni.example',
  authUrl: 'https://auth.example',
  apiVersion: '1.0',
  tokenHeader: 'X',
};

const engines = engineFactory('embedded');
afterAll(() => engines.dispose());

async function context() {
  const audit = recordAuditTrail((await engines.open()).db, () => env.id);
  const roots: string[] = [];
  const ctx = {
    environments: {
      active: () => env,
      list: () => [env],
      trustedNom151Roots: async () => [...roots],
      addTrustedNom151Root: async (_id: string, pem: string) => void (roots.includes(pem) || roots.push(pem)),
    },
    audit,
  } as unknown as MainContext;
  return { ctx, audit };
}

describe('audit: trusted NOM-151 roots', () => {
  it('records the subject and SHA-256 fingerprint of a newly trusted root, once, and nothing else', async () => {
    const { rootPem } = await createDemoTsa();
    const cert = new X509Certificate(rootPem);
    const { ctx, audit } = await context();
    const service = nom151Service(ctx);

    await service.addTrustedRoot(rootPem);
    await service.addTrustedRoot(rootPem); // already trusted: nothing changed, nothing to record

    const entries = await audit.list();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'trustedRootAdded', environment: 'prod' });
    expect(entries[0]!.interviewId).toBeUndefined();
    expect(Object.keys(entries[0]!.detail).sort()).toEqual(['sha256', 'subject']);
    expect(entries[0]!.detail.sha256).toBe(cert.fingerprint256.replace(/:/g, '').toLowerCase());
    expect(entries[0]!.detail.subject).toContain('CN=');
    expect(JSON.stringify(entries[0])).not.toContain('BEGIN CERTIFICATE');
    expect(await audit.verify()).toEqual({ ok: true });
  });

  it('a rejected certificate is not trusted and not recorded', async () => {
    const { providerPem } = await createDemoTsa();
    const { ctx, audit } = await context();
    await expect(nom151Service(ctx).addTrustedRoot(providerPem)).rejects.toMatchObject({ code: 'NOM151_INVALID_ROOT' });
    expect(await audit.list()).toEqual([]);
  });
});
