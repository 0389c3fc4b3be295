import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ClaimRecords } from '../main/record/claim-records';
import { openRecord } from '../main/record/open';
import { startWebShell } from '../main/web-shell/index';
import { startPostgres } from '../test/helpers/postgres';
import { buildRenderer, callIpc, launchChromium, shellIpc } from './support';
import type { Targets } from './targets';

/**
 * Another analyst's claim on screen: one analyst's queue open in the web shell (Debian's Chromium) on a team database
 * (a real PostgreSQL server), another analyst claiming interviews with their own login. Each sample is the time from
 * the claim's commit to its holder's name in that row of the first analyst's queue: the database's notice, main's
 * long poll, the holders' read and the render.
 *
 * - `live-update-p95-ms`: the 95th percentile of SAMPLES claims (target ≤ 500).
 */
export const targets: Targets = { 'live-update-p95-ms': { atMost: 500 } };

const SAMPLES = 40;
/** Rows that show without scrolling (the table draws only what is in view). */
const VISIBLE = 6;

/** Runs in the page (a string: the TypeScript runner's helpers must not be serialized into it). */
const WATCH_SCRIPT = (interviewId: string, held: boolean) => `new Promise((resolve) => {
  const holds = () => [...document.querySelectorAll('[data-testid="queue-row"]')].some(
    (row) => row.textContent.includes(${JSON.stringify(interviewId)}) && row.textContent.includes('ana ·'));
  const check = () => (holds() === ${held} ? resolve(performance.now()) : requestAnimationFrame(check));
  check();
})`;

export default async function liveUpdateBench(): Promise<Record<string, number>> {
  const work = await mkdtemp(join(tmpdir(), 'omni-live-bench-'));
  const server = await startPostgres();
  const database = await server.createDatabase('live_update');
  const team = { host: server.host, port: server.port, database, tls: 'disable' as const };
  const owner = await openRecord({ kind: 'team', ...team, user: 'postgres' });
  await owner.close();
  const admin = new pg.Client({ host: server.host, port: server.port, user: 'postgres', database });
  await admin.connect();
  await admin.query('create role ana login in role omni_reviewer; create role beto login in role omni_reviewer;');
  await admin.end();

  const staticDir = join(work, 'web');
  buildRenderer(staticDir);
  const dataDir = join(work, 'beto');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFile(
    join(dataDir, 'omni-reviewer.json'),
    JSON.stringify({ 'record.engine': 'team', 'record.teamDatabase': { ...team, user: 'beto' } }),
  );
  const beto = await startWebShell({ dataDir, staticDir });
  const ana = await openRecord({ kind: 'team', ...team, user: 'ana' });
  const browser = await launchChromium();
  try {
    await callIpc(shellIpc(beto), 'queue.addDemoSeeds', {});
    const seeds = await callIpc<{ interviewId: string }[]>(shellIpc(beto), 'queue.list');
    const page = await browser.newPage({ viewport: { width: 1440, height: 1400 } });
    await page.goto(beto.appUrl);
    await page.getByTestId('queue-row').first().waitFor({ timeout: 60_000 });
    const claims = new ClaimRecords(ana.db);
    const times: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const id = seeds[i % VISIBLE]!.interviewId;
      // The row is watched in the page from before the claim, so the time is the screen's, not the poll of a test.
      const shown = page.evaluate(WATCH_SCRIPT(id, true));
      const before = (await page.evaluate('performance.now()')) as number;
      await claims.claim('demo', id);
      times.push(((await shown) as number) - before);
      await claims.release('demo', id);
      // Released on screen too before the next sample.
      await page.evaluate(WATCH_SCRIPT(id, false));
    }
    const sorted = [...times].sort((a, b) => a - b);
    return {
      'live-update-p95-ms': Math.round(sorted[Math.ceil(sorted.length * 0.95) - 1]!),
      'live-update-median-ms': Math.round(sorted[Math.floor(sorted.length / 2)]!),
    };
  } finally {
    await browser.close();
    await ana.close();
    await beto.close();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
}
