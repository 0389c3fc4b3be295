import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUDIT_TRAIL_FILE, entryHash, GENESIS_HASH } from '../main/audit-trail';
import type { AuditEntry } from '../main/ipc/context';
import { SHELL_KEY_HEADER } from '../main/web-shell/host';
import { startWebShell, type WebShell } from '../main/web-shell/index';
import { IPC_BATCH_ROUTE } from '../preload/contract/define';
import { callIpc, median } from './support';
import type { Targets } from './targets';

/**
 * The audit trail grows with every action an analyst takes (about ten per interview), and opening an interview adds
 * to it and reads from it.
 *
 * - `open-calls-20k-trail-ratio`: time the web shell's host takes to answer the calls of one opening (the opening
 *   itself and every panel's read, in one request as the page sends them), with 20,000 entries in the trail (a few
 *   weeks of one analyst's work), divided by the same with a new trail, measured in the same run (two shells taking
 *   turns). 1.0 means the trail's length costs nothing; with the trail inside the settings file, rewritten whole with
 *   every entry, it was ~50.
 */
export const targets: Targets = { 'open-calls-20k-trail-ratio': { atMost: 1.5 } };

const LONG_TRAIL = 20_000;
const INTERVIEWS = ['demo-clean-pass', 'demo-fraud-high', 'demo-contracts-many', 'demo-no-fraud-risk', 'demo-closed'];
const ROUNDS = 8;
const OPENING_CALLS = ['open', 'rawIdv', 'crossDoc', 'contracts', 'video', 'drafts'];

/** A valid chain of `count` entries, as weeks of openings, notes and decisions leave it. */
function trailOf(count: number): string {
  const actions = ['opened', 'played', 'noted', 'decided'] as const;
  let prevHash = GENESIS_HASH;
  const lines: string[] = [];
  for (let seq = 1; seq <= count; seq++) {
    const action = actions[seq % actions.length]!;
    const body: Omit<AuditEntry, 'hash'> = {
      seq,
      at: new Date(Date.UTC(2026, 0, 1) + seq * 60_000).toISOString(),
      environment: 'demo',
      interviewId: `past-${seq % 2_000}`,
      action,
      detail: action === 'decided' ? { decision: 'approve', reason: 'Documents and selfie match.', acknowledgedFindings: [] } : action === 'noted' ? { text: 'Called the applicant to confirm the address.' } : {},
      prevHash,
    };
    const hash = entryHash(body);
    lines.push(JSON.stringify({ ...body, hash }));
    prevHash = hash;
  }
  return `${lines.join('\n')}\n`;
}

const keyOf = (shell: WebShell) => new URL(shell.appUrl).hash.replace('#k=', '');

/** One opening as the page makes it: every call in one request, answered line by line; ms until the last line. */
async function openOnce(shell: WebShell, interviewId: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${shell.origin}${IPC_BATCH_ROUTE}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: shell.origin, [SHELL_KEY_HEADER]: keyOf(shell) },
    body: JSON.stringify(OPENING_CALLS.map((call) => ({ channel: `interview.${call}`, input: { interviewId } }))),
  });
  const answers = (await response.text()).trim().split('\n').map((line) => JSON.parse(line) as { result: { ok: boolean } });
  const elapsed = performance.now() - started;
  if (answers.length !== OPENING_CALLS.length || answers.some((a) => !a.result.ok)) throw new Error(`opening ${interviewId} failed: ${JSON.stringify(answers)}`);
  return elapsed;
}

export default async function trailBench(): Promise<Record<string, number>> {
  const work = await mkdtemp(join(tmpdir(), 'omni-trail-bench-'));
  const longDir = join(work, 'long');
  await mkdir(longDir);
  await writeFile(join(longDir, AUDIT_TRAIL_FILE), trailOf(LONG_TRAIL));
  const fresh = await startWebShell({ dataDir: join(work, 'new'), staticDir: work });
  const long = await startWebShell({ dataDir: longDir, staticDir: work });
  try {
    // The shell must have read the trail written for it, or the figure would compare two new trails.
    const read = await callIpc<{ entries: unknown[]; chain: { ok: boolean } }>({ origin: long.origin, key: keyOf(long) }, 'app.auditTrail');
    if (read.entries.length !== LONG_TRAIL || !read.chain.ok) throw new Error(`the long trail was not read whole (${read.entries.length} entries, chain ${JSON.stringify(read.chain)})`);
    for (const shell of [fresh, long]) {
      await callIpc({ origin: shell.origin, key: keyOf(shell) }, 'queue.addDemoSeeds');
      // Warm-up: the first token from the demo service and the first compile of each path are not measured.
      await openOnce(shell, INTERVIEWS[0]!);
    }
    const times = { fresh: [] as number[], long: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const id of INTERVIEWS) {
        // Taking turns, so a slow phase of the machine weighs on both alike.
        const order = round % 2 === 0 ? (['fresh', 'long'] as const) : (['long', 'fresh'] as const);
        for (const which of order) times[which].push(await openOnce(which === 'fresh' ? fresh : long, id));
      }
    }
    return { 'open-calls-20k-trail-ratio': Math.round((median(times.long) / median(times.fresh)) * 1000) / 1000 };
  } finally {
    await fresh.close();
    await long.close();
    await rm(work, { recursive: true, force: true });
  }
}
