import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Runs every `bench/*.bench.ts` in sequence (each default-exports an async function returning named figures),
 * prints one `<figure>: <value>` line per figure and writes them all to `bench/results.json`.
 */
type Bench = () => Promise<Record<string, number>>;

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);

async function main() {
  const files = (await readdir(here)).filter((f) => f.endsWith('.bench.ts')).sort();
  const selected = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;
  const results: Record<string, number> = {};
  let failed = 0;
  for (const file of selected) {
    try {
      const mod = (await import(pathToFileURL(join(here, file)).href)) as { default?: Bench };
      if (typeof mod.default !== 'function') throw new Error('no default export function');
      const figures = await mod.default();
      for (const [name, value] of Object.entries(figures)) {
        if (name in results) throw new Error(`figure ${name} is reported twice`);
        results[name] = value;
        console.log(`${name}: ${format(value)}`);
      }
    } catch (e) {
      failed++;
      console.error(`${file} failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
    }
  }
  // A filtered run (`npm run bench -- client`) updates its own figures and keeps the others.
  const previous = only.length ? await readJson(join(here, 'results.json')) : {};
  await writeFile(join(here, 'results.json'), JSON.stringify({ ...previous, ...results }, null, 2) + '\n');
  if (failed) process.exitCode = 1;
}

async function readJson(path: string): Promise<Record<string, number>> {
  try {
    const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, number>) : {};
  } catch {
    return {};
  }
}

function format(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(3);
}

await main();
