import { Kysely, PostgresDialect } from 'kysely';
import pg, { type PoolConfig } from 'pg';
import { migrateToLatest } from './migrate';
import { startEmbedded, teamConnection, type RecordEngine, type RunningEngine } from './engines';
import { listenOnPool, listenOnServer, type RecordEvents } from './record-events';
import type { RecordDatabase } from './schema';

/** An open review record: typed queries through `db`, on whichever engine holds it. */
export interface OpenRecord {
  db: Kysely<RecordDatabase>;
  engine: RecordEngine['kind'];
  /** Which record this is, to key what the app remembers of it: `embedded`, or the team login, server and database. */
  identity: string;
  /** What the record announces (claims, decisions, queue changes), on either engine. */
  events: RecordEvents;
  /**
   * What a thread of the app may connect with for a long read of its own (the chain walker): a team's server only.
   * The embedded engine is one PGlite session, which a second connection would share mid-transaction.
   */
  threadConnection?: PoolConfig;
  /** Made at this start (embedded, its folder was empty): this computer's first run, as far as the record knows. */
  isNew: boolean;
  close(): Promise<void>;
}

/** Starts (embedded) or reaches (team) the engine, brings its schema up to date, and hands out typed queries. */
export async function openRecord(engine: RecordEngine): Promise<OpenRecord> {
  const running: RunningEngine =
    engine.kind === 'embedded' ? await startEmbedded(engine.dataDir) : teamConnection(engine, engine.waits);
  const pool = new pg.Pool({ ...running.connection, max: running.maxConnections });
  // An idle connection the server dropped (a restart, a network cut) is an error on the pool, not a crash of main.
  pool.on('error', () => undefined);
  // The same for a connection in use when the server goes: its query fails (and is handled there); the client's own
  // 'error' event would otherwise be an uncaught exception.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const events = engine.kind === 'embedded' ? listenOnPool(pool) : listenOnServer(running.connection);
  const db = new Kysely<RecordDatabase>({ dialect: new PostgresDialect({ pool }) });
  try {
    if (engine.kind === 'team') await migrateWithoutLockWait(running.connection);
    else await migrateToLatest(db as Kysely<unknown>);
    await running.keepAsTemplate?.();
  } catch (error) {
    await events.close();
    await db.destroy();
    await running.stop();
    throw error;
  }
  return {
    db,
    engine: engine.kind,
    identity:
      engine.kind === 'embedded' ? 'embedded' : `${engine.user}@${engine.host}:${engine.port}/${engine.database}`,
    events,
    isNew: running.isNew === true,
    ...(engine.kind === 'team' ? { threadConnection: running.connection } : {}),
    async close() {
      await events.close();
      await db.destroy();
      await running.stop();
    },
  };
}

/**
 * The owner's update of a team database waits for the tables it changes as long as the analysts' sessions hold them,
 * not the 20 s an analyst's change waits (engines.ts, `LockWaits`): on its own connection, closed when it is done.
 */
async function migrateWithoutLockWait(connection: PoolConfig): Promise<void> {
  const { lock_timeout: _waitsAsLongAsNeeded, ...rest } = connection as PoolConfig & { lock_timeout?: number };
  const pool = new pg.Pool({ ...rest, max: 1 });
  pool.on('error', () => undefined);
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}
