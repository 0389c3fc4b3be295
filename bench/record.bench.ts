import { spawnSync } from 'node:child_process';
import { sql } from 'kysely';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { QueueQuery } from '../common/ipc/queue';
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
 *   100,000 interviews in the queue, after the queue screen's first page and counts: in a new process, its RSS then
 *   minus before it opened the database (bench/record-rss-child.ts).
 * - `queue-100k-vs-1k-first-page-ratio`: the time until the queue's first rows can be shown (the first page of the
 *   queue screen, filtered, through `ReviewQueue.page` as the `queue.page` channel serves it), with 100,000 interviews
 *   and 1,000,000 audit entries, divided by the same with 1,000 and 10,000.
 * - `start-to-queue-100k-vs-1k-ratio`: app start (opening the record, its engine and migrations) to that first page,
 *   at the same two sizes.
 * - `queue-view-100k-vs-1k-first-page-ratio`: the same first page through a view whose filters are subqueries (the
 *   ready-made "unclaimed, to review" and "high risk" views, one page each), a tenth of the interviews claimed and a
 *   tenth filed as high risk, at the same two sizes.
 */
export const targets: Targets = {
  'embedded-db-extra-rss-mb': { atMost: 150 },
  'queue-100k-vs-1k-first-page-ratio': { atMost: 1.5 },
  'start-to-queue-100k-vs-1k-ratio': { atMost: 1.3 },
  'queue-view-100k-vs-1k-first-page-ratio': { atMost: 1.5 },
};

/** The queue screen's first page (renderer/api/queue.ts, QUEUE_PAGE rows), filtered as an analyst's day starts. */
export const FIRST_PAGE = 100;
export const FIRST_VIEW: QueueQuery = { filter: { state: 'toReview', status: 'all' }, sort: 'added', search: '' };
/** Ready-made views (renderer/features/interviews/QueueViews.tsx) whose filters look into other tables or columns. */
const SCOPED_VIEWS: QueueQuery[] = [
  { ...FIRST_VIEW, filter: { state: 'toReview', status: 'all', holder: 'unclaimed' } },
  { ...FIRST_VIEW, filter: { state: 'all', status: 'all', risk: 'high' } },
];

const LARGE = { interviews: 100_000, audit: 1_000_000 };
const SMALL = { interviews: 1_000, audit: 10_000 };
const LISTINGS = 5;
const STARTS = 3;

async function fill(record: OpenRecord, size: { interviews: number; audit: number }) {
  const { queue } = reviewRecord(record);
  const addedAt = Date.UTC(2026, 0, 1);
  await queue.put(
    'demo',
    Array.from({ length: size.interviews }, (_, i) => ({
      interviewId: `bench-${String(i).padStart(6, '0')}`,
      addedAt: new Date(addedAt + i * 1000).toISOString(),
      localState: i % 3 === 0 ? ('decided' as const) : ('toReview' as const),
      ...(i % 10 === 1 ? { risk: 'high' } : {}),
    })),
  );
  // A tenth held by someone, spread over the queue.
  await sql`
    insert into claims (environment, interview_id, holder, expires_at)
    select environment, interview_id, 'someone', now() + interval '1 day'
    from queue_entries where environment = 'demo' and interview_id like '%5'`.execute(record.db);
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

/** The queue as the app builds it (review/service.ts): last openings from the audit trail, tokens from the vault. */
export function appQueue(record: OpenRecord): ReviewQueue {
  const audit = recordAuditTrail(record.db, () => 'demo');
  return new ReviewQueue(
    reviewRecord(record).queue,
    new MemoryVault(),
    () => 'demo',
    (env, ids) => audit.lastRecorded('opened', env, ids),
  );
}

async function firstPage(record: OpenRecord): Promise<void> {
  const page = await appQueue(record).page(FIRST_VIEW, undefined, FIRST_PAGE);
  if (page.rows.length !== FIRST_PAGE || !page.next) throw new Error(`a first page of ${page.rows.length} rows`);
}

async function firstPageTime(record: OpenRecord): Promise<number> {
  const started = performance.now();
  await firstPage(record);
  return performance.now() - started;
}

/** The first page of each scoped view, one after the other. */
async function scopedPagesTime(record: OpenRecord): Promise<number> {
  const queue = appQueue(record);
  const started = performance.now();
  for (const view of SCOPED_VIEWS) {
    const page = await queue.page(view, undefined, FIRST_PAGE);
    if (page.rows.length !== FIRST_PAGE) throw new Error(`a scoped first page of ${page.rows.length} rows`);
  }
  return performance.now() - started;
}

/** From opening the record (engine, migrations) to its first queue page, the record closed again after. */
async function startTime(dataDir: string): Promise<number> {
  const started = performance.now();
  const record = await openRecord({ kind: 'embedded', dataDir });
  try {
    await firstPage(record);
    return performance.now() - started;
  } finally {
    await record.close();
  }
}

/** The embedded database's share of RSS, measured in a process of its own (record-rss-child.ts). */
function extraRssMb(dataDir: string, expected: number): number {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./record-rss-child.ts', import.meta.url)), dataDir],
    { encoding: 'utf8', timeout: 120_000 },
  );
  const { extra, total } = JSON.parse(child.stdout) as { extra: number; total: number };
  if (total !== expected) throw new Error(`counted ${total} of ${expected}: ${child.stderr}`);
  return extra;
}

export default async function recordBench(): Promise<Record<string, number>> {
  const work = await mkdtemp(join(tmpdir(), 'omni-record-bench-'));
  try {
    const large = await openRecord({ kind: 'embedded', dataDir: join(work, 'large') });
    const small = await openRecord({ kind: 'embedded', dataDir: join(work, 'small') });
    const times = { large: [] as number[], small: [] as number[] };
    const starts = { large: [] as number[], small: [] as number[] };
    const scoped = { large: [] as number[], small: [] as number[] };
    try {
      await fill(large, LARGE);
      await fill(small, SMALL);
      for (let i = 0; i < LISTINGS; i++) {
        times.large.push(await firstPageTime(large));
        times.small.push(await firstPageTime(small));
        scoped.large.push(await scopedPagesTime(large));
        scoped.small.push(await scopedPagesTime(small));
      }
    } finally {
      await large.close();
      await small.close();
    }
    for (let i = 0; i < STARTS; i++) {
      starts.large.push(await startTime(join(work, 'large')));
      starts.small.push(await startTime(join(work, 'small')));
    }
    const ratio = (of: { large: number[]; small: number[] }) =>
      Math.round((median(of.large) / median(of.small)) * 100) / 100;
    console.error(
      `record bench (median ms): first page ${median(times.large).toFixed(1)} vs ${median(times.small).toFixed(1)},`,
      `start to first page ${median(starts.large).toFixed(0)} vs ${median(starts.small).toFixed(0)},`,
      `scoped views' first pages ${median(scoped.large).toFixed(1)} vs ${median(scoped.small).toFixed(1)}`,
    );
    return {
      'embedded-db-extra-rss-mb': Math.round(extraRssMb(join(work, 'large'), LARGE.interviews)),
      'queue-100k-vs-1k-first-page-ratio': ratio(times),
      'start-to-queue-100k-vs-1k-ratio': ratio(starts),
      'queue-view-100k-vs-1k-first-page-ratio': ratio(scoped),
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
