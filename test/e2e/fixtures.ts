import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres, type TestPostgres } from '../helpers/postgres';
import { callShell } from '../helpers/shell-calls';

/**
 * `shell`: a fresh web shell per test, started as `npm run start:web` does (main/web-shell/cli.ts) with a new data
 * directory, on a random port with its embedded demo server: in the worker's shell host (one process that starts
 * the worker's shells one after another, OMNI_WEB_SHELL_HOST_JS) when global setup built one, else a process of its
 * own (`startShell`: global-setup's build of cli.ts, OMNI_WEB_SHELL_JS, run by plain `node`, its stack traces mapped
 * to the sources, or the sources through tsx when no build is named). `page` arrives already on the app URL (key in the fragment). `shell.demoUrl` is the demo server,
 * for tests that move its clock or inject faults.
 */
export interface ShellFixture {
  /** Full app URL including the per-launch key fragment. */
  appUrl: string;
  origin: string;
  key: string;
  demoUrl: string;
  dataDir: string;
  /** Calls the host's IPC exactly as the page does. */
  ipc<T = unknown>(channel: string, input?: unknown): Promise<T>;
  /** Everything the shell printed, to check that nothing secret was logged. */
  output(): string;
  /** POST to a `/__demo/` control route of the demo server. */
  demo(path: string, body?: unknown): Promise<Response>;
}

const READY = /Omni Reviewer ready at (http:\/\/127\.0\.0\.1:\d+\/#k=([A-Za-z0-9_-]+))/;

/** A web shell of its own (tests with two analysts start a second one); stop it with `stopShell`. */
export async function startShell(
  storeFiles: Record<string, string>,
  env: Record<string, string> = {},
): Promise<{ fixture: ShellFixture; child: ChildProcess }> {
  const dataDir = await dataFolder(storeFiles);
  const staticDir = process.env.OMNI_WEB_STATIC_DIR ? ['--static-dir', process.env.OMNI_WEB_STATIC_DIR] : [];
  const cli = process.env.OMNI_WEB_SHELL_JS
    ? ['--enable-source-maps', process.env.OMNI_WEB_SHELL_JS]
    : ['--import', 'tsx', 'main/web-shell/cli.ts'];
  const child = spawn(process.execPath, [...cli, '--port', '0', '--no-open', '--data-dir', dataDir, ...staticDir], {
    cwd: process.cwd(),
    env: { ...process.env, DISPLAY: '', WAYLAND_DISPLAY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`web shell did not start in time:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(READY);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`web shell exited with ${code}:\n${output}`));
    });
  });
  const fixture = await shellFixture(ready[1]!, dataDir, () => output);
  return { fixture, child };
}

/** What a test sees of a running shell, from its app URL (which holds the key in its fragment). */
async function shellFixture(appUrl: string, dataDir: string, output: () => string): Promise<ShellFixture> {
  const key = new URL(appUrl).hash.replace(/^#k=/, '');
  const origin = new URL(appUrl).origin;
  const ipc = <T>(channel: string, input?: unknown) => callShell<T>(appUrl, channel, input);
  const envs = await ipc<{ environments: { kind: string; baseUrl: string }[] }>('settings.environments');
  const demoUrl = envs.environments.find((e) => e.kind === 'demo')!.baseUrl;
  return {
    appUrl,
    origin,
    key,
    demoUrl,
    dataDir,
    ipc,
    output,
    demo: (path, body) =>
      fetch(`${demoUrl}/__demo/${path.replace(/^\//, '')}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      }),
  };
}

/** A data folder of its own, with the store files a test asked for. */
async function dataFolder(storeFiles: Record<string, string>): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'omni-e2e-'));
  for (const [name, text] of Object.entries(storeFiles)) await writeFile(join(dataDir, `${name}.json`), text);
  return dataDir;
}

/**
 * The worker's shell host (test/e2e/shell-host.ts, built by global setup as OMNI_WEB_SHELL_HOST_JS): one Node process
 * that starts this worker's shells one after another, each with a new data folder, record, demo server and port.
 */
class ShellHost {
  private child: ChildProcess | undefined;
  private output = '';
  private next = 0;
  private waiting = new Map<number, { resolve: (rest: string) => void; reject: (error: Error) => void }>();

  constructor(private readonly script: string) {}

  private process(): ChildProcess {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) return this.child;
    this.output = '';
    const child = spawn(process.execPath, ['--enable-source-maps', this.script], {
      cwd: process.cwd(),
      env: { ...process.env, DISPLAY: '', WAYLAND_DISPLAY: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      this.output += chunk.toString();
      pending += chunk.toString();
      let end: number;
      while ((end = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        const answer = line.match(/^@@shell (\d+) (ready|stopped|failed)(?: (.*))?$/);
        const waiter = answer && this.waiting.get(Number(answer[1]));
        if (!answer || !waiter) continue;
        this.waiting.delete(Number(answer[1]));
        if (answer[2] === 'failed') waiter.reject(new Error(`web shell ${answer[1]} failed: ${answer[3]}`));
        else waiter.resolve(answer[3] ?? '');
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.once('exit', (code) => {
      for (const { reject } of this.waiting.values())
        reject(new Error(`the shell host exited with ${code}:\n${this.output.slice(-4000)}`));
      this.waiting.clear();
    });
    this.child = child;
    return child;
  }

  /** Sends a command about shell `id`; resolves to the rest of its answer line (the app URL for `start`). */
  private ask(id: number, command: object): Promise<string> {
    const child = this.process();
    const done = new Promise<string>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    child.stdin!.write(`${JSON.stringify({ ...command, id })}\n`);
    return done;
  }

  /** A new shell in the host; what the host prints while it runs is its `output()`. */
  async start(storeFiles: Record<string, string>): Promise<{ fixture: ShellFixture; stop: () => Promise<void> }> {
    const dataDir = await dataFolder(storeFiles);
    const id = ++this.next;
    const child = this.process();
    const from = this.output.length;
    const appUrl = await this.ask(id, { op: 'start', dataDir, staticDir: process.env.OMNI_WEB_STATIC_DIR });
    const output = () => (this.child === child ? this.output.slice(from) : '');
    const fixture = await shellFixture(appUrl, dataDir, output);
    return {
      fixture,
      stop: async () => {
        await this.ask(id, { op: 'stop' });
        await rm(dataDir, { recursive: true, force: true });
        // An error nobody caught while this shell ran is this test's, as it would end a shell of its own.
        const uncaught = output().match(/^@@uncaught (.*)$/m);
        if (uncaught) throw new Error(`the web shell had an uncaught error: ${JSON.parse(uncaught[1]!) as string}`);
      },
    };
  }

  async close() {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin!.end();
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/** One PostgreSQL server per worker, started the first time a test keeps its record on a team database. */
interface TeamServer {
  /** A new, empty database on it, as a team database the shell's settings choose. */
  database(): Promise<{ host: string; port: number; user: string; database: string }>;
  /** The server itself (started if need be), to stop and start it under a running shell. */
  server(): Promise<TestPostgres>;
}

export const test = base.extend<
  {
    shell: ShellFixture;
    page: Page;
    storeFiles: Record<string, string>;
    shellEnv: Record<string, string>;
    appAtStart: boolean;
    recordEngine: 'embedded' | 'team';
  },
  { teamServer: TeamServer; shellHost: ShellHost | undefined }
>({
  /**
   * Where the shell keeps its review record: its own embedded database, or a team's PostgreSQL (`test.use`). A test
   * option, not a worker's: team journeys run in the same workers as the others instead of workers of their own.
   */
  recordEngine: ['embedded', { option: true }],
  teamServer: [
    // Playwright reads a fixture's dependencies from this pattern; this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      // Started the first time one of the worker's tests keeps its record there.
      let server: Promise<TestPostgres> | undefined;
      let made = 0;
      const started = () => (server ??= startPostgres());
      await use({
        server: started,
        async database() {
          const running = await started();
          const database = await running.createDatabase(`team_${++made}`);
          return { host: running.host, port: running.port, user: running.user, database };
        },
      });
      if (server) await (await server).stop();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  /**
   * Store files the shell finds in its data folder at start, by name without `.json` (`test.use({ storeFiles:
   * { 'omni-reviewer': '…' } })`); none by default.
   */
  storeFiles: [{}, { option: true }],
  /**
   * Environment variables the shell starts with (`test.use({ shellEnv: { … } })`); none by default. A shell that needs
   * some runs in a process of its own, since the worker's shell host started with the worker's.
   */
  shellEnv: [{}, { option: true }],
  /**
   * Whether `page` arrives on the app (the default) or blank, for a test that prepares the shell first (preferences,
   * the queue, the demo's faults) and then opens the app itself (`testOpeningTheApp`, `openApp`).
   */
  appAtStart: [true, { option: true }],
  shellHost: [
    // Playwright reads a fixture's dependencies from this pattern; this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const script = process.env.OMNI_WEB_SHELL_HOST_JS;
      const host = script ? new ShellHost(script) : undefined;
      await use(host);
      await host?.close();
    },
    { scope: 'worker' },
  ],
  shell: async ({ storeFiles, shellEnv, recordEngine, teamServer, shellHost }, use) => {
    const files = recordEngine === 'team' ? await onTeamDatabase(storeFiles, await teamServer.database()) : storeFiles;
    if (shellHost && Object.keys(shellEnv).length === 0) {
      const { fixture, stop } = await shellHost.start(files);
      try {
        await use(fixture);
      } finally {
        await stop();
      }
      return;
    }
    const started = await startShell(files, shellEnv);
    try {
      await use(started.fixture);
    } finally {
      await stopShell(started);
    }
  },
  page: async ({ page, shell, appAtStart }, use) => {
    // npm test asks for none (OMNI_E2E_SCREENSHOTS=off): nobody looks at that run's pictures, and each cost the
    // browser 0.2 to 0.7 s of CPU (docs/testing.md). A spec run by hand keeps them, to be looked at.
    if (process.env.OMNI_E2E_SCREENSHOTS === 'off') page.screenshot = async () => Buffer.alloc(0);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console ${msg.type()}: ${msg.text()}`);
    });
    if (appAtStart) await page.goto(shell.appUrl);
    await use(page);
    // The context goes on to the worker's next test (reuseContext, playwright.config.ts); Playwright's reset leaves
    // these as this test set them (test/e2e/context-reuse.spec.ts).
    const context = page.context();
    await Promise.all([
      context.clearPermissions(),
      context.setOffline(false),
      context.setGeolocation(null),
      context.setExtraHTTPHeaders({}),
    ]);
    // A CSP violation, an uncaught error or a warning (a header the browser rejects) is a bug even when the test's
    // own assertions passed.
    expect(problems, 'the page logged errors or warnings').toEqual([]);
  },
});

/**
 * For a test that prepares the shell before the app's first load: its page starts blank until `openApp`. A load that
 * a reload would only repeat costs the page about a second of CPU, and over forty journeys began that way
 * (docs/testing.md, fifth round).
 */
export const testOpeningTheApp = test.extend({ appAtStart: false });

/** Opens the app in a page that `testOpeningTheApp` left blank, as the shell's own link does (key in the fragment). */
export async function openApp(page: Page, shell: ShellFixture) {
  await page.goto(shell.appUrl);
}

export async function stopShell({ fixture, child }: { fixture: ShellFixture; child: ChildProcess }) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
  await rm(fixture.dataDir, { recursive: true, force: true });
}

/** The store files with the settings file choosing the team database (trust authentication: no password). */
export async function onTeamDatabase(
  storeFiles: Record<string, string>,
  team: { host: string; port: number; user: string; database: string },
): Promise<Record<string, string>> {
  const settings = storeFiles['omni-reviewer'] ? (JSON.parse(storeFiles['omni-reviewer']) as object) : {};
  return {
    ...storeFiles,
    'omni-reviewer': JSON.stringify({
      ...settings,
      'record.engine': 'team',
      'record.teamDatabase': { ...team, tls: 'disable' },
    }),
  };
}

export { expect };
