import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { recordAuditTrail } from '../../../../main/record/audit-records';
import { engineFactory } from '../../../helpers/record-engines';
import type { EnvironmentConfig, MainContext } from '../../../../main/ports';
import { appHandlers } from '../../../../main/ipc/handlers/app';

/** Settings' audit trail: the active environment's entries only, newest first, the whole chain verified. */

const envOf = (id: string, kind: EnvironmentConfig['kind']): EnvironmentConfig => ({
  id,
  kind,
  name: id,
  baseUrl: 'https://omni.example',
  authUrl: 'https://auth.example',
  apiVersion: '1.0',
  tokenHeader: 'X',
});

const engines = engineFactory('embedded');
afterAll(() => engines.dispose());

async function context() {
  const record = await engines.open();
  let active = envOf('demo', 'demo');
  const audit = recordAuditTrail(record.db, () => active.id);
  const saved: { suggestedName: string; data: Uint8Array }[] = [];
  const ctx = {
    environments: { active: () => active },
    audit,
    files: {
      save: async (file: { suggestedName: string; data: Uint8Array }) => (
        saved.push(file),
        { downloadUrl: '/download/x' }
      ),
    },
  } as unknown as MainContext;
  return { ctx, audit, record, saved, switchTo: (env: EnvironmentConfig) => (active = env) };
}

describe('app.auditTrail', () => {
  it('lists the active environment newest first, entries without an interview included', async () => {
    const { ctx, audit, switchTo } = await context();
    await audit.append({ interviewId: 'a', action: 'opened', detail: {} });
    await audit.append({ action: 'trustedRootAdded', detail: { subject: 'CN=Root', sha256: 'ab' } });
    switchTo(envOf('prod', 'production'));
    await audit.append({ interviewId: 'b', action: 'opened', detail: {} });

    const prod = await appHandlers.auditTrail({}, ctx);
    expect(prod.environment).toEqual({ id: 'prod', name: 'prod', kind: 'production' });
    expect(prod.entries.map((e) => e.seq)).toEqual([3]);

    switchTo(envOf('demo', 'demo'));
    const demo = await appHandlers.auditTrail({}, ctx);
    expect(demo.entries.map((e) => [e.seq, e.action, e.interviewId ?? null])).toEqual([
      [2, 'trustedRootAdded', null],
      [1, 'opened', 'a'],
    ]);
    expect(demo.chain).toEqual({ ok: true });
  });

  it('reports a broken chain even when the altered entry belongs to another environment', async () => {
    const { ctx, audit, record, switchTo } = await context();
    switchTo(envOf('prod', 'production'));
    await audit.append({ interviewId: 'b', action: 'decided', detail: { decision: 'approve' } });
    switchTo(envOf('demo', 'demo'));
    await audit.append({ interviewId: 'a', action: 'opened', detail: {} });
    // Only the table's owner can, by switching the append-only trigger off first; the chain still tells.
    await sql`alter table audit_entries disable trigger audit_entries_append_only`.execute(record.db);
    await sql`update audit_entries set detail = '{"decision":"reject"}' where seq = 1`.execute(record.db);
    expect((await appHandlers.auditTrail({}, ctx)).chain).toEqual({ ok: false, brokenAt: 1 });
  });

  it('exports the listed entries as JSON with their hashes, and records the export', async () => {
    const { ctx, audit, saved } = await context();
    await audit.append({ action: 'trustedRootAdded', detail: { subject: 'CN=Root', sha256: 'ab' } });
    expect(await appHandlers.exportAuditTrail({}, ctx)).toEqual({ downloadUrl: '/download/x' });
    expect(saved[0]!.suggestedName).toMatch(/^audit-trail-demo-\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d\.json$/);
    const file = JSON.parse(new TextDecoder().decode(saved[0]!.data)) as {
      format: string;
      chain: unknown;
      entries: { action: string; hash: string }[];
    };
    expect(file.format).toBe('omni-reviewer.audit-trail');
    expect(file.chain).toEqual({ ok: true });
    expect(file.entries).toEqual([
      expect.objectContaining({ action: 'trustedRootAdded', hash: expect.stringMatching(/^[0-9a-f]{64}$/) }),
    ]);
    expect((await audit.list()).map((e) => [e.action, e.detail])).toEqual([
      ['trustedRootAdded', { subject: 'CN=Root', sha256: 'ab' }],
      ['downloaded', { what: 'auditTrail' }],
    ]);
  });
});
