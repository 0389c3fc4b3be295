import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContextHandle } from '../../../main/app-context';
import { evidenceService } from '../../../main/evidence/service';
import { openRecord } from '../../../main/record/open';
import { reviewService } from '../../../main/review/service';
import { startTestApp } from '../../helpers/app-context';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';

/**
 * Genuine evidence files of a team's record verify as valid in the app that exported them, the checks beyond
 * VERIFY.txt included (the trail's record of the export under the exporter's login, the decision history against the
 * decision entries the database wrote): a final decision with a reason code, and a proposal a second member confirmed.
 */
let server: TestPostgres;
const apps: AppContextHandle[] = [];
const dirs: string[] = [];
const database = 'team_files';

beforeAll(async () => {
  server = await startPostgres();
  await server.createDatabase(database);
  const team = { kind: 'team' as const, host: server.host, port: server.port, database, tls: 'disable' as const };
  await (await openRecord({ ...team, user: 'postgres' })).close();
  await server.asSuperuser(
    database,
    'create role ana login in role omni_reviewer; create role beto login in role omni_reviewer',
  );
}, 60_000);

afterAll(async () => {
  for (const app of apps) await app.close();
  await server?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function analyst(user: string) {
  const dir = mkdtempSync(join(tmpdir(), `omni-team-files-${user}-`));
  dirs.push(dir);
  let saved: Uint8Array | undefined;
  const app = await startTestApp(dir, {
    recordEngine: { kind: 'team', host: server.host, port: server.port, user, database, tls: 'disable' },
    files: {
      save: async ({ suggestedName, data }) => {
        saved = data;
        return { savedTo: join(dir, suggestedName) };
      },
    },
  });
  apps.push(app);
  const evidence = evidenceService(app.context);
  const review = reviewService(app.context);
  const exportAndVerify = async (interviewId: string) => {
    await evidence.exportFile({ interviewId, language: 'en', purpose: 'Audit' });
    return evidence.verifyFile({ name: 'f.zip', base64: Buffer.from(saved!).toString('base64') });
  };
  return { app, review, exportAndVerify };
}

describe('a team’s genuine evidence files', () => {
  it('verify as valid: a final decision with a reason code, then a proposal confirmed by a second member', async () => {
    const ana = await analyst('ana');
    const code = (await ana.app.context.record.teamSettings.reasonCodes()).find((c) => c.decision === 'reject')!.code;
    await ana.review.addDemoSeeds(['demo-clean-pass', 'demo-fraud-high']);
    await ana.review.open('demo-clean-pass');
    await ana.review.saveDraft('demo-clean-pass', 'notes', 'Nota de ana');
    await ana.review.sendText('demo-clean-pass', 'notes');
    expect((await ana.review.decide('demo-clean-pass', 'reject', 'No coincide', false, code)).status).toBe('final');
    const first = await ana.exportAndVerify('demo-clean-pass');
    expect(first.checks.filter((c) => c.outcome !== 'ok')).toEqual([]);
    expect(first.checks.filter((c) => c.step === 'agreement' || c.step === 'trail').length).toBeGreaterThanOrEqual(3);

    await ana.review.open('demo-fraud-high');
    expect((await ana.review.decide('demo-fraud-high', 'approve', 'Cliente conocido', true)).status).toBe('proposed');
    const beto = await analyst('beto');
    await beto.review.addDemoSeeds(['demo-fraud-high']);
    await beto.review.open('demo-fraud-high');
    expect((await beto.review.reviewDecision('demo-fraud-high', 'confirmed', 'Confirmo')).status).toBe('confirmed');
    const second = await beto.exportAndVerify('demo-fraud-high');
    expect(second.checks.filter((c) => c.outcome !== 'ok')).toEqual([]);
    expect(second.exportedBy).toBe('beto');
  });
});
