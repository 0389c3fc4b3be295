/**
 * The slowest test files of an `npm test` run, across both runners, read from their JSON reports: vitest's
 * (`testResults[]`, one per file, with `startTime` and `endTime` in ms) and Playwright's (`suites[]`, nested by
 * describe, whose `specs[].tests[].results[].duration` are summed per file, every project and retry included).
 * A file's seconds are time spent in it, not the run's wall time: files run side by side in both runners.
 */
import { isAbsolute, join, relative } from 'node:path';

/** The `limit` slowest files, slowest first: `{ file, runner, seconds }`, file relative to `root`. */
export function slowestFiles({ vitest, playwright, root, limit = 10 }) {
  const rows = [];
  for (const result of vitest?.testResults ?? []) {
    if (typeof result.startTime !== 'number' || typeof result.endTime !== 'number') continue;
    rows.push({
      file: shown(root, String(result.name)),
      runner: 'vitest',
      seconds: Math.max(0, result.endTime - result.startTime) / 1000,
    });
  }
  const perFile = new Map();
  // Playwright names a suite's file relative to the config's rootDir (the test folder).
  const base = playwright?.config?.rootDir ?? root;
  const walk = (suite, file) => {
    const own = suite.file ?? file;
    for (const spec of suite.specs ?? []) {
      const key = spec.file ?? own;
      for (const test of spec.tests ?? [])
        for (const result of test.results ?? []) perFile.set(key, (perFile.get(key) ?? 0) + (result.duration ?? 0));
    }
    for (const child of suite.suites ?? []) walk(child, own);
  };
  for (const suite of playwright?.suites ?? []) walk(suite, undefined);
  for (const [file, ms] of perFile) {
    if (file === undefined) continue;
    rows.push({
      file: shown(root, isAbsolute(file) ? file : join(base, file)),
      runner: 'playwright',
      seconds: ms / 1000,
    });
  }
  return rows.sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file)).slice(0, limit);
}

function shown(root, file) {
  const path = relative(root, file);
  return path.startsWith('..') ? file : path;
}

/** The table printed at the end of `npm test`; empty when there is no file to show. */
export function formatSlowest(rows) {
  if (rows.length === 0) return '';
  const seconds = rows.map((row) => row.seconds.toFixed(1));
  const width = Math.max('seconds'.length, ...seconds.map((s) => s.length));
  const runnerWidth = Math.max('runner'.length, ...rows.map((row) => row.runner.length));
  const line = (s, runner, file) => `  ${s.padStart(width)}  ${runner.padEnd(runnerWidth)}  ${file}`;
  return [
    `the ${rows.length} slowest test files:`,
    line('seconds', 'runner', 'file'),
    ...rows.map((row, i) => line(seconds[i], row.runner, row.file)),
  ].join('\n');
}
