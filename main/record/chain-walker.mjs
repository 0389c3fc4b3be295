// The audit trail walked on a thread of its own, through a connection of its own to a team's server, so main keeps
// answering while a million entries are read and hashed (bench/trail.bench.ts). Plain JavaScript, as
// embedded-worker.mjs, so it runs as it is from the sources and from the build.
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import { extendChain } from './chain-hash.mjs';

// At most PAGE entries a query, each query cut where their details pass PAGE_BYTES (one entry at least): any login may
// write entries of 256 KiB, and 10,000 of them held 2.6 GB (red team 15). As audit-records.ts's chainPages: the sizes
// first, then each page by its range of seq.
const PAGE = 10_000;
const PAGE_BYTES = 32 * 1024 * 1024;
const sizes = (client, after) =>
  client.query({
    text: `select seq, octet_length(detail::text) as bytes from audit_entries where seq > $1 order by seq limit ${PAGE}`,
    values: [after],
  });
const rowsBetween = (client, after, upTo) =>
  client.query({
    text: `select seq, at, environment, interview_id, action, actor, detail::text as detail_text, prev_hash, hash,
             hash_version
           from audit_entries where seq > $1 and seq <= $2 order by seq`,
    values: [after, upTo],
  });

/** From `from` (a verified count and head hash) to the end: the new head, or the first entry that breaks the chain. */
async function walk(client, from) {
  let walked = { ok: true, ...from };
  for (let after = from.count; ;) {
    const { rows: sized } = await sizes(client, after);
    for (let start = 0; start < sized.length;) {
      let end = start + 1;
      for (let bytes = Number(sized[start].bytes); end < sized.length; end++) {
        bytes += Number(sized[end].bytes);
        if (bytes > PAGE_BYTES) break;
      }
      const { rows } = await rowsBetween(client, start === 0 ? after : sized[start - 1].seq, sized[end - 1].seq);
      walked = extendChain(walked, rows);
      if (!walked.ok) return walked;
      start = end;
    }
    if (sized.length < PAGE) return walked;
    after = sized[sized.length - 1].seq;
  }
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
