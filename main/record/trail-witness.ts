import { type Kysely, sql } from 'kysely';
import type { JsonStore } from '../json-store';
import type { ChainStatus } from '../ports';
import type { TrailWitness, WitnessedHead } from './audit-records';
import type { RecordDatabase } from './schema';

/** Settings key of the heads this app saw, one per record (embedded, or a team database by login, host and name). */
export const WITNESS_KEY = 'record.witnessedHeads';
/** How often a running app looks at the cheap signs (the server's row counts, the triggers, the head). */
const LOOK_EVERY_MS = 250;
/**
 * How often it scans for rows written or changed since its last check whatever the signs say: the server publishes a
 * session's row counts only when that session goes idle, and not always at once, so the counts alone can lag by
 * seconds. One scan of the table (`xmin`), measured in bench/trail.bench.ts (`trail-scan-1m-ms`): at most every
 * three quarters of a second (so a change is seen within a second), and never more than a twentieth of the database's time (a trail whose scan takes 200 ms is scanned every
 * 4 s).
 */
const SCAN_EVERY_MS = 750;
const SCAN_SHARE = 20;

/** The head this app saw of one record, kept in its data folder (the settings file, 0600), outside the database. */
export function storeWitness(store: JsonStore, identity: string): TrailWitness {
  const all = () => store.get<Record<string, WitnessedHead>>(WITNESS_KEY) ?? {};
  return {
    load: () => all()[identity],
    save: (head) => store.set(WITNESS_KEY, { ...all(), [identity]: head }),
  };
}

export interface WatchedTrail {
  verify(): Promise<ChainStatus>;
  /** The next verify checks the rows written or changed since the last one. */
  suspect(): void;
  /** The next verify reads the whole trail again. */
  distrust(): void;
}

/** However quiet the signs, the whole trail is verified again this often (in pages, between other queries). */
const WHOLE_TRAIL_EVERY_MS = 10 * 60_000;

/**
 * Looks for changes the triggers would not announce (the owner's, with them off): cheap signs, often. A row updated or
 * deleted counts in the server's own statistics (`pg_stat_user_tables`, which only a superuser resets), a trigger
 * disabled shows in `pg_trigger`, and a trail cut short has a lower head; each second, whatever the signs, the rows
 * written or changed since the last check are looked for. Any of them, and those rows are checked (their hashes and
 * links); new entries are verified from the witnessed head; the whole trail now and then. `onChecked` hears each.
 */
export function watchTrail(
  db: Kysely<RecordDatabase>,
  trail: WatchedTrail,
  onChecked: (status: ChainStatus) => void,
  everyMs = LOOK_EVERY_MS,
): { stop(): void } {
  let last: { changed: string; disabled: number; head: number } | undefined;
  let looking = false;
  let wholeAt = Date.now();
  let scannedAt = Date.now();
  /** How long the last scan's check took: the next waits twenty times as long, so the scans stay a small share. */
  let scanMs = 0;
  const look = async () => {
    if (looking) return;
    looking = true;
    try {
      const { rows } = await sql<{ changed: string | null; disabled: number; head: number | null }>`
        select
          (select n_tup_upd + n_tup_del from pg_stat_user_tables where relid = 'audit_entries'::regclass)::text
            as changed,
          (select count(*) from pg_trigger where tgrelid = 'audit_entries'::regclass and tgenabled = 'D')::int
            as disabled,
          (select max(seq) from audit_entries) as head`.execute(db);
      const now = { changed: rows[0]?.changed ?? '0', disabled: rows[0]?.disabled ?? 0, head: rows[0]?.head ?? 0 };
      const scan = Date.now() - scannedAt >= Math.max(SCAN_EVERY_MS, scanMs * SCAN_SHARE);
      if (scan) scannedAt = Date.now();
      const changedRows = last !== undefined && (scan || now.changed !== last.changed || now.head < last.head);
      if (changedRows || now.disabled > 0) trail.suspect();
      const whole = Date.now() - wholeAt >= WHOLE_TRAIL_EVERY_MS;
      if (whole) {
        trail.distrust();
        wholeAt = Date.now();
      }
      if (last === undefined || whole || changedRows || now.disabled > 0 || now.head !== last.head) {
        const started = Date.now();
        onChecked(await trail.verify());
        if (scan) scanMs = Date.now() - started;
      }
      last = now;
    } catch {
      // The database away is the away banner's to say; the next look tries again.
    } finally {
      looking = false;
    }
  };
  const timer = setInterval(() => void look(), everyMs);
  timer.unref?.();
  void look();
  return { stop: () => clearInterval(timer) };
}
