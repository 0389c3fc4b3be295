// The audit trail's hashes, in plain JavaScript: main imports them through audit-chain.ts, and the chain walker's
// thread (chain-walker.mjs) imports them as they are, from the sources and from the build alike.
import { createHash } from 'node:crypto';

/** The previous hash of the first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** JSON with object keys sorted at every level, so the same content always hashes the same. */
export function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Hash version 1 (entries written before migration 0006): over the entry's canonical JSON, all but its hash. */
export function entryHash(entry) {
  return createHash('sha256').update(entryPreimageV1(entry)).digest('hex');
}

/** The exact text hash version 1 hashes (entries of earlier versions, kept as imported): the entry's canonical JSON. */
export function entryPreimageV1(entry) {
  return canonicalJson(entry);
}

/**
 * Hash version 2, the database's own (migration 0006, `audit_entries_chain`): one line a field, each field JSON text as
 * PostgreSQL's `to_json` writes it (JSON.stringify writes the same for text), `detail` last as stored. Kept
 * byte-for-byte equal to the SQL; the record tests check the two agree.
 */
export function entryPreimageV2(e) {
  return [
    'omni-audit-v2',
    e.prevHash,
    String(e.seq),
    JSON.stringify(e.at),
    JSON.stringify(e.environment),
    e.interviewId === undefined ? 'null' : JSON.stringify(e.interviewId),
    JSON.stringify(e.action),
    JSON.stringify(e.actor),
    e.detailText,
  ].join('\n');
}

export function entryHashV2(e) {
  return createHash('sha256').update(entryPreimageV2(e)).digest('hex');
}

/** A stored row's hash as its version computes it, from the columns as read (`detail` as its JSON text). */
export function chainRowHash(row) {
  return createHash('sha256').update(chainRowPreimage(row)).digest('hex');
}

/**
 * The exact text a stored row's hash covers, whichever version it was hashed with: `sha256sum` of it (as UTF-8, no
 * trailing newline) is the entry's hash. An evidence file carries it (docs/evidence.md).
 */
export function chainRowPreimage(row) {
  if (row.hash_version === 2) return entryPreimageV2(chainFieldsOf(row));
  return entryPreimageV1({
    seq: row.seq,
    at: row.at,
    environment: row.environment,
    ...(row.interview_id !== null ? { interviewId: row.interview_id } : {}),
    action: row.action,
    detail: JSON.parse(row.detail_text),
    prevHash: row.prev_hash,
    ...(row.actor !== null ? { actor: row.actor } : {}),
  });
}

/** The fields hash version 2 covers, from a stored row. */
export function chainFieldsOf(row) {
  return {
    seq: row.seq,
    at: row.at,
    environment: row.environment,
    interviewId: row.interview_id ?? undefined,
    action: row.action,
    actor: row.actor ?? '',
    detailText: row.detail_text,
    prevHash: row.prev_hash,
  };
}

/**
 * The chain extended by the next rows (in order): the new head, or where it breaks (a gap, a wrong link, or a row
 * whose content no longer hashes to its hash). `walk` is the verified head the rows follow.
 */
export function extendChain(walk, rows) {
  let { count, hash } = walk;
  for (const row of rows) {
    const seq = count + 1;
    if (row.seq !== seq || row.prev_hash !== hash || chainRowHash(row) !== row.hash)
      return { ok: false, brokenAt: seq };
    count = seq;
    hash = row.hash;
  }
  return { ok: true, count, hash };
}
