import { chmodSync, existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { AuditEntry, DataFileKind, SetAsideFile } from '../../common/views';
import type { DecisionRecord, DraftKind, Drafts } from '../../common/ipc/interview';
import type { FileJsonStore } from '../json-store';
import type { Logger } from '../log';
import { PRIVATE_FILE_MODE } from '../private-files';
import { entryHash, GENESIS_HASH } from './audit-chain';
import { insertAuditEntries } from './audit-records';
import { DecisionRecords } from './decision-records';
import { DraftRecords } from './draft-records';
import { QueueRecords, type StoredEntry } from './queue-records';
import type { RecordDatabase } from './schema';

/** The files earlier versions kept the review record in, beside the settings file, and their keys' prefixes. */
export const LEGACY_FILES: readonly { kind: Exclude<DataFileKind, 'settings'>; file: string; prefix: string }[] = [
  { kind: 'queue', file: 'omni-reviewer-queue.json', prefix: 'review.queue.' },
  { kind: 'drafts', file: 'omni-reviewer-drafts.json', prefix: 'review.drafts.' },
  { kind: 'decisions', file: 'omni-reviewer-decisions.json', prefix: 'review.decisions.' },
];
export const LEGACY_AUDIT_FILE = 'audit-trail.jsonl';
/** Where the oldest versions kept the trail: one key of the settings file. */
const LEGACY_AUDIT_KEY = 'auditTrail';
const IMPORTED_KEY = 'legacy-json-import';

export interface LegacyImport {
  /** What was imported at this start; absent when there was nothing to import. */
  imported?: { queue: number; drafts: number; decisions: number; audit: number; damagedAuditLines: number };
  /** Files that could not be read, each moved aside unchanged. */
  setAside: SetAsideFile[];
}

/**
 * Brings the JSON files of earlier versions (queue, drafts, decisions, audit trail) into the record, once, at the
 * first start of this version: in one transaction, checked (every row is there, the trail's chain is recomputed),
 * then the files are renamed `*.imported-<time>` beside themselves, never deleted. A file that is not JSON is
 * renamed `*.unreadable-<time>` and the others are still imported; a damaged line of the trail is skipped, and
 * the chain's check then says where the trail breaks, as it did before.
 */
export async function importLegacyFiles(
  db: Kysely<RecordDatabase>,
  dataDir: string,
  settings: FileJsonStore,
  log: Logger,
  now: () => number = Date.now,
): Promise<LegacyImport> {
  const stamp = new Date(now()).toISOString().replace(/[:.]/g, '-');
  const setAside: SetAsideFile[] = [];
  const documents = new Map<string, Record<string, unknown>>();
  const readFiles: string[] = [];
  for (const { kind, file } of LEGACY_FILES) {
    const path = join(dataDir, file);
    if (!existsSync(path)) continue;
    try {
      documents.set(kind, JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>);
      readFiles.push(path);
    } catch {
      const asidePath = path.replace(/\.json$/, `.unreadable-${stamp}.json`);
      keepAside(path, asidePath);
      setAside.push({ kind, path: asidePath });
      log.warn('A file of an earlier version could not be read; it was set aside', { setAsideAs: asidePath });
    }
  }
  const settingsKeys = settings.keys().filter((k) => LEGACY_FILES.some((f) => k.startsWith(f.prefix)));
  const auditPath = join(dataDir, LEGACY_AUDIT_FILE);
  const trail = existsSync(auditPath)
    ? parseTrail(readFileSync(auditPath, 'utf8'))
    : parseTrailEntries(settings.get<unknown[]>(LEGACY_AUDIT_KEY) ?? []);
  if (existsSync(auditPath)) readFiles.push(auditPath);
  const hasLegacyAudit = settings.keys().includes(LEGACY_AUDIT_KEY);
  if (readFiles.length === 0 && settingsKeys.length === 0 && !hasLegacyAudit) return { setAside };

  // A value found both in a file and in the settings (a move an earlier version did not finish): the file's is newer.
  const valueOf = (kind: string, key: string) => documents.get(kind)?.[key] ?? settings.get(key);
  const keysOf = (kind: string, prefix: string) =>
    [...new Set([...Object.keys(documents.get(kind) ?? {}), ...settingsKeys])].filter((k) => k.startsWith(prefix));

  const done = await db.selectFrom('record_meta').select('value').where('key', '=', IMPORTED_KEY).executeTakeFirst();
  let imported: LegacyImport['imported'];
  if (!done) {
    imported = await db.transaction().execute(async (tx) => {
      // The decisions come with their entries of the time, in the trail imported below: none written for them now.
      await sql`select set_config('omni.importing', 'on', true)`.execute(tx);
      const counts = {
        queue: 0,
        drafts: 0,
        decisions: 0,
        audit: trail.entries.length,
        damagedAuditLines: trail.damaged,
      };
      const queue = new QueueRecords(tx);
      for (const key of keysOf('queue', 'review.queue.')) {
        const entries = Object.values(asRecord(valueOf('queue', key)))
          .filter(isStoredEntry)
          .map((entry) => ({ ...entry, localState: entry.localState ?? 'toReview' }));
        await queue.put(key.slice('review.queue.'.length), entries);
        counts.queue += entries.length;
      }
      const drafts = new DraftRecords(tx);
      for (const key of keysOf('drafts', 'review.drafts.'))
        for (const [interviewId, byKind] of Object.entries(asRecord(valueOf('drafts', key))))
          for (const [kind, draft] of Object.entries(asRecord(byKind) as Drafts)) {
            if (typeof draft?.text !== 'string' || typeof draft.updatedAt !== 'string') continue;
            await drafts.put(key.slice('review.drafts.'.length), interviewId, kind as DraftKind, draft);
            counts.drafts++;
          }
      const decisions = new DecisionRecords(tx);
      for (const key of keysOf('decisions', 'review.decisions.'))
        for (const [interviewId, records] of Object.entries(asRecord(valueOf('decisions', key))))
          for (const record of Array.isArray(records) ? (records as DecisionRecord[]) : []) {
            const environment = record.environment ?? key.slice('review.decisions.'.length);
            await decisions.add(interviewId, { ...record, environment, status: 'final' });
            counts.decisions++;
          }
      await insertAuditEntries(tx, trail.entries);
      const stored = await tx
        .selectFrom('audit_entries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      if (Number(stored.n) !== trail.entries.length) throw new Error('the audit trail was not imported whole');
      await tx
        .insertInto('record_meta')
        .values({ key: IMPORTED_KEY, value: JSON.stringify({ at: new Date(now()).toISOString(), ...counts }) })
        .execute();
      return counts;
    });
    const chain = chainOf(trail.entries);
    log.info('The review record of an earlier version was imported', { ...imported, chain });
  }
  // Kept aside, not deleted; the settings keep only settings.
  for (const path of readFiles) keepAside(path, `${path}.imported-${stamp}`);
  for (const key of [...settingsKeys, ...(hasLegacyAudit ? [LEGACY_AUDIT_KEY] : [])]) settings.delete(key);
  return { ...(imported ? { imported } : {}), setAside };
}

/** Renamed beside itself, readable by this user only (the files hold notes and names). */
function keepAside(path: string, asidePath: string) {
  renameSync(path, asidePath);
  if (process.platform !== 'win32') chmodSync(asidePath, PRIVATE_FILE_MODE);
}

/** Where the imported chain breaks, if it does (the same answer the trail's file gave). */
function chainOf(entries: AuditEntry[]): { ok: true } | { ok: false; brokenAt: number } {
  let prevHash = GENESIS_HASH;
  for (let i = 0; i < entries.length; i++) {
    const { hash, ...body } = entries[i]!;
    if (body.seq !== i + 1 || body.prevHash !== prevHash || entryHash(body) !== hash)
      return { ok: false, brokenAt: i + 1 };
    prevHash = hash;
  }
  return { ok: true };
}

function parseTrail(text: string): { entries: AuditEntry[]; damaged: number } {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const parsed = lines.map((line) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      return null;
    }
  });
  return parseTrailEntries(parsed);
}

/** Entries in order of `seq`; lines that are not entries, or repeat a seq, are counted as damaged. */
function parseTrailEntries(values: unknown[]): { entries: AuditEntry[]; damaged: number } {
  const entries: AuditEntry[] = [];
  let damaged = 0;
  for (const value of values) {
    if (isAuditEntry(value) && value.seq > (entries.at(-1)?.seq ?? 0)) entries.push(value);
    else damaged++;
  }
  return { entries, damaged };
}

function isAuditEntry(value: unknown): value is AuditEntry {
  const v = value as Partial<AuditEntry> | null;
  return (
    v !== null &&
    typeof v === 'object' &&
    Number.isInteger(v.seq) &&
    typeof v.at === 'string' &&
    typeof v.environment === 'string' &&
    typeof v.action === 'string' &&
    typeof v.detail === 'object' &&
    v.detail !== null &&
    typeof v.prevHash === 'string' &&
    typeof v.hash === 'string'
  );
}

function isStoredEntry(value: unknown): value is StoredEntry {
  const v = value as Partial<StoredEntry> | null;
  return v !== null && typeof v === 'object' && typeof v.interviewId === 'string' && typeof v.addedAt === 'string';
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
