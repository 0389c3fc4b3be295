import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { ClaimRecords } from '../main/record/claim-records';
import { openRecord, reviewRecord } from '../main/record/index';
import type { RecordDatabase } from '../main/record/schema';
import { startPostgres } from '../test/helpers/postgres';
import type { Targets } from './targets';

/**
 * The shared queue on a real PostgreSQL server (Debian's package, started for the bench): 20 analysts, each with
 * their own login and connection, press "Take next" as fast as they can until 2,000 interviews are all claimed.
 *
 * - `claims-double`: interviews claimed by more than one of them (each counted once per extra claim): must be 0.
 * - `claims-per-s`: claims made per second by the twenty together, beside it (no target: it depends on the machine).
 */
export const targets: Targets = {
  'claims-double': { atMost: 0 },
};

const CLIENTS = 20;
const INTERVIEWS = 2_000;
const ENVIRONMENT = 'bench';

export default async function claimsBench(): Promise<Record<string, number>> {
  const server = await startPostgres();
  const clients: Kysely<RecordDatabase>[] = [];
  try {
    const database = await server.createDatabase('claims_bench');
    const owner = await openRecord({
      kind: 'team',
      host: server.host,
      port: server.port,
      user: server.user,
      database,
      tls: 'disable',
    });
    try {
      const logins = Array.from({ length: CLIENTS }, (_, i) => `analyst${String(i + 1).padStart(2, '0')}`);
      for (const login of logins) await sql.raw(`create role ${login} login in role omni_reviewer`).execute(owner.db);
      await reviewRecord(owner).queue.put(
        ENVIRONMENT,
        Array.from({ length: INTERVIEWS }, (_, i) => ({
          interviewId: `claim-${String(i).padStart(5, '0')}`,
          addedAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
          localState: 'toReview' as const,
        })),
      );
      for (const user of logins)
        clients.push(
          new Kysely<RecordDatabase>({
            dialect: new PostgresDialect({
              pool: new pg.Pool({ host: server.host, port: server.port, user, database, max: 1 }),
            }),
          }),
        );
      // Every connection open before the clock starts.
      await Promise.all(clients.map((db) => db.selectFrom('team_settings').select('lease_minutes').execute()));

      const started = performance.now();
      const taken = await Promise.all(
        clients.map(async (db) => {
          const claims = new ClaimRecords(db);
          const mine: string[] = [];
          for (let claim = await claims.takeNext(ENVIRONMENT); claim; claim = await claims.takeNext(ENVIRONMENT))
            mine.push(claim.interviewId);
          return mine;
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const all = taken.flat();
      const distinct = new Set(all).size;
      if (distinct !== INTERVIEWS) throw new Error(`${distinct} of ${INTERVIEWS} interviews were claimed`);
      return {
        'claims-double': all.length - distinct,
        'claims-per-s': Math.round(all.length / seconds),
      };
    } finally {
      await owner.close();
    }
  } finally {
    await Promise.all(clients.map((db) => db.destroy()));
    await server.stop();
  }
}
