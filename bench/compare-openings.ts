import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRenderer, callIpc, launchChromium, median } from './support';
import { FIRST_OPENINGS, OPENINGS, openInNewWindow, startShell, WARM_UP, type Shell } from './workspace-openings';

/**
 * Is a change faster at opening interviews? `open-interview-ratio` moves by as much as 0.2 between two runs of the
 * same code on one machine, so two runs of `npm run bench` cannot tell. This runs a git revision (a checkout of it
 * beside this one) and the working tree side by side: two hosts, one browser, windows taking turns, so a slow
 * moment of the machine weighs on both. Prints each side's ratio and overhead the way review.bench.ts counts them.
 *
 *   npx tsx bench/compare-openings.ts [revision, default HEAD] [--windows N, default 10]
 *
 * Comparing HEAD with an unchanged tree shows how far apart two equal sides read (about 0.05 with 10 windows here).
 */

interface Side {
  name: string;
  checkout: string;
  shell?: Shell;
  ratios: number[];
  overheads: number[];
}

function parseArgs(args: string[]): { revision: string; windows: number } {
  let revision = 'HEAD';
  let windows = 10;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--windows') windows = Number(args[++i]);
    else revision = args[i]!;
  }
  if (!Number.isInteger(windows) || windows < 1) throw new Error('--windows takes a whole number of at least 1');
  return { revision, windows };
}

async function main() {
  const { revision, windows } = parseArgs(process.argv.slice(2));
  const here = dirname(dirname(fileURLToPath(import.meta.url)));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: here, encoding: 'utf8' }).trim();
  const commit = git('rev-parse', '--verify', `${revision}^{commit}`);
  const work = await mkdtemp(join(tmpdir(), 'omni-compare-openings-'));
  const baseline: Side = {
    name: `${revision} (${commit.slice(0, 7)})`,
    checkout: join(work, 'baseline'),
    ratios: [],
    overheads: [],
  };
  const current: Side = { name: 'working tree', checkout: here, ratios: [], overheads: [] };
  git('worktree', 'add', '--detach', '--quiet', baseline.checkout, commit);
  try {
    // The revision's own code with this checkout's packages: a change of dependencies is not what this compares.
    await symlink(join(here, 'node_modules'), join(baseline.checkout, 'node_modules'), 'dir');
    const sides = [baseline, current];
    for (const [i, side] of sides.entries()) {
      const staticDir = join(work, `web-${i}`);
      buildRenderer(staticDir, side.checkout);
      side.shell = await startShell(staticDir, join(work, `data-${i}`), side.checkout);
      await callIpc(side.shell, 'queue.addDemoSeeds');
    }
    const browser = await launchChromium();
    try {
      for (const side of sides) await openInNewWindow(browser, side.shell!, [WARM_UP]);
      for (let w = 0; w < windows; w++) {
        for (const side of w % 2 === 0 ? sides : [...sides].reverse()) {
          const [, ...measured] = await openInNewWindow(browser, side.shell!, [
            FIRST_OPENINGS[w % FIRST_OPENINGS.length]!,
            ...OPENINGS,
          ]);
          for (const { total, slowest } of measured) {
            side.ratios.push(total / slowest);
            side.overheads.push(total - slowest);
          }
        }
        process.stderr.write(`window ${w + 1} of ${windows}\n`);
      }
    } finally {
      await browser.close();
    }
    for (const side of sides) {
      console.log(
        `${side.name}: open-interview-ratio ${median(side.ratios).toFixed(3)}, open-interview-overhead-ms ${median(side.overheads).toFixed(1)} (${side.ratios.length} openings)`,
      );
    }
  } finally {
    await Promise.all([baseline.shell?.stop(), current.shell?.stop()]);
    git('worktree', 'remove', '--force', baseline.checkout);
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
