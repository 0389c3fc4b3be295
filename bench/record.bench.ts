import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AuditEntry } from '../common/views';
import { MemoryVault } from '../main/auth/memory-vault';
import { entryHash, GENESIS_HASH } from '../main/record/audit-chain';
import { insertAuditEntries, recordAuditTrail } from '../main/record/audit-records';
import { openRecord, reviewRecord, type OpenRecord } from '../main/record/index';
import { ReviewQueue } from '../main/review/queue';
import { median } from './support';
import type { Targets } from './targets';

/**
 * The review record on the embedded engine (PGlite on its own thread), each figure against a baseline in the same run:
 *
 * - `embedded-db-extra-rss-mb`: what the embedded database adds to the app's memory (RSS, its thread included) with
 *   100,000 interviews in the queue, after a listing: in a new process, its RSS then minus before it opened the
 *   database (bench/record-rss-child.ts).
 * - `queue-100k-vs-1k-first-page-ratio`: the time until the queue's first rows can be shown (the listing the queue
 *   screen asks for), with 100,000 interviews and 1,000,000 audit entries, divided by the same with 1,000 and 10,000.
 *   The screen asks for the whole queue and filters it itself, so this grows with the queue; see docs/bench.md.
 */
export const targets: Targets = {
  'embedded-db-extra-rss-mb': { atMost: 150 },
  'queue-100k-vs-1k-first-page-ratio': { atMost: 1.5 },
};

const LARGE = { interviews: 100_000, audit: 1_000_000 };
const SMALL = { interviews: 1_000, audit: 10_000 };
const LISTINGS = 5;

async function fill(record: OpenRecord, size: { interviews: number; audit: number }) {
  const { queue } = reviewRecord(record);
  const addedAt = Date.UTC(2026, 0, 1);
  await queue.put(
    'demo',
    Array.from({ length: size.interviews }, (_, i) => ({
      interviewId: `bench-${String(i).padStart(6, '0')}`,
      addedAt: new Date(addedAt + i * 1000).toISOString(),
      localState: i % 3 === 0 ? ('decided' as const) : ('toReview' as const),
    })),
  );
  let prevHash = GENESIS_HASH;
  const actions = ['opened', 'played', 'noted', 'decided'] as const;
  for (let start = 0; start < size.audit; start += 50_000) {
    const entries: AuditEntry[] = [];
    for (let seq = start + 1; seq <= Math.min(start + 50_000, size.audit); seq++) {
      const body = {
        seq,
        at: new Date(addedAt + seq * 1000).toISOString(),
        environment: 'demo',
        interviewId: `bench-${String(seq % size.interviews).padStart(6, '0')}`,
        action: actions[seq % 4]!,
        detail: {},
        prevHash,
      };
      prevHash = entryHash(body);
      entries.push({ ...body, hash: prevHash });
    }
    await insertAuditEntries(record.db, entries);
  }
}

async function listingTime(record: OpenRecord, expected: number): Promise<number> {
  const audit = recordAuditTrail(record.db, () => 'demo');
  const queue = new ReviewQueue(
    reviewRecord(record).queue,
    new MemoryVault(),
    () => 'demo',
    (env) => audit.lastRecorded('opened', env),
  );
  const started = performance.now();
  const list = await queue.list();
  const elapsed = performance.now() - started;
  if (list.length !== expected) throw new Error(`listed ${list.length} of ${expected}`);
  return elapsed;
}

/** The embedded database's share of RSS, measured in a process of its own (record-rss-child.ts). */
function extraRssMb(dataDir: string, expected: number): number {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./record-rss-child.ts', import.meta.url)), dataDir],
    { encoding: 'utf8', timeout: 120_000 },
  );
  const { extra, listed } = JSON.parse(child.stdout) as { extra: number; listed: number };
  if (listed !== expected) throw new Error(`listed ${listed} of ${expected}: ${child.stderr}`);
  return extra;
}

export default async function recordBench(): Promise<Record<string, number>> {
  const work = await mkdtemp(join(tmpdir(), 'omni-record-bench-'));
  try {
    const large = await openRecord({ kind: 'embedded', dataDir: join(work, 'large') });
    const small = await openRecord({ kind: 'embedded', dataDir: join(work, 'small') });
    const times = { large: [] as number[], small: [] as number[] };
    try {
      await fill(large, LARGE);
      await fill(small, SMALL);
      for (let i = 0; i < LISTINGS; i++) {
        times.large.push(await listingTime(large, LARGE.interviews));
        times.small.push(await listingTime(small, SMALL.interviews));
      }
    } finally {
      await large.close();
      await small.close();
    }
    return {
      'embedded-db-extra-rss-mb': Math.round(extraRssMb(join(work, 'large'), LARGE.interviews)),
      'queue-100k-vs-1k-first-page-ratio': Math.round((median(times.large) / median(times.small)) * 100) / 100,
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
