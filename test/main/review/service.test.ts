import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryVault } from '../../../main/auth/memory-vault';
import type { Vault } from '../../../main/auth/vault';
import type { AuditEntry } from '../../../common/views';
import type { AuditTrail, EnvironmentConfig, MainContext } from '../../../main/ports';
import { ReviewService } from '../../../main/review/service';
import { parseDecisionNote } from '../../../main/review/decision';
import type { RawIdvResponse } from '../../../common/omni';
import { openRecord, reviewRecord, type OpenRecord } from '../../../main/record/index';
import { engineFactory } from '../../helpers/record-engines';

// A session token that names no interview (no interviewId claim): attachable to any of the tests' interviews.
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzZXNzaW9uIn0.c2lnbmF0dXJl';

class ChainAudit implements AuditTrail {
  constructor(private readonly environment: string) {}
  entries: AuditEntry[] = [];
  async append(e: Parameters<AuditTrail['append']>[0]) {
    const prevHash = this.entries.at(-1)?.hash ?? '0'.repeat(64);
    const base = {
      seq: this.entries.length + 1,
      at: new Date().toISOString(),
      environment: this.environment,
      ...e,
      prevHash,
    };
    const entry = { ...base, hash: createHash('sha256').update(JSON.stringify(base)).digest('hex') };
    this.entries.push(entry);
    return entry;
  }
  async list(filter?: { interviewId?: string }) {
    return this.entries.filter((e) => !filter?.interviewId || e.interviewId === filter.interviewId);
  }
  async interviewBytes(interviewId: string) {
    return JSON.stringify((await this.list({ interviewId })).map((e) => e.detail)).length;
  }
  async chain(filter: { interviewId?: string }) {
    return (await this.list(filter)).map((e) => ({ seq: e.seq, hash: e.hash, hashVersion: 0 }));
  }
  async latest(action?: string) {
    return this.entries.findLast((e) => action === undefined || e.action === action);
  }
  async furthestCheckpoint() {
    return undefined;
  }
  async lastRecorded(action: string, environment: string) {
    return (interviewId: string) =>
      this.entries.findLast(
        (e) => e.action === action && e.environment === environment && e.interviewId === interviewId,
      )?.at;
  }
  async latestContractSeals(environment: string, contractIds: readonly string[]) {
    const seals = new Map<string, AuditEntry>();
    for (const e of this.entries)
      if (e.action === 'signed' && e.environment === environment && !e.interviewId) {
        const id = e.detail['signedContractId'];
        if (typeof id === 'string' && contractIds.includes(id)) seals.set(id, e);
      }
    return seals;
  }
  async verify() {
    return { ok: true as const };
  }
}

const baseEnv: EnvironmentConfig = {
  id: 'demo',
  kind: 'demo',
  name: 'Demo',
  baseUrl: 'http://127.0.0.1:1',
  authUrl: 'http://127.0.0.1:1',
  apiVersion: '1.0',
  tokenHeader: 'X',
};

function httpError(status: number) {
  const data = { code: 'OMNI_HTTP', httpStatus: status, message: { en: `HTTP ${status}`, es: `HTTP ${status}` } };
  return Object.assign(new Error('x'), { toIpcError: () => data });
}

const engines = engineFactory('embedded');
let opened: OpenRecord;
beforeAll(async () => {
  opened = await openRecord(await engines.fresh());
}, 60_000);
afterAll(async () => {
  await opened.close();
  await engines.dispose();
});
let environments = 0;

/** A service over one record for the file, in an environment of its own per test. */
function setup(
  opts: { raw?: RawIdvResponse; failNotesTimes?: number; status?: 'Alive' | 'Closed'; links?: object } = {},
) {
  const env: EnvironmentConfig = { ...baseEnv, id: `demo-${++environments}` };
  const record = reviewRecord(opened);
  const vault: Vault = new MemoryVault();
  const audit = new ChainAudit(env.id);
  const sent: { endpoint: string; body: unknown; interviewId?: string }[] = [];
  let failures = opts.failNotesTimes ?? 0;
  const status = opts.status ?? 'Alive';
  const omni = {
    async call(name: string, input: { body?: unknown }, o?: { interviewId?: string }) {
      switch (name) {
        case 'getRawIdvResults':
          return opts.raw ?? { checkResults: [], fraudRisk: null };
        case 'getContractLinks':
          return (
            opts.links ?? {
              success: true,
              sessionStatus: status,
              additionalInformation: { 'doc-1': 'http://remote/doc-1.pdf' },
            }
          );
        case 'getVideoSelfieUrl':
          if (o?.interviewId === 'no-video')
            throw Object.assign(new Error('x'), {
              toIpcError: () => ({
                code: 'OMNI_HTTP',
                httpStatus: 400,
                message: { en: 'rejected', es: 'rechazada' },
                details: { serviceMessage: 'Interview no-video has no video selfie recording.' },
              }),
            });
          if (o?.interviewId === 'broken-video') throw httpError(500);
          return { url: 'http://remote/v.mp4?expires=1767229200' };
        case 'addConferenceNotes':
        case 'addName':
          if (failures > 0) {
            failures--;
            throw httpError(500);
          }
          if (status === 'Closed') throw httpError(400);
          sent.push({ endpoint: name, body: input.body, interviewId: o?.interviewId });
          return { success: true, sessionStatus: status };
      }
      throw new Error(`unexpected ${name}`);
    },
  };
  const registered: { remote: string; refresh?: () => Promise<string>; serviceOrigin?: string }[] = [];
  const ctx = {
    omni: () => omni,
    vault,
    record,
    audit,
    environments: { active: () => env, list: () => [env] },
    media: {
      register(remote: string, o: { refresh?: () => Promise<string>; serviceOrigin?: string }) {
        registered.push({ remote, ...o });
        return `http://app/media/${registered.length}`;
      },
    },
    files: {
      save: async ({ suggestedName, data }: { suggestedName: string; data: Uint8Array }) => ({
        downloadUrl: `http://app/dl/${suggestedName}?${data.byteLength}`,
      }),
    },
  } as unknown as MainContext;
  return { ctx, env, record, vault, audit, sent, registered, service: new ReviewService(ctx) };
}

describe('ReviewService queue', () => {
  it('keeps the queue in the record, tokens in the vault only, and survives a new service over the same record', async () => {
    const { ctx, env, vault, service } = setup();
    const result = await service.importText(`interviewId,sessionToken\nint-1,${JWT}\nint-2,`, 'csv');
    expect(result).toMatchObject({ added: ['int-1', 'int-2'], tokensAttached: 1 });
    const rows = await opened.db.selectFrom('queue_entries').selectAll().where('environment', '=', env.id).execute();
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain(JWT);
    expect(await vault.getSessionToken(env.id, 'int-1')).toBe(JWT);

    const again = new ReviewService(ctx);
    const list = await again.queue.list();
    expect(list.map((e) => [e.interviewId, e.hasSessionToken, e.localState])).toEqual([
      ['int-1', true, 'toReview'],
      ['int-2', false, 'toReview'],
    ]);
    expect(JSON.stringify(list)).not.toContain(JWT);
  });

  it('opening moves to in review, stamps last opened and appends an audit entry', async () => {
    const { service, audit } = setup();
    const { overview, audit: trail } = await service.open('fresh-id');
    expect(overview.entry).toMatchObject({ interviewId: 'fresh-id', localState: 'inReview' });
    expect(overview.entry.lastOpenedAt).toBeTruthy();
    expect(audit.entries.map((e) => e.action)).toEqual(['opened']);
    // The answer already holds this opening, so the workspace shows it without asking again.
    expect(trail.entries.map((e) => e.action)).toEqual(['opened']);
    expect(trail.chain.ok).toBe(true);
  });

  it('adds from a deep link with its token', async () => {
    const { env, service, vault } = setup();
    expect(await service.openDeepLink(`omni-reviewer://interview/deep-1?token=${JWT}`)).toEqual({
      interviewId: 'deep-1',
    });
    expect(await vault.hasSessionToken(env.id, 'deep-1')).toBe(true);
  });

  it('records the session status carried by contract links and registers media with a refresh', async () => {
    const { service, registered } = setup();
    await service.open('int-9');
    const contracts = await service.contracts('int-9');
    expect(contracts.data.documents).toEqual([{ documentId: 'doc-1', url: 'http://app/media/1' }]);
    expect((await service.queue.require('int-9')).sessionStatus).toBe('Alive');
    expect(await registered[0]?.refresh?.()).toBe('http://remote/doc-1.pdf');
    await service.contracts('int-9');
    // Registered at each read, from the environment's service: the registry keeps one entry per link (registry.ts).
    expect(registered.map((r) => [r.remote, r.serviceOrigin])).toEqual([
      ['http://remote/doc-1.pdf', 'http://127.0.0.1:1'],
      ['http://remote/doc-1.pdf', 'http://127.0.0.1:1'],
    ]);
    const video = await service.video('int-9');
    expect(video.data).toMatchObject({ expiresAt: '2026-01-01T01:00:00.000Z' });
  });
});

describe('ReviewService risk', () => {
  it('files the interview under the risk its checks were read with, for the queue to filter by', async () => {
    const high: RawIdvResponse = {
      checkResults: [{ name: 'faceTamper', severity: 'low', version: '1', result: 0.1 }],
      fraudRisk: {
        name: 'checkFraudRisk',
        severity: 'HIGH',
        version: '2',
        result: 0.93,
        responseText: '',
        responseCategory: '',
        topNFraudFeatures: [],
        topNLegitFeatures: [],
        topNFraudCodes: [],
        topNLegitCodes: [],
      },
    };
    const { service } = setup({ raw: high });
    await service.open('risky');
    expect((await service.queue.require('risky')).risk).toBeUndefined();
    await service.rawIdv('risky');
    expect((await service.queue.require('risky')).risk).toBe('high');

    const quiet = setup({ raw: { checkResults: high.checkResults, fraudRisk: null } });
    await quiet.service.open('quiet');
    await quiet.service.rawIdv('quiet');
    expect((await quiet.service.queue.require('quiet')).risk).toBe('low');
    // No check ran: nothing to call it low by.
    const none = setup();
    await none.service.open('none');
    await none.service.rawIdv('none');
    expect((await none.service.queue.require('none')).risk).toBe('unassessed');
  });
});

describe('ReviewService reads of an answer that echoes what was sent (red team 17)', () => {
  it('sends the renderer the checks with any held secret the service echoed redacted', async () => {
    const key = 'ak-live-7f3a9c1d5e2b4a60';
    const raw = {
      checkResults: [
        { name: 'faceTamperCheck', severity: 'low', version: '3', result: 0.1 },
        { name: `echo ${key}`, severity: 'high', version: '3', result: 0.9 },
      ],
      fraudRisk: null,
      debug: { request: { 'x-api-key': key, note: `sent with ${key}` } },
    } as unknown as RawIdvResponse;
    const { service, vault, env } = setup({ raw });
    await vault.setCredential(env.id, 'apiKey', key);
    await service.open('echo');
    const read = await service.rawIdv('echo');
    expect(JSON.stringify(read)).not.toContain(key);
    expect(read.data.result.checkResults).toHaveLength(2);
    // Nor the reading filed on the record, nor anything else made of the answer (reports, evidence files).
    const readings = await opened.db
      .selectFrom('risk_readings')
      .selectAll()
      .where('environment', '=', env.id)
      .execute();
    expect(readings).toHaveLength(1);
    expect(JSON.stringify(readings)).not.toContain(key);
  });
});

describe('ReviewService contracts the app cannot open (red team 18)', () => {
  it('lists them as such, by id, the readable ones as ever, and no id that echoes a held secret', async () => {
    const key = 'ak-live-contract-5e2b4a60';
    const links = {
      success: true,
      sessionStatus: 'Alive',
      additionalInformation: { 'doc-1': 'http://remote/doc-1.pdf', [`doc-${key}`]: 'http://remote/doc-2.pdf' },
      // As the tolerant reader leaves a link the contract cannot read: under its dictionary's name.
      unreadFields: { additionalInformation: { 'doc-3': 'ftp://remote/doc-3.pdf' } },
    };
    const { service, vault, env } = setup({ links });
    await vault.setCredential(env.id, 'apiKey', key);
    await service.queue.add([{ interviewId: 'c-1' }]);
    const read = await service.contracts('c-1');
    expect(read.data.documents.map((d) => d.documentId)).toEqual(['doc-1']);
    expect(read.data.unreadable).toEqual(['doc-[redacted]', 'doc-3']);
    expect(JSON.stringify(read)).not.toContain(key);
  });
});

describe('ReviewService queue removal', () => {
  it('takes only the entry off the list, and an undo brings it back as it was', async () => {
    const { env, service, vault } = setup();
    await service.importText(`interviewId,sessionToken\nint-1,${JWT}`, 'csv');
    await service.open('int-1');
    const before = await service.queue.require('int-1');
    expect(await service.queue.remove('int-1')).toBe(true);
    expect(await service.queue.get('int-1')).toBeUndefined();
    expect(await vault.getSessionToken(env.id, 'int-1')).toBe(JWT);

    expect(await service.queue.restore('int-1')).toEqual(before);
    expect((await service.queue.list()).map((e) => e.interviewId)).toEqual(['int-1']);
    // Once: a second undo has nothing to put back.
    await expect(service.queue.restore('int-1')).rejects.toMatchObject({ data: { code: 'NOTHING_TO_RESTORE' } });
  });

  it('refuses to restore what was never removed, and keeps an entry added again meanwhile', async () => {
    const { service } = setup();
    await expect(service.queue.restore('never')).rejects.toMatchObject({
      data: { code: 'NOTHING_TO_RESTORE', message: { es: expect.stringContaining('never') } },
    });
    await service.queue.add([{ interviewId: 'int-2' }]);
    await service.setState('int-2', 'decided');
    await service.queue.remove('int-2');
    await service.queue.add([{ interviewId: 'int-2' }]);
    expect((await service.queue.restore('int-2')).localState).toBe('toReview');
  });
});

describe('ReviewService demo offer', () => {
  it("lists the demo interviews with the vault's API key from main, so only the caller's organization is offered, with both labels", async () => {
    const seen: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      const key = req.headers['x-api-key'];
      seen.push(typeof key === 'string' ? key : undefined);
      const all = [
        {
          interviewId: 'demo-clean-pass',
          sessionToken: JWT,
          sessionStatus: 'Alive',
          label: 'Clean pass',
          labelEs: 'Aprobación limpia',
          organizationId: 'org-a',
        },
        { interviewId: 'demo-no-es', sessionStatus: 'Closed', label: 'Only English', organizationId: 'org-a' },
        {
          interviewId: 'demo-orgb-onboarding',
          sessionStatus: 'Alive',
          label: 'Other organization',
          organizationId: 'org-b',
        },
      ];
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(key === 'key-org-a' ? all.filter((i) => i.organizationId === 'org-a') : all));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { ctx, env, service, vault } = setup();
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      Object.assign(ctx.environments, { active: () => ({ ...env, baseUrl, authUrl: baseUrl }) });
      await vault.setCredential(env.id, 'apiKey', 'key-org-a');

      const seeds = await service.demoSeeds();
      expect(seen).toEqual(['key-org-a']);
      expect(seeds).toEqual([
        {
          interviewId: 'demo-clean-pass',
          sessionStatus: 'Alive',
          label: 'Clean pass',
          labelEs: 'Aprobación limpia',
          inQueue: false,
        },
        { interviewId: 'demo-no-es', sessionStatus: 'Closed', label: 'Only English', inQueue: false },
      ]);
      // The session token goes to the vault, never into the offer the renderer gets.
      expect(JSON.stringify(seeds)).not.toContain(JWT);

      await service.addDemoSeeds();
      const queued = await service.queue.list();
      expect(queued.map((e) => [e.interviewId, e.label, e.labelEs])).toEqual([
        ['demo-clean-pass', 'Clean pass', 'Aprobación limpia'],
        ['demo-no-es', 'Only English', undefined],
      ]);
      expect(await vault.getSessionToken(env.id, 'demo-clean-pass')).toBe(JWT);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('ReviewService local state', () => {
  it('changes the local state by hand (reopen a decided interview) and records each change in the audit trail', async () => {
    const { service, audit } = setup();
    await service.queue.add([{ interviewId: 's-1' }]);
    await service.queue.setState('s-1', 'decided');
    expect((await service.setState('s-1', 'inReview')).localState).toBe('inReview');
    expect((await service.setState('s-1', 'toReview')).localState).toBe('toReview');
    // Choosing the state it already has changes nothing and records nothing.
    await service.setState('s-1', 'toReview');
    expect(audit.entries.map((e) => [e.action, e.detail])).toEqual([
      ['stateChanged', { from: 'decided', to: 'inReview' }],
      ['stateChanged', { from: 'inReview', to: 'toReview' }],
    ]);
    await expect(service.setState('missing', 'inReview')).rejects.toMatchObject({ data: { code: 'NOT_IN_QUEUE' } });
  });
});

describe('ReviewService video', () => {
  it('turns the service refusing a recording (400) into the empty state, keeps other failures as errors', async () => {
    const { service } = setup();
    expect((await service.video('no-video')).data).toEqual({
      unavailable: 'Interview no-video has no video selfie recording.',
    });
    await expect(service.video('broken-video')).rejects.toThrow();
  });
});

describe('ReviewService drafts and writes', () => {
  it('keeps a note draft through a failed send, with the reason, and clears it only after the service confirms', async () => {
    const { service, sent, audit, env } = setup({ failNotesTimes: 1 });
    await service.queue.add([{ interviewId: 'n-1', sessionToken: JWT }]);
    await service.saveDraft('n-1', 'notes', 'Documento legible');
    await expect(service.sendText('n-1', 'notes')).rejects.toThrow();
    const kept = (await service.drafts.get('n-1')).notes;
    expect(kept?.text).toBe('Documento legible');
    expect(kept?.lastError?.code).toBe('OMNI_HTTP');

    await service.sendText('n-1', 'notes');
    expect(sent).toEqual([
      { endpoint: 'addConferenceNotes', body: { notes: 'Documento legible' }, interviewId: 'n-1' },
    ]);
    expect((await service.drafts.get('n-1')).notes).toBeUndefined();
    // The note taken is on the record's trail, written by the database as the write was settled (migration 0016),
    // naming the sender as the app knows them; the failed attempt left none.
    const noted = await opened.db
      .selectFrom('audit_entries')
      .select(['action', 'detail'])
      .where('environment', '=', env.id)
      .where('interview_id', '=', 'n-1')
      .execute();
    expect(noted.map((e) => [e.action, (e.detail as { text?: string }).text])).toEqual([
      ['noted', 'Documento legible'],
    ]);
    expect(audit.entries).toEqual([]);
  });

  it('refuses session writes without a token, and on a closed session, keeping the draft', async () => {
    const { service, sent } = setup({ status: 'Closed' });
    await service.queue.add([{ interviewId: 'c-1' }]);
    await service.saveDraft('c-1', 'name', 'Ana');
    await expect(service.sendText('c-1', 'name')).rejects.toMatchObject({ data: { code: 'NO_SESSION_TOKEN' } });
    await service.queue.attachToken('c-1', JWT);
    await expect(service.sendText('c-1', 'name')).rejects.toThrow();
    // The 400 made the service look the status up, so the next attempt is refused before calling.
    expect((await service.queue.require('c-1')).sessionStatus).toBe('Closed');
    await expect(service.sendText('c-1', 'name')).rejects.toMatchObject({ data: { code: 'SESSION_NOT_WRITABLE' } });
    expect((await service.drafts.get('c-1')).name?.text).toBe('Ana');
    expect(sent).toEqual([]);
  });

  it('requires acknowledgement to approve with open high findings, then records a structured note and the decision', async () => {
    const raw: RawIdvResponse = {
      checkResults: [{ name: 'faceTamperCheck', severity: 'high', version: '3', result: 0.97 }],
      fraudRisk: null,
    };
    const { service, sent } = setup({ raw });
    await service.queue.add([{ interviewId: 'd-1', sessionToken: JWT }]);
    await expect(service.decide('d-1', 'approve', 'Looks fine', false)).rejects.toMatchObject({
      data: { code: 'ACKNOWLEDGEMENT_REQUIRED' },
    });
    expect(sent).toEqual([]);

    const result = await service.decide('d-1', 'approve', 'Looks fine', true);
    // The embedded engine's one user has nobody to confirm with: four eyes cannot apply, the approval is final.
    expect(result.status).toBe('final');
    expect(result.record.acknowledgedFindings).toEqual(['faceTamperCheck (high, 0.97)']);
    const note = (sent[0]?.body as { notes: string }).notes;
    expect(parseDecisionNote(note)).toMatchObject({ decision: 'approve', reason: 'Looks fine', interviewId: 'd-1' });
    expect((await service.queue.require('d-1')).localState).toBe('decided');
    expect((await service.overview('d-1')).lastDecision?.decision).toBe('approve');
    // The decision's entry is the database's, written with it (migration 0013), naming whoever decided.
    const {
      rows: [entry],
    } = await sql<{ action: string; detail: Record<string, unknown> }>`
      select action, detail from audit_entries where interview_id = 'd-1' and action = 'decided'
      order by seq desc limit 1`.execute(opened.db);
    expect(entry).toMatchObject({ action: 'decided', detail: { decision: 'approve', reason: 'Looks fine' } });
  });

  it('exports the audit trail as JSON and a PDF report', async () => {
    const { service } = setup();
    await service.open('e-1');
    const json = await service.exportAudit('e-1', 'json', 'es');
    expect(json?.downloadUrl).toMatch(/audit-e-1-.*\.json/);
    const pdf = await service.exportAudit('e-1', 'pdf', 'es');
    expect(pdf?.downloadUrl).toMatch(/review-e-1-.*\.pdf/);
  });
});
