import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { entryHash, GENESIS_HASH } from '../main/record/audit-chain';
import { LEGACY_AUDIT_FILE } from '../main/record/import-legacy';
import type { AuditEntry } from '../common/views';
import { SHELL_KEY_HEADER } from '../common/web-shell';
import { startWebShell, type WebShell } from '../main/web-shell/index';
import { IPC_BATCH_ROUTE } from '../common/ipc/define';
import { callIpc, median, shellIpc } from './support';
import type { Targets } from './targets';

/**
 * What grows with use, measured on the web shell's host (the same main-process code as Electron's), each against a
 * small baseline in the same run, the shells taking turns:
 *
 * - `open-calls-20k-trail-ratio`: time to answer the calls of one opening (the opening and every panel's read, in one
 *   request as the page sends them) with 20,000 entries in the audit trail (weeks of one analyst's work; about ten
 *   per interview), divided by the same with a new trail. With the trail inside the settings file it was ~50.
 * - `open-calls-5000-queue-ratio`: the same with 5,000 interviews in the queue, divided by 50. These are openings of
 *   interviews already in review, as when an analyst goes back and forth: they write nothing to the queue's file, whose
 *   size grows with the queue (an interview's first opening still writes its move to "in review"). It was ~9 when every
 *   read copied the whole queue and the panels rewrote the file twice more, 3-5 while every opening stamped its time
 *   in the file (now read from the audit trail), ~1.1 since.
 * - `queue-list-5000-tokens-ratio`: listing a queue of 5,000 interviews, each with a session token, right after a
 *   restart (no token decrypted yet), divided by the same with 50. The rows are 100 times as many (~8 here); when
 *   each row's token lookup copied every stored token, it was in the thousands (25 s for the list).
 * - `draft-save-5000-queue-ratio`: saving a note's draft (what typing does every 250 ms) with 5,000 interviews and
 *   their tokens stored, divided by the same with 50. With the queue and the credentials in the drafts' file, every
 *   save rewrote them all: ~6.4 (33 ms against 5 ms; 114 ms at 20,000).
 */
export const targets: Targets = {
  'open-calls-20k-trail-ratio': { atMost: 1.5 },
  'open-calls-5000-queue-ratio': { atMost: 1.5 },
  'queue-list-5000-tokens-ratio': { atMost: 20 },
  'draft-save-5000-queue-ratio': { atMost: 1.5 },
};

const LONG_TRAIL = 20_000;
const SMALL_QUEUE = 50;
const LARGE_QUEUE = 5_000;
const INTERVIEWS = ['demo-clean-pass', 'demo-fraud-high', 'demo-contracts-many', 'demo-no-fraud-risk', 'demo-closed'];
const ROUNDS = 6;
const LISTINGS = 7;
const DRAFT_SAVES = 21;
const OPENING_CALLS = ['open', 'rawIdv', 'crossDoc', 'contracts', 'video', 'drafts'];
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzZXNzaW9uIn0.c2lnbmF0dXJl';

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
      detail:
        action === 'decided'
          ? { decision: 'approve', reason: 'Documents and selfie match.', acknowledgedFindings: [] }
          : action === 'noted'
            ? { text: 'Called the applicant to confirm the address.' }
            : {},
      prevHash,
    };
    const hash = entryHash(body);
    lines.push(JSON.stringify({ ...body, hash }));
    prevHash = hash;
  }
  return `${lines.join('\n')}\n`;
}

/** A shell on `dataDir` whose queue holds `queued` interviews with session tokens, and the demo interviews. */
async function shellWith(dataDir: string, queued: number): Promise<WebShell> {
  const shell = await startWebShell({ dataDir, staticDir: dataDir });
  const ipc = shellIpc(shell);
  // The web shell's vault keeps tokens in memory only until the user accepts its weaker storage.
  await callIpc(ipc, 'settings.acceptWeakStorage');
  const rows = Array.from({ length: queued }, (_, i) => `bench-${String(i).padStart(5, '0')},${JWT}${i}`);
  await callIpc(ipc, 'queue.importText', { text: `interviewId,sessionToken\n${rows.join('\n')}`, format: 'csv' });
  await callIpc(ipc, 'queue.addDemoSeeds');
  return shell;
}

/** One opening as the page makes it: every call in one request, answered line by line; ms until the last line. */
async function openOnce(shell: WebShell, interviewId: string): Promise<number> {
  const { origin, key } = shellIpc(shell);
  const started = performance.now();
  const response = await fetch(`${origin}${IPC_BATCH_ROUTE}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, [SHELL_KEY_HEADER]: key },
    body: JSON.stringify(OPENING_CALLS.map((call) => ({ channel: `interview.${call}`, input: { interviewId } }))),
  });
  const answers = (await response.text())
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { result: { ok: boolean } });
  const elapsed = performance.now() - started;
  if (answers.length !== OPENING_CALLS.length || answers.some((a) => !a.result.ok))
    throw new Error(`opening ${interviewId} failed: ${JSON.stringify(answers)}`);
  return elapsed;
}

/** Median time of each shell's openings, the shells taking turns so a slow phase of the machine weighs on all alike. */
async function openings(shells: WebShell[]): Promise<number[]> {
  for (const shell of shells) await openOnce(shell, INTERVIEWS[0]!); // the demo service's first token, first compiles
  const times = shells.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const id of INTERVIEWS) {
      const order = round % 2 === 0 ? shells.map((_, i) => i) : shells.map((_, i) => shells.length - 1 - i);
      for (const i of order) times[i]!.push(await openOnce(shells[i]!, id));
    }
  }
  return times.map(median);
}

/** Median time of each shell's draft saves, the shells taking turns; each save is a new text, as typing makes. */
async function draftSaves(shells: WebShell[]): Promise<number[]> {
  const times = shells.map(() => [] as number[]);
  for (let i = 0; i < DRAFT_SAVES; i++) {
    for (const [s, shell] of shells.entries()) {
      const started = performance.now();
      await callIpc(shellIpc(shell), 'interview.saveDraft', {
        interviewId: INTERVIEWS[0],
        kind: 'notes',
        text: `Nota en curso ${'.'.repeat(i + 1)}`,
      });
      times[s]!.push(performance.now() - started);
    }
  }
  return times.map(median);
}

async function listTime(shell: WebShell, expected: number): Promise<number> {
  const started = performance.now();
  const list = await callIpc<{ hasSessionToken: boolean }[]>(shellIpc(shell), 'queue.list');
  const elapsed = performance.now() - started;
  if (list.filter((e) => e.hasSessionToken).length < expected)
    throw new Error(`the queue lost its tokens (${list.length} entries)`);
  return elapsed;
}

export default async function growthBench(): Promise<Record<string, number>> {
  const work = await mkdtemp(join(tmpdir(), 'omni-growth-bench-'));
  const dirs = { small: join(work, 'small'), trail: join(work, 'trail'), large: join(work, 'large') };
  await mkdir(dirs.trail);
  // Written as an earlier version left it: imported into the review record at start.
  await writeFile(join(dirs.trail, LEGACY_AUDIT_FILE), trailOf(LONG_TRAIL));
  const shells: WebShell[] = [];
  try {
    const small = await shellWith(dirs.small, SMALL_QUEUE);
    const trail = await shellWith(dirs.trail, SMALL_QUEUE);
    const large = await shellWith(dirs.large, LARGE_QUEUE);
    shells.push(small, trail, large);
    // The shell must have read the trail written for it, or the figure would compare two new trails.
    const read = await callIpc<{ entries: unknown[]; chain: { ok: boolean } }>(shellIpc(trail), 'app.auditTrail');
    if (read.entries.length < LONG_TRAIL || !read.chain.ok)
      throw new Error(`the long trail was not read whole (${read.entries.length} entries)`);
    const [smallOpen, trailOpen, largeOpen] = await openings([small, trail, large]);
    const [smallSave, largeSave] = await draftSaves([small, large]);

    // Restarted: no token has been decrypted in this run yet.
    for (const shell of shells.splice(0)) await shell.close();
    const smallAgain = await startWebShell({ dataDir: dirs.small, staticDir: dirs.small });
    shells.push(smallAgain);
    const largeAgain = await startWebShell({ dataDir: dirs.large, staticDir: dirs.large });
    shells.push(largeAgain);
    const lists = { small: [] as number[], large: [] as number[] };
    for (let i = 0; i < LISTINGS; i++) {
      lists.small.push(await listTime(smallAgain, SMALL_QUEUE));
      lists.large.push(await listTime(largeAgain, LARGE_QUEUE));
    }
    const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000;
    return {
      'open-calls-20k-trail-ratio': ratio(trailOpen!, smallOpen!),
      'open-calls-5000-queue-ratio': ratio(largeOpen!, smallOpen!),
      'queue-list-5000-tokens-ratio': ratio(median(lists.large), median(lists.small)),
      'draft-save-5000-queue-ratio': ratio(largeSave!, smallSave!),
    };
  } finally {
    for (const shell of shells) await shell.close();
    await rm(work, { recursive: true, force: true });
  }
}
