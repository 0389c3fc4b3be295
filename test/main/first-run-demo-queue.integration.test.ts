import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reviewService } from '../../main/review/service';
import { MemoryVault } from '../../main/auth/memory-vault';
import { startTestApp } from '../helpers/app-context';
import { MemoryJsonStore } from '../helpers/fake-safe-storage';

const root = mkdtempSync(join(tmpdir(), 'omni-first-run-'));
afterAll(() => rm(root, { recursive: true, force: true }));

/** A start as a shell does it (the demo queue seeded), on a data folder and settings that outlive it. */
const startApp = (dataDir: string, store: MemoryJsonStore) =>
  startTestApp(dataDir, { store, vault: new MemoryVault(), seedDemoQueue: true });

const queuedIds = async (app: Awaited<ReturnType<typeof startApp>>) =>
  (await reviewService(app.context).queue.list()).map((e) => e.interviewId).sort();

describe('a first run on the demo environment', () => {
  it('opens onto a queue holding every demo interview; one removed does not come back at the next start', async () => {
    const dataDir = join(root, 'first');
    const store = new MemoryJsonStore();
    let app = await startApp(dataDir, store);
    let removed: string;
    let others: string[];
    try {
      const seeds = await reviewService(app.context).demoSeeds();
      expect(seeds.length).toBeGreaterThan(1);
      expect(seeds.every((s) => s.inQueue)).toBe(true);
      expect(await queuedIds(app)).toEqual(seeds.map((s) => s.interviewId).sort());
      removed = seeds[0]!.interviewId;
      expect(await reviewService(app.context).queue.remove(removed)).toBe(true);
      others = (await queuedIds(app)).filter((id) => id !== removed);
    } finally {
      await app.close();
    }

    app = await startApp(dataDir, store);
    try {
      expect(await queuedIds(app)).toEqual(others);
    } finally {
      await app.close();
    }
  }, 120_000);

  it('another environment active at the first start: its queue starts empty', async () => {
    const store = new MemoryJsonStore();
    store.set('environments', { activeId: 'production' });
    const app = await startApp(join(root, 'production'), store);
    try {
      expect(app.context.environments.active().id).toBe('production');
      expect(await reviewService(app.context).queue.list()).toEqual([]);
    } finally {
      await app.close();
    }
  }, 120_000);
});
