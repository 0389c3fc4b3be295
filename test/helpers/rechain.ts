import type pg from 'pg';
import { entryHashV2 } from '../../main/record/audit-chain';

/**
 * Re-computes every audit entry's hash from the first on, as a tables' owner covering their tracks would after
 * changing an entry with the append-only trigger off: the chain is consistent again, only a witness or a checkpoint
 * can tell.
 */
export async function rechainTrail(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{
    seq: number;
    at: string;
    environment: string;
    interview_id: string | null;
    action: string;
    actor: string | null;
    detail_text: string;
  }>(`select seq, at, environment, interview_id, action, actor, detail::text as detail_text
      from audit_entries order by seq`);
  let prev = '0'.repeat(64);
  for (const r of rows) {
    const hash = entryHashV2({
      seq: r.seq,
      at: r.at,
      environment: r.environment,
      interviewId: r.interview_id ?? undefined,
      action: r.action,
      actor: r.actor ?? '',
      detailText: r.detail_text,
      prevHash: prev,
    });
    await client.query(`update audit_entries set prev_hash = $1, hash = $2 where seq = $3`, [prev, hash, r.seq]);
    prev = hash;
  }
}
