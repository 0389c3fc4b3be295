import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContextHandle } from '../../../main/app-context';
import { queueBulk } from '../../../main/review/bulk';
import { reviewService } from '../../../main/review/service';
import { startTestApp } from '../../helpers/app-context';

/**
 * UX review M4: the queue's risk column, filter and order knew an interview's risk only once it had been opened, so
 * on a fresh queue "highest risk first" sorted nothing. Selected rows can have their checks read without opening
 * them: each reading is filed (who read what, when) and the queue shows it.
 */
let app: AppContextHandle;
let dir: string;
const SEEDS = ['demo-fraud-high', 'demo-clean-pass', 'demo-empty-idv'];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'omni-read-risk-'));
  app = await startTestApp(dir);
  await reviewService(app.context).addDemoSeeds(SEEDS);
}, 60_000);

afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const risks = async () =>
  Object.fromEntries((await reviewService(app.context).queue.list()).map((e) => [e.interviewId, e.risk]));

describe('reading the risk of queue rows without opening them', () => {
  it('files a reading for each row and the queue shows it; a row not in the queue is refused, the others go on', async () => {
    expect(Object.values(await risks()).every((risk) => risk === undefined)).toBe(true);

    const result = await queueBulk(app.context).readRisk([...SEEDS, 'not-in-the-queue']);

    expect(result.done).toEqual(SEEDS);
    expect(result.refused).toEqual([
      expect.objectContaining({
        interviewId: 'not-in-the-queue',
        message: expect.objectContaining({ es: expect.any(String) }),
      }),
    ]);
    const after = await risks();
    expect(after['demo-fraud-high']).toBe('high');
    expect(after['demo-clean-pass']).toBe('low');
    // Read, with no check run: on file as read and not assessed, neither "low" nor never read.
    expect(after['demo-empty-idv']).toBe('unassessed');
    // Nobody opened them: nothing on their trails says so.
    for (const id of SEEDS)
      expect((await app.context.audit.list({ interviewId: id })).filter((e) => e.action === 'opened')).toEqual([]);
    // The readings are the record's, as an opening's are: four eyes judges on them.
    const readings = await app.context.record.readings.all(app.context.environments.active().id, 'demo-fraud-high');
    expect(readings).toHaveLength(1);
  }, 60_000);

  it('a rate limit ends the run at once: no row after it is sent to meet it too (red team 23)', async () => {
    const rows = ['demo-contracts-many', 'demo-no-fraud-risk', 'demo-attempts-exhausted'];
    await reviewService(app.context).addDemoSeeds(rows);
    // Once, and longer than the client waits: the limit reaches the bulk action on the first row.
    await fetch(`${app.demoUrl()!}/__demo/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ route: 'getRawIdvResults', kind: 'status', status: 429, retryAfterS: 600, times: 1 }),
    });
    // A row refused on its own first (not in the queue, the service not asked): it counts as handled.
    const stopped = await queueBulk(app.context).readRisk(['not-in-the-queue', ...rows]);
    expect(stopped).toMatchObject({
      done: [],
      refused: [{ interviewId: 'not-in-the-queue', code: 'NOT_IN_QUEUE' }],
      stoppedBy: { httpStatus: 429, details: { retryAfterMs: 600_000 } },
    });
    // The rows after it were not sent: each would have been read (the limit was for one request).
    const after = await risks();
    expect(rows.map((id) => after[id])).toEqual([undefined, undefined, undefined]);
  }, 60_000);

  it('a service that refuses one row says why on that row', async () => {
    await fetch(`${app.demoUrl()!}/__demo/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ route: 'getRawIdvResults', kind: 'status', status: 404, times: 1 }),
    });
    const result = await queueBulk(app.context).readRisk(['demo-clean-pass', 'demo-fraud-high']);
    expect(result.refused.map((r) => r.interviewId)).toEqual(['demo-clean-pass']);
    expect(result.done).toEqual(['demo-fraud-high']);
  }, 60_000);
});
