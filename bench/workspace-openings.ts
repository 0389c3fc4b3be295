import { spawn, type ChildProcess } from 'node:child_process';
import type { Browser, Page } from '@playwright/test';

/**
 * Opening interviews in the web shell as an analyst does, timed by the page: what `review.bench.ts` measures and
 * `compare-openings.ts` compares between two versions of the app.
 */

export const OPENINGS = [
  'demo-clean-pass',
  'demo-fraud-high',
  'demo-contracts-many',
  'demo-no-fraud-risk',
  'demo-closed',
];
/** One per window, opened first; none of them is in OPENINGS, so no measured opening finds its data cached. */
export const FIRST_OPENINGS = [
  'demo-attempts-limited',
  'demo-expired-id',
  'demo-empty-idv',
  'demo-face-recapture',
  'demo-id-face-skipped',
];
export const WARM_UP = 'demo-attempts-exhausted';
const READY = /Omni Reviewer ready at (http:\/\/127\.0\.0\.1:\d+\/#k=([A-Za-z0-9_-]+))/;

export interface Shell {
  appUrl: string;
  origin: string;
  key: string;
  stop(): Promise<void>;
}

/** A host started from `cwd` (a checkout), serving the renderer built into `staticDir`, with its own demo server. */
export async function startShell(staticDir: string, dataDir: string, cwd = process.cwd()): Promise<Shell> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'main/web-shell/cli.ts',
      '--port',
      '0',
      '--no-open',
      '--data-dir',
      dataDir,
      '--static-dir',
      staticDir,
    ],
    {
      env: { ...process.env, DISPLAY: '', WAYLAND_DISPLAY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd,
    },
  );
  let output = '';
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`web shell did not start:\n${output}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = output.match(READY);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`web shell exited with ${code}:\n${output}`)));
  });
  const appUrl = match[1]!;
  return {
    appUrl,
    origin: new URL(appUrl).origin,
    key: match[2]!,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** A fresh window (empty cache, nothing compiled yet) showing the review queue. */
async function newWindow(browser: Browser, shell: Shell): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(shell.appUrl);
  await queueShown(page);
  return page;
}

export async function queueShown(page: Page) {
  await page.getByRole('heading', { name: 'Review queue', level: 1 }).waitFor();
}

export interface Opening {
  /** ms from the opening to every panel rendered. */
  total: number;
  /** ms of the longest IPC call the opening started. */
  slowest: number;
}

/**
 * A session of an analyst: a fresh window opens these interviews one after another from the queue, each for the
 * first time in that window, and closes.
 */
export async function openInNewWindow(browser: Browser, shell: Shell, interviewIds: string[]): Promise<Opening[]> {
  const page = await newWindow(browser, shell);
  try {
    const openings: Opening[] = [];
    for (const id of interviewIds) openings.push(await openOnce(page, id));
    return openings;
  } finally {
    await page.close();
  }
}

/** One opening from the queue, timed by the page. */
async function openOnce(page: Page, interviewId: string): Promise<Opening> {
  try {
    // A string, not a function: tsx would wrap inner functions in a helper the page does not have.
    // The calls are timed by the page itself (Resource Timing: from fetch() to the last byte), so the measurement
    // adds no traffic between the browser and this process while the opening runs.
    const { total, slowest } = (await page.evaluate(`(async () => {
      const calls = [];
      const isIpc = (e) => {
        const path = new URL(e.name).pathname;
        return path === '/ipc' || path.startsWith('/ipc/');
      };
      const observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (isIpc(e)) calls.push(e);
      });
      observer.observe({ type: 'resource' });
      const started = performance.now();
      window.location.hash = '#/interviews/${interviewId}';
      const settled = () =>
        document.querySelector('[data-testid="interview-id"]') !== null &&
        document.querySelectorAll('.workspace .panel').length >= 7 &&
        document.querySelector('.workspace .panel[aria-busy="true"], .workspace .skeleton') === null;
      await new Promise((resolve) => {
        const check = () => (settled() ? resolve() : requestAnimationFrame(check));
        check();
      });
      const total = performance.now() - started;
      // A call's entry is recorded when its response ends, which can come a moment after the page used its answer.
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (const e of observer.takeRecords()) if (isIpc(e)) calls.push(e);
      observer.disconnect();
      const mine = calls.filter((e) => e.startTime >= started && e.startTime <= started + total);
      if (mine.length === 0) throw new Error('the opening made no IPC call');
      return { total, slowest: Math.max(...mine.map((e) => e.responseEnd - e.startTime)) };
    })()`)) as Opening;
    return { total, slowest };
  } finally {
    await page.evaluate(`window.location.hash = '#/interviews'`);
    await queueShown(page);
    // The queue refreshes after a visit; a person's next click comes well after that, so the next opening does too.
    await page.waitForTimeout(250);
  }
}
