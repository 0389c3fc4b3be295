import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceBatchView } from '../../../common/ipc/evidence';
import type { AppContextHandle } from '../../../main/app-context';
import { BATCH_PAGE } from '../../../main/evidence/batch';
import { evidenceService } from '../../../main/evidence/service';
import { readZip } from '../../../main/evidence/zip';
import { startTestApp } from '../../helpers/app-context';

/**
 * A batch for a period on the embedded record and the demo service: which interviews it takes (an effective decision
 * in the period, once each, however many pages), pause and resume between two files, cancel, and the index.
 */
let app: AppContextHandle;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'omni-evidence-batch-'));
  process.env.OMNI_REVIEWER_EVIDENCE_DIR = join(dir, 'out');
  app = await startTestApp(dir);
}, 60_000);

afterAll(async () => {
  delete process.env.OMNI_REVIEWER_EVIDENCE_DIR;
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const decide = (interviewId: string, decidedAt: string, status: 'final' | 'proposed' = 'final') =>
  app.context.record.decisions.add(interviewId, {
    decision: 'approve',
    reason: 'ok',
    acknowledgedFindings: [],
    decidedAt,
    environment: app.context.environments.active().id,
    status,
  });

async function until(jobId: string, states: EvidenceBatchView['state'][]): Promise<EvidenceBatchView> {
  const batches = evidenceService(app.context).batches;
  for (;;) {
    const view = batches.status(jobId);
    if (states.includes(view.state)) return view;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a batch of evidence files for a period', () => {
  it('writes one file per interview decided in it, across pages, with an index; pauses and resumes', async () => {
    // More than two pages, several decided in the same millisecond; one decided twice in the period (an earlier
    // version's record kept both), one only proposed, one the day after the period.
    const inside = Array.from({ length: BATCH_PAGE * 2 + 3 }, (_, i) => `p-${String(i).padStart(3, '0')}`);
    for (const [i, id] of inside.entries())
      await decide(id, `2026-10-${String(1 + (i % 3)).padStart(2, '0')}T10:00:00.000Z`);
    await decide('p-000', '2026-10-05T09:00:00.000Z');
    await decide('proposed-only', '2026-10-02T10:00:00.000Z', 'proposed');
    await decide('after', '2026-11-01T00:00:00.000Z');
    expect((await app.context.record.decisions.all('demo', 'p-000')).length).toBe(2);

    const batches = evidenceService(app.context).batches;
    const started = batches.start({ from: '2026-10-01', to: '2026-10-31', language: 'es', purpose: 'Auditoría' });
    await until(started.jobId, ['running']);
    batches.pause(started.jobId);
    const paused = await until(started.jobId, ['paused']);
    expect(paused.total).toBe(inside.length);
    expect(paused.done).toBeLessThan(inside.length);
    await new Promise((r) => setTimeout(r, 300));
    expect(batches.status(started.jobId).done).toBe(paused.done);
    batches.resume(started.jobId);
    const done = await until(started.jobId, ['done', 'failed']);
    expect(done).toMatchObject({ state: 'done', done: inside.length, total: inside.length, failed: 0 });

    const files = readdirSync(done.folder);
    expect(files.filter((f) => f.endsWith('.zip'))).toHaveLength(inside.length);
    const index = readFileSync(join(done.folder, 'index.csv'), 'utf8').trim().split('\n');
    expect(index[0]).toBe('interviewId,decidedAt,file,manifestSha256,outcome,problem');
    const rows = index.slice(1).map((l) => l.split(','));
    expect(rows.map((r) => r[0]).sort()).toEqual(inside);
    expect(rows.find((r) => r[0] === 'p-000')?.[1]).toBe('2026-10-05T09:00:00.000Z');
    expect(rows.every((r) => r[4] === 'written' && /^[0-9a-f]{64}$/.test(r[3]!))).toBe(true);
    // Each file says the batch's purpose and period, in the batch's language.
    const one = readZip(readFileSync(join(done.folder, rows[0]![2]!)));
    const info = JSON.parse(Buffer.from(one.find((p) => p.path === 'export.json')!.data).toString());
    expect(info).toMatchObject({ interviewId: rows[0]![0], purpose: 'Auditoría', language: 'es' });
    const exported = (await app.context.audit.list({ interviewId: rows[0]![0] })).find(
      (e) => e.detail.what === 'evidenceFile',
    );
    expect(exported?.detail).toMatchObject({ periodFrom: '2026-10-01', periodTo: '2026-10-31', purpose: 'Auditoría' });
  }, 240_000);

  it('stops between two files when cancelled, keeping what it wrote; an empty period is done at once', async () => {
    const batches = evidenceService(app.context).batches;
    const started = batches.start({ from: '2026-10-01', to: '2026-10-31', language: 'en', purpose: 'Cancelled' });
    await until(started.jobId, ['running']);
    batches.cancel(started.jobId);
    const cancelled = await until(started.jobId, ['cancelled']);
    expect(cancelled.done).toBeLessThan(cancelled.total);
    const index = readFileSync(join(cancelled.folder, 'index.csv'), 'utf8').trim().split('\n');
    expect(index.length - 1).toBe(cancelled.done);

    const empty = batches.start({ from: '2020-01-01', to: '2020-01-31', language: 'en', purpose: 'Nothing' });
    expect(await until(empty.jobId, ['done'])).toMatchObject({ done: 0, total: 0 });
    expect(() => batches.start({ from: '2026-10-31', to: '2026-10-01', language: 'en', purpose: 'Backwards' })).toThrow(
      /ends before it starts/,
    );
  }, 120_000);
});
