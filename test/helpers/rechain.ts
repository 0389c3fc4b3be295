import type pg from 'pg';
import { chainFieldsOf, entryHashV2, GENESIS_HASH, type ChainRow } from '../../main/record/audit-chain';

/**
 * Re-computes every audit entry's hash from the first on, as a tables' owner covering their tracks would after
 * changing an entry with the append-only trigger off: the chain is consistent again, only a witness or a checkpoint
 * can tell.
 */
export async function rechainTrail(client: pg.Client): Promise<void> {
  const { rows } = await client.query<ChainRow>(
    `select seq, at, environment, interview_id, action, actor, detail::text as detail_text, prev_hash, hash_version
     from audit_entries order by seq`,
  );
  let prev = GENESIS_HASH;
  for (const r of rows) {
    const hash = entryHashV2(chainFieldsOf({ ...r, prev_hash: prev }));
    await client.query(`update audit_entries set prev_hash = $1, hash = $2 where seq = $3`, [prev, hash, r.seq]);
    prev = hash;
  }
}
