#!/usr/bin/env node
/**
 * `npm test`: type-checks the project, builds the renderer, runs vitest (unit + integration) and Playwright (e2e in
 * Debian's Chromium), each with a JSON report beside its normal output, and ends with ONE line summing both runners:
 * `N passed, N failed` (then `, N skipped` when any were skipped), just after a table of the ten slowest test files.
 * The two reports are kept in test-results/ (vitest.json, playwright.json; git-ignored). Exit code 1 when anything
 * failed or a runner produced no report. Extra arguments are passed to neither; use test:unit, test:integration or
 * test:e2e for focused runs.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { electronBinary } from './electron-binary.mjs';
import { formatSlowest, slowestFiles } from './slowest-tests.mjs';

const root = new URL('..', import.meta.url).pathname;
const work = join(root, '.tmp', `test-${process.pid}`);
mkdirSync(work, { recursive: true });
const node = process.execPath;

function run(label, args, env = {}) {
  process.stdout.write(`\n── ${label} ──\n`);
  const result = spawnSync(node, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
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

// 0. Types: vitest, Playwright and Vite strip them without checking, so a type error would pass every other step.
// One project per process: the renderer's has no Node or Electron types (tsconfig.web.json).
const typecheck = ['tsconfig.node.json', 'tsconfig.web.json'].map((project) =>
  run(`typecheck ${project}`, ['node_modules/typescript/bin/tsc', '-p', project, '--noEmit', '--composite', 'false']),
);
if (typecheck.some((status) => status !== 0)) {
  totals.failed += 1;
  notes.push('the typecheck failed (counted as 1 failure)');
}

// Lint, with the import boundaries between processes (eslint.config.js); a warning fails it too.
if (run('lint', ['node_modules/eslint/bin/eslint.js', '--max-warnings', '0', '.']) !== 0) {
  totals.failed += 1;
  notes.push('the lint failed (counted as 1 failure)');
}

// Format: the tree is as Prettier writes it (`npm run format` fixes it).
if (run('format check', ['node_modules/prettier/bin/prettier.cjs', '--check', '--log-level', 'warn', '.']) !== 0) {
  totals.failed += 1;
  notes.push('the format check failed, run npm run format (counted as 1 failure)');
}

// 1. The renderer, built once for the whole run (Playwright's own setup is told to reuse it).
const webDir = join(work, 'web');
const buildStatus = run('build renderer', [
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

// 2. vitest
const vitestReport = join(work, 'vitest.json');
run('vitest (unit + integration)', [
  'node_modules/vitest/vitest.mjs',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestReport}`,
]);
const vitest = readJson(vitestReport);
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
  run('playwright (e2e, Chromium)', ['node_modules/@playwright/test/cli.js', 'test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
    OMNI_WEB_STATIC_DIR: webDir,
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
process.stdout.write('\n');
for (const note of notes) process.stdout.write(`note: ${note}\n`);
const slowest = formatSlowest(slowestFiles({ vitest, playwright: pw, root }));
if (slowest) process.stdout.write(`${slowest}\n`);
process.stdout.write(
  `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}\n`,
);
process.exit(totals.failed > 0 ? 1 : 0);
