import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { judge, type Targets } from './targets';

/**
 * Runs every `bench/*.bench.ts` (each default-exports an async function returning named figures, and may export
 * `targets` for them), prints one `<figure>: <value>` line per figure, with its target and whether it was met, and
 * writes the figures to `bench/results.json`.
 *
 * Each bench file runs in a process of its own, one after another: a bench that leaves a large heap, a pending
 * timer or a child process behind cannot slow down the next one's measurement.
 */
type Bench = () => Promise<Record<string, number>>;
interface BenchOutput {
  figures: Record<string, number>;
  targets: Targets;
}

const here = dirname(fileURLToPath(import.meta.url));
const ONE = '--one';

async function main(args: string[]) {
  if (args[0] === ONE) return runOne(args[1]!, args[2]!);
  const files = (await readdir(here)).filter((f) => f.endsWith('.bench.ts')).sort();
  const selected = args.length ? files.filter((f) => args.some((o) => f.includes(o))) : files;
  const work = await mkdtemp(join(tmpdir(), 'omni-bench-'));
  const results: Record<string, number> = {};
  let failed = 0;
  let met = 0;
  let missed = 0;
  try {
    for (const file of selected) {
      const out = join(work, `${file}.json`);
      const code = await runChild(file, out);
      if (code !== 0) {
        failed++;
        console.error(`${file} failed (exit ${code})`);
        continue;
      }
      const { figures, targets } = (await readJson(out)) as unknown as BenchOutput;
      const twice = Object.keys(figures).filter((name) => name in results);
      for (const name of twice) console.error(`${file} failed: figure ${name} is reported twice`);
      failed += twice.length;
      const verdict = judge(figures, targets, format);
      for (const line of verdict.lines) console.log(line);
      for (const name of verdict.orphans)
        console.error(`${file} failed: a target names ${name}, a figure it did not report`);
      failed += verdict.orphans.length;
      met += verdict.met;
      missed += verdict.missed;
      Object.assign(results, figures);
    }
    console.log(`targets: ${met} met, ${missed} missed`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  // A filtered run (`npm run bench -- client`) updates its own figures and keeps the others.
  const previous = args.length ? await readJson(join(here, 'results.json')) : {};
  await writeFile(join(here, 'results.json'), JSON.stringify({ ...previous, ...results }, null, 2) + '\n');
  if (failed) process.exitCode = 1;
}

function runChild(file: string, out: string): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), ONE, file, out], {
    stdio: 'inherit',
  });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

async function runOne(file: string, out: string) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { default?: Bench; targets?: Targets };
  if (typeof mod.default !== 'function') throw new Error(`${file}: no default export function`);
  const output: BenchOutput = { figures: await mod.default(), targets: mod.targets ?? {} };
  await writeFile(out, JSON.stringify(output));
  // Whatever a bench left running must not keep its process alive.
  process.exit(0);
}

async function readJson(path: string): Promise<Record<string, unknown>> {
  try {
    const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function format(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(3);
}

await main(process.argv.slice(2));
