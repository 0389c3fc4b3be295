// The audit trail walked on a thread of its own, through a connection of its own to a team's server, so main keeps
// answering while a million entries are read and hashed (bench/trail.bench.ts). Plain JavaScript, as
// embedded-worker.mjs, so it runs as it is from the sources and from the build.
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import { extendChain } from './chain-hash.mjs';
import { CHAIN_PAGE, chainPagesBySize, ENTRY_BYTES_SQL } from './chain-pages.mjs';

const sizesAfter = (client, after) =>
  client
    .query({
      text: `select seq, ${ENTRY_BYTES_SQL} as bytes from audit_entries where seq > $1 order by seq
             limit ${CHAIN_PAGE}`,
      values: [after],
    })
    .then((result) => result.rows);
const rowsBetween = (client, after, upTo) =>
  client
    .query({
      text: `select seq, at, environment, interview_id, action, actor, detail::text as detail_text, prev_hash, hash,
               hash_version
             from audit_entries where seq > $1 and seq <= $2 order by seq`,
      values: [after, upTo],
    })
    .then((result) => result.rows);

/** From `from` (a verified count and head hash) to the end: the new head, or the first entry that breaks the chain. */
async function walk(client, from) {
  let walked = { ok: true, ...from };
  const pages = chainPagesBySize(
    from.count,
    (after) => sizesAfter(client, after),
    (after, upTo) => rowsBetween(client, after, upTo),
  );
  for await (const rows of pages) {
    walked = extendChain(walked, rows);
    if (!walked.ok) return walked;
  }
  return walked;
}

const { connection, password, passwordMissing, from } = workerData;
const client = new pg.Client({
  ...connection,
  // As main's connection does: no password saved for this address, none sent (not PGPASSWORD either).
  password: passwordMissing
    ? () => {
        throw new Error('the team database asked for a password, and none is saved for this address');
      }
    : password,
  application_name: 'omni-reviewer chain walker',
});
try {
  await client.connect();
  parentPort.postMessage(await walk(client, from));
} catch (error) {
  parentPort.postMessage({ failed: error instanceof Error ? error.message : String(error) });
} finally {
  await client.end().catch(() => undefined);
}
