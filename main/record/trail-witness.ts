import { type Kysely, sql } from 'kysely';
import type { JsonStore } from '../json-store';
import type { ChainStatus } from '../ports';
import type { TrailWitness, WitnessedHead } from './audit-records';
import type { RecordDatabase } from './schema';

/** Settings key of the heads this app saw, one per record (embedded, or a team database by login, host and name). */
export const WITNESS_KEY = 'record.witnessedHeads';
/** How often a running app looks for changed rows on a team database: a change is seen well within a second. */
const LOOK_EVERY_MS = 250;

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
  /** The next verify reads the whole trail again. */
  suspect(): void;
}

/**
 * Looks for changes the triggers would not announce (the owner's, with them off): cheap signs, often. A row updated or
 * deleted counts in the server's own statistics (`pg_stat_user_tables`, which only a superuser resets), a trigger
 * disabled shows in `pg_trigger`, and a trail cut short has a lower head. Any of them, and the whole trail is verified
 * again; new entries are verified from the witnessed head. `onChecked` hears each result.
 */
export function watchTrail(
  db: Kysely<RecordDatabase>,
  trail: WatchedTrail,
  onChecked: (status: ChainStatus) => void,
  everyMs = LOOK_EVERY_MS,
): { stop(): void } {
  let last: { changed: string; disabled: number; head: number } | undefined;
  let looking = false;
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
      const changedRows = last !== undefined && (now.changed !== last.changed || now.head < last.head);
      if (changedRows || now.disabled > 0) trail.suspect();
      if (last === undefined || changedRows || now.disabled > 0 || now.head !== last.head)
        onChecked(await trail.verify());
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
