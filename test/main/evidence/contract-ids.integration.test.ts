import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContextHandle } from '../../../main/app-context';
import type { MainContext } from '../../../main/ports';
import { contractPaths, safe, tokenDer } from '../../../main/evidence/file';
import { evidenceService } from '../../../main/evidence/service';
import { verifyEvidenceFile } from '../../../main/evidence/verify';
import { readZip, writeZip } from '../../../main/evidence/zip';
import { nom151Service } from '../../../main/nom151/service';
import { reviewService } from '../../../main/review/service';
import { startTestApp } from '../../helpers/app-context';

/**
 * Red team 12, finding 1: the service names an interview's contracts with ids that `safe()` folds alike (`c:1` and
 * `c_1`) or that share their first 80 characters. Each contract keeps parts of its own in the file: the archive reads,
 * `sha256sum -c` and VERIFY.txt's contract steps pass, and the app's verifier calls the file valid.
 */
let app: AppContextHandle;
let dir: string;
let saved: Uint8Array | undefined;
const ID = 'demo-contracts-many';
const LONG = 'L'.repeat(80);
const ODD_IDS = ['c:1', 'c_1', `${LONG}-first`, `${LONG}-second`];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'omni-evidence-contracts-'));
  app = await startTestApp(join(dir, 'data'), {
    files: {
      save: async ({ suggestedName, data }) => {
        saved = data;
        return { savedTo: join(dir, suggestedName) };
      },
    },
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The demo service's contracts, renamed on their way in as a service naming them so would send them. */
async function renameContracts(ctx: MainContext): Promise<void> {
  const real = Object.keys(
    (await ctx.omni().call('getContractLinks', { query: { id: ID }, body: undefined }, { interviewId: ID }))
      .additionalInformation ?? {},
  );
  expect(real.length).toBe(ODD_IDS.length);
  const renamed = new Map(real.map((id, i) => [id, ODD_IDS[i]!]));
  const back = new Map([...renamed].map(([a, b]) => [b, a]));
  const omni = ctx.omni.bind(ctx);
  (ctx as { omni: MainContext['omni'] }).omni = () => {
    const client = omni();
    return new Proxy(client, {
      get(target, prop) {
        if (prop !== 'call') return Reflect.get(target, prop);
        return async (name: string, input: { body?: { signedContractId?: string } }, options: unknown) => {
          const asked = input.body?.signedContractId;
          if (name === 'calculateContractNom151' && asked !== undefined && back.has(asked))
            input = { ...input, body: { ...input.body, signedContractId: back.get(asked) } };
          const answer = await (target.call as (...args: unknown[]) => Promise<Record<string, unknown>>)(
            name,
            input,
            options,
          );
          if (name === 'getContractLinks' && answer.additionalInformation)
            answer.additionalInformation = Object.fromEntries(
              Object.entries(answer.additionalInformation).map(([k, v]) => [renamed.get(k) ?? k, v]),
            );
          return answer;
        };
      },
    });
  };
}

describe('contracts whose ids fold alike', () => {
  it('still verifies a file of version 1, its contracts named by id alone', async () => {
    const ctx = app.context;
    await reviewService(ctx).addDemoSeeds([ID]);
    await evidenceService(ctx).exportFile({ interviewId: ID, language: 'en', purpose: 'Version 1' });
    const parts = readZip(saved!).map((p) => ({ path: p.path, data: new Uint8Array(p.data) }));
    const info = JSON.parse(Buffer.from(parts.find((p) => p.path === 'export.json')!.data).toString('utf8'));
    expect(info.version).toBe(2);
    // As the app wrote it before: version 1, `contracts/<id>.pdf`, the manifest over those names stamped.
    const legacy = new Map<string, string>();
    (info.contracts as string[]).forEach((id, i, all) => {
      const now = contractPaths(i, all.length, id);
      legacy.set(now.pdf, `contracts/${safe(id)}.pdf`).set(now.token, `contracts/${safe(id)}.tst`);
    });
    expect(legacy.size).toBe(8);
    for (const p of parts) p.path = legacy.get(p.path) ?? p.path;
    parts.find((p) => p.path === 'export.json')!.data = Buffer.from(JSON.stringify({ ...info, version: 1 }));
    const nom151 = nom151Service(ctx);
    const listed = parts.filter((p) => !p.path.startsWith('MANIFEST.'));
    const manifest = listed.map((p) => `${createHash('sha256').update(p.data).digest('hex')}  ${p.path}\n`).join('');
    parts.find((p) => p.path === 'MANIFEST.sha256')!.data = Buffer.from(manifest);
    parts.find((p) => p.path === 'MANIFEST.tst')!.data = new Uint8Array(tokenDer((await nom151.stamp(manifest)).token));
    const verdict = await verifyEvidenceFile(writeZip(parts), (token, data) => nom151.verifyBytes(token, data));
    expect(verdict).toMatchObject({ valid: true, failedParts: [] });
    expect(verdict.checks.filter((c) => c.step === 'contractToken').map((c) => c.part)).toEqual(
      (info.contracts as string[]).map((id) => `contracts/${safe(id)}.tst`),
    );
  }, 120_000);

  it('each keeps its own parts: the file reads, its commands pass, and the app calls it valid', async () => {
    const ctx = app.context;
    await renameContracts(ctx);
    const service = evidenceService(ctx);
    await service.exportFile({ interviewId: ID, language: 'en', purpose: 'Contract ids' });

    const parts = readZip(saved!);
    const contractParts = parts.map((p) => p.path).filter((p) => p.startsWith('contracts/'));
    expect(contractParts).toHaveLength(ODD_IDS.length * 2);
    expect(new Set(contractParts).size).toBe(contractParts.length);
    const info = JSON.parse(Buffer.from(parts.find((p) => p.path === 'export.json')!.data).toString('utf8'));
    expect(info.contracts).toEqual(ODD_IDS);

    // As the auditor does it: extracted, the manifest checked, and each contract's own step 5.
    const zip = join(dir, 'file.zip');
    writeFileSync(zip, saved!);
    const folder = join(dir, 'opened');
    execFileSync('python3', ['-m', 'zipfile', '-e', zip, folder]);
    expect(spawnSync('sha256sum', ['-c', 'MANIFEST.sha256'], { cwd: folder }).status).toBe(0);
    const steps = readFileSync(join(folder, 'VERIFY.txt'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('    $ ') && l.includes('-data contracts/'))
      .map((l) => l.slice(6));
    expect(steps).toHaveLength(ODD_IDS.length);
    for (const step of steps)
      expect(spawnSync('/bin/sh', ['-c', step], { cwd: folder, stdio: 'ignore' }).status, step).toBe(0);

    const verdict = await service.verifyFile({ name: 'file.zip', base64: Buffer.from(saved!).toString('base64') });
    expect(verdict).toMatchObject({ valid: true, failedParts: [], counts: { contracts: ODD_IDS.length } });
  }, 120_000);
});
