import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import { startWebShell, type WebShell } from '../main/web-shell/index';
import { buildRenderer, callIpc, launchChromium, median, shellIpc } from './support';
import type { Targets } from './targets';

/**
 * The review queue in the web shell, under Debian's Chromium: analysts come back to it after every interview.
 *
 * - `queue-5000-vs-50-show-ratio`: time from leaving another screen for the queue to its rows shown, with 5,000
 *   interviews in the queue, divided by the same with 50, measured in the same run (two shells, windows taking
 *   turns). 1.0 means the queue's size costs nothing; with every row drawn it was 45.
 */
export const targets: Targets = { 'queue-5000-vs-50-show-ratio': { atMost: 1.5 } };

const SMALL = 50;
const LARGE = 5000;
const ROUNDS = 5;
const VISITS = 4;

const importIds = (shell: WebShell, count: number) =>
  callIpc(shellIpc(shell), 'queue.importText', {
    text: Array.from({ length: count }, (_, i) => `bench-${String(i).padStart(5, '0')}`).join('\n'),
    format: 'list',
  });

/** Runs in the page (a string: the TypeScript runner's helpers must not be serialized into it). */
const VISIT_SCRIPT = (total: number) => `(async () => {
  window.location.hash = '#/settings';
  await new Promise((resolve) => {
    const wait = () => (document.querySelector('[data-testid="queue-row"]') ? requestAnimationFrame(wait) : resolve());
    wait();
  });
  const started = performance.now();
  window.location.hash = '#/interviews';
  const count = ${JSON.stringify(`${total.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} interviews`)};
  await new Promise((resolve) => {
    const shown = () => document.querySelector('[data-testid="queue-row"]') && document.body.textContent.includes(count);
    const check = () => (shown() ? resolve() : requestAnimationFrame(check));
    check();
  });
  return performance.now() - started;
})()`;

async function visits(browser: Browser, shell: WebShell, total: number): Promise<number[]> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  try {
    await page.goto(shell.appUrl);
    await page.getByTestId('queue-row').first().waitFor({ timeout: 60_000 });
    const times: number[] = [];
    // The first visit compiles the screen's code; the ones after it are what an analyst waits for all day.
    await page.evaluate(VISIT_SCRIPT(total));
    for (let i = 0; i < VISITS; i++) times.push((await page.evaluate(VISIT_SCRIPT(total))) as number);
    return times;
  } finally {
    await page.close();
  }
}

export default async function queueBench(): Promise<Record<string, number>> {
  const work = await mkdtemp(join(tmpdir(), 'omni-queue-bench-'));
  const staticDir = join(work, 'web');
  buildRenderer(staticDir);
  const small = await startWebShell({ dataDir: join(work, 'small'), staticDir });
  const large = await startWebShell({ dataDir: join(work, 'large'), staticDir });
  const browser = await launchChromium();
  try {
    await importIds(small, SMALL);
    await importIds(large, LARGE);
    const smallTimes: number[] = [];
    const largeTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Taking turns, so a slow phase of the machine weighs on both sizes alike.
      if (round % 2 === 0) {
        smallTimes.push(...(await visits(browser, small, SMALL)));
        largeTimes.push(...(await visits(browser, large, LARGE)));
      } else {
        largeTimes.push(...(await visits(browser, large, LARGE)));
        smallTimes.push(...(await visits(browser, small, SMALL)));
      }
    }
    return { 'queue-5000-vs-50-show-ratio': Math.round((median(largeTimes) / median(smallTimes)) * 1000) / 1000 };
  } finally {
    await browser.close();
    await small.close();
    await large.close();
    await rm(work, { recursive: true, force: true });
  }
}
