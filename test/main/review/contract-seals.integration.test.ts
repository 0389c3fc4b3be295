import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContextHandle } from '../../../main/app-context';
import { nom151Service } from '../../../main/nom151/service';
import { reviewService } from '../../../main/review/service';
import { openRecord } from '../../../main/record/open';
import { startTestApp } from '../../helpers/app-context';
import { startPostgres } from '../../helpers/postgres';

/**
 * UX review L7: the contracts panel named each contract by its id alone, and an officer could not tell which had its
 * constancia. The contracts view carries each contract's latest seal in this environment, read from the trail.
 */
let app: AppContextHandle;
let dir: string;
const ID = 'demo-clean-pass';
const CONTRACT = 'demo-clean-pass-credito';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'omni-contract-seals-'));
  app = await startTestApp(dir);
  await reviewService(app.context).addDemoSeeds([ID]);
}, 60_000);

afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const documents = async () => (await reviewService(app.context).media.contracts(ID)).data.documents;

describe('the contracts view', () => {
  // On this computer's record every seal is its person's: the view names nobody.
  it('says a contract is not sealed, then carries the folio, time and verdict of its seal', async () => {
    const before = await documents();
    expect(before.map((d) => d.documentId)).toContain(CONTRACT);
    expect(before.every((d) => d.seal === undefined)).toBe(true);

    const sealed = await nom151Service(app.context).sealContract({
      signedContractId: CONTRACT,
      includeSignedDocument: true,
      includeSealedPdf: false,
    });
    expect(sealed.folio).toMatch(/^[0-9A-F]{32}$/);

    const after = await documents();
    const doc = after.find((d) => d.documentId === CONTRACT);
    expect(doc?.seal).toEqual({ folio: sealed.folio, at: expect.any(String), valid: true });
    expect(Number.isNaN(Date.parse(doc!.seal!.at))).toBe(false);
    // The interview's other contracts were not sealed.
    expect(after.filter((d) => d.documentId !== CONTRACT).every((d) => d.seal === undefined)).toBe(true);
  }, 60_000);

  it('takes the latest seal, and only one whose id is exactly the contract’s', async () => {
    const second = await nom151Service(app.context).sealContract({
      signedContractId: CONTRACT,
      includeSignedDocument: true,
      includeSealedPdf: false,
    });
    // Junk written later: an id that only looks alike, an id that is not text, a seal filed on an interview.
    const junk = { kind: 'contract', folio: 'JUNK', valid: true };
    await app.context.audit.append({ action: 'signed', detail: { ...junk, signedContractId: `${CONTRACT} ` } });
    await app.context.audit.append({ action: 'signed', detail: { ...junk, signedContractId: CONTRACT.toUpperCase() } });
    await app.context.audit.append({ action: 'signed', detail: { ...junk, signedContractId: [CONTRACT] } });
    await app.context.audit.append({
      action: 'signed',
      detail: { ...junk, kind: 'string', signedContractId: CONTRACT },
    });
    await app.context.audit.append({
      interviewId: ID,
      action: 'signed',
      detail: { ...junk, signedContractId: CONTRACT },
    });
    const doc = (await documents()).find((d) => d.documentId === CONTRACT);
    expect(doc?.seal?.folio).toBe(second.folio);
  }, 60_000);

  it('says a seal failed verification, and shows no folio that is not text', async () => {
    await app.context.audit.append({
      action: 'signed',
      detail: { kind: 'contract', signedContractId: CONTRACT, folio: { html: '<b>x</b>' }, valid: false },
    });
    const doc = (await documents()).find((d) => d.documentId === CONTRACT);
    expect(doc?.seal).toEqual({ folio: null, at: expect.any(String), valid: false });
  });
});

describe('on a team database', () => {
  it('says whose seal it is: the login the trail chained it under', async () => {
    const server = await startPostgres();
    const teamDir = mkdtempSync(join(tmpdir(), 'omni-contract-seals-team-'));
    let teamApp: AppContextHandle | undefined;
    try {
      const database = 'contract_seals';
      await server.createDatabase(database);
      const team = { kind: 'team' as const, host: server.host, port: server.port, database, tls: 'disable' as const };
      await (await openRecord({ ...team, user: 'postgres' })).close();
      await server.asSuperuser(database, 'create role ana login in role omni_reviewer');
      teamApp = await startTestApp(teamDir, { recordEngine: { ...team, user: 'ana' } });
      await reviewService(teamApp.context).addDemoSeeds([ID]);
      const sealed = await nom151Service(teamApp.context).sealContract({
        signedContractId: CONTRACT,
        includeSignedDocument: true,
        includeSealedPdf: false,
      });
      const doc = (await reviewService(teamApp.context).media.contracts(ID)).data.documents.find(
        (d) => d.documentId === CONTRACT,
      );
      expect(doc?.seal).toEqual({ folio: sealed.folio, at: expect.any(String), valid: true, by: 'ana' });
    } finally {
      await teamApp?.close();
      await server.stop();
      rmSync(teamDir, { recursive: true, force: true });
    }
  }, 90_000);
});
