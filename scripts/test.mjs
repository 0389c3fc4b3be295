#!/usr/bin/env node
/**
 * `npm test`: type-checks, lints and format-checks the project (beside the builds and vitest, their output printed
 * after vitest's), builds the renderer and the command lines (scripts/build-web-shell.mjs), runs vitest (unit +
 * integration) and Playwright (e2e in Debian's Chromium), each with a JSON report beside its normal output, and ends
 * with ONE line summing both runners: `N passed, N failed` (then `, N skipped` when any were skipped), just after a
 * table of the ten slowest test files. Temporary folders are in RAM where there is room (scripts/ram-temp.mjs).
 * The two reports are kept in test-results/ (vitest.json, playwright.json; git-ignored). Exit code 1 when anything
 * failed or a runner produced no report. Extra arguments are passed to neither; use test:unit, test:integration or
 * test:e2e for focused runs.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { buildWebShell } from './build-web-shell.mjs';
import { ramTempFolder } from './ram-temp.mjs';
import { basename, join } from 'node:path';
import { electronBinary } from './electron-binary.mjs';
import { formatSlowest, slowestFiles } from './slowest-tests.mjs';

const startedAt = performance.now();
const root = new URL('..', import.meta.url).pathname;
const work = join(root, '.tmp', `test-${process.pid}`);
mkdirSync(work, { recursive: true });
const node = process.execPath;

// Every temporary folder of the run (each web shell's record, the PostgreSQL servers, Chromium's profiles) in RAM
// where the machine has room there: on this machine's disk a new record's copy took 1 s and its commits wait on fsync.
const ramTemp = ramTempFolder();
if (ramTemp) process.env.TMPDIR = ramTemp;

/**
 * Runs a step in the foreground, its output straight to ours; resolves to its exit code. Not spawnSync: the static
 * checks running beside it are read meanwhile.
 */
function run(label, args, env = {}) {
  process.stdout.write(`\n── ${label} ──\n`);
  return new Promise((resolve) => {
    const child = spawn(node, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.once('error', () => resolve(1));
    child.once('close', (code) => resolve(code ?? 1));
  });
}

/**
 * Starts a check in the background with its output kept (stdout and stderr, in the order they came); resolves to
 * `{ label, status, output }` when it exits. Colours as on a terminal when this run's output is one.
 */
function start(label, args) {
  const color = process.stdout.isTTY ? { FORCE_COLOR: '1' } : {};
  return new Promise((resolve) => {
    const chunks = [];
    const child = spawn(node, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...color },
    });
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.once('error', (error) => {
      chunks.push(Buffer.from(`${error.message}\n`));
      resolve({ label, status: 1, output: Buffer.concat(chunks).toString() });
    });
    child.once('close', (code) => resolve({ label, status: code ?? 1, output: Buffer.concat(chunks).toString() }));
  });
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const notes = [];

// 0. The static checks start first and run beside the renderer build and vitest (they read the sources only, and
// mostly wait on one core while vitest's integration files mostly wait on servers); their output is printed, in
// this order, when vitest is done.
// Types: vitest, Playwright and Vite strip them without checking, so a type error would pass every other step.
// One project per process: the renderer's has no Node or Electron types (tsconfig.web.json). TypeScript 7's native
// compiler (package typescript-native), on one thread since the tests hold the other core: 7 s of CPU for both
// projects against 43 s with TypeScript 5.9, which stays for typescript-eslint (docs/testing.md).
const pretty = process.stdout.isTTY ? ['--pretty'] : [];
const staticChecks = [
  ...['tsconfig.node.json', 'tsconfig.web.json'].map((project) =>
    start(`typecheck ${project}`, [
      'node_modules/typescript-native/bin/tsc',
      '-p',
      project,
      '--noEmit',
      '--composite',
      'false',
      '--singleThreaded',
      ...pretty,
    ]),
  ),
  // Lint, with the import boundaries between processes (eslint.config.js); a warning fails it too.
  start('lint', ['node_modules/eslint/bin/eslint.js', '--max-warnings', '0', '.']),
  // Format: the tree is as Prettier writes it (`npm run format` fixes it).
  start('format check', ['node_modules/prettier/bin/prettier.cjs', '--check', '--log-level', 'warn', '.']),
];

/** Prints the static checks' output and counts their failures as before: both typechecks as one, lint, format. */
async function staticResults() {
  const [nodeTypes, webTypes, lint, format] = await Promise.all(staticChecks);
  for (const { label, output } of [nodeTypes, webTypes, lint, format])
    process.stdout.write(`\n── ${label} ──\n${output}`);
  if (nodeTypes.status !== 0 || webTypes.status !== 0) {
    totals.failed += 1;
    notes.push('the typecheck failed (counted as 1 failure)');
  }
  if (lint.status !== 0) {
    totals.failed += 1;
    notes.push('the lint failed (counted as 1 failure)');
  }
  if (format.status !== 0) {
    totals.failed += 1;
    notes.push('the format check failed, run npm run format (counted as 1 failure)');
  }
}

// 1. The web shell's and demo server's command lines as JavaScript (scripts/build-web-shell.mjs), built once for both
// runners: vitest's tests that start them and Playwright's shells run plain `node` instead of tsx at every start.
let templateMade = Promise.resolve({ status: 0 });
try {
  process.env.OMNI_WEB_SHELL_JS = await buildWebShell(join(work, 'shell'));
  // The empty record's copy, made once in this run's new temp folder while the renderer builds, instead of by every
  // runner's worker at once on its first record (test/helpers/record-template.ts).
  templateMade = start('empty record', [join(work, 'shell', 'record-template.mjs')]);
} catch (error) {
  totals.failed += 1;
  notes.push(`the web shell's build failed (counted as 1 failure): ${String(error?.message ?? error).split('\n')[0]}`);
}

// The renderer, built once for the whole run (Playwright's own setup is told to reuse it).
const webDir = join(work, 'web');
const buildStatus = await run('build renderer', [
  'node_modules/vite/bin/vite.js',
  'build',
  '--config',
  'renderer/vite.config.ts',
  '--outDir',
  webDir,
  '--emptyOutDir',
  '--logLevel',
  'warn',
]);
if (buildStatus !== 0 || !existsSync(join(webDir, 'index.html'))) {
  totals.failed += 1;
  notes.push('the renderer build failed (counted as 1 failure)');
}
const template = await templateMade;
if (template.status !== 0) {
  totals.failed += 1;
  notes.push(`the empty record could not be made (counted as 1 failure):\n${template.output}`);
}

// 2. vitest
const vitestReport = join(work, 'vitest.json');
await run('vitest (unit + integration)', [
  'node_modules/vitest/vitest.mjs',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestReport}`,
]);
const vitest = readJson(vitestReport);
await staticResults();
if (vitest) {
  totals.passed += vitest.numPassedTests ?? 0;
  totals.failed += (vitest.numFailedTests ?? 0) + (vitest.numRuntimeErrorTestSuites ?? 0);
  totals.skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
  // A test file that fails to load has no tests to count; make it visible as a failure.
  const brokenFiles = (vitest.testResults ?? []).filter(
    (f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0,
  ).length;
  totals.failed += brokenFiles;
  if (brokenFiles) notes.push(`${brokenFiles} vitest file(s) failed to load (counted as failures)`);
} else {
  totals.failed += 1;
  notes.push('vitest produced no report (counted as 1 failure)');
}

// 3. Playwright
const electron = electronBinary();
if (!electron.path)
  process.stdout.write(
    `\nElectron test skipped: ${electron.reason}. The web shell e2e tests below run the same renderer, preload bridge and router.\n`,
  );
const playwrightReport = join(work, 'playwright.json');
let pw;
if (existsSync(join(webDir, 'index.html'))) {
  await run('playwright (e2e, Chromium)', ['node_modules/@playwright/test/cli.js', 'test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
    OMNI_WEB_STATIC_DIR: webDir,
    // The journeys' screenshots are for a person running a spec to look at; in this run nobody does.
    OMNI_E2E_SCREENSHOTS: 'off',
  });
  pw = readJson(playwrightReport);
  if (pw?.stats) {
    totals.passed += (pw.stats.expected ?? 0) + (pw.stats.flaky ?? 0);
    totals.failed += pw.stats.unexpected ?? 0;
    totals.skipped += pw.stats.skipped ?? 0;
    for (const error of pw.errors ?? []) {
      totals.failed += 1;
      notes.push(`playwright error outside tests: ${String(error.message ?? '').split('\n')[0]}`);
    }
  } else {
    totals.failed += 1;
    notes.push('playwright produced no report (counted as 1 failure)');
  }
}

// The reports are kept for a look at what ran and how long: in test-results/, copied only now because Playwright
// empties that folder (its outputDir) when it starts.
const kept = join(root, 'test-results');
mkdirSync(kept, { recursive: true });
for (const report of [vitestReport, playwrightReport]) {
  rmSync(join(kept, basename(report)), { force: true });
  if (existsSync(report)) copyFileSync(report, join(kept, basename(report)));
}
rmSync(work, { recursive: true, force: true });
if (ramTemp) rmSync(ramTemp, { recursive: true, force: true });
process.stdout.write('\n');
for (const note of notes) process.stdout.write(`note: ${note}\n`);
const slowest = formatSlowest(slowestFiles({ vitest, playwright: pw, root }));
if (slowest) process.stdout.write(`${slowest}\n`);
// The loop's own measure (docs/testing.md: at most ten minutes on the 2-core build machine).
const seconds = Math.round((performance.now() - startedAt) / 1000);
process.stdout.write(`npm test took ${Math.floor(seconds / 60)} min ${seconds % 60} s\n`);
process.stdout.write(
  `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}\n`,
);
process.exit(totals.failed > 0 ? 1 : 0);
