import { createHash } from 'node:crypto';
import type { AuditEntry } from '../../common/views';

/** The audit trail's hash chain: each entry's hash covers its content and the previous entry's hash. */
export const GENESIS_HASH = '0'.repeat(64);

/** JSON with object keys sorted at every level, so the same content always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** An entry's hash over everything but the hash; `actor` counts only where present (older entries have none). */
export function entryHash(entry: Omit<AuditEntry, 'hash'>): string {
  return createHash('sha256').update(canonicalJson(entry)).digest('hex');
}

/** The fields of an entry the database hashes (hash version 2), `detail` as the exact JSON text it keeps. */
export interface ChainFieldsV2 {
  seq: number;
  at: string;
  environment: string;
  interviewId: string | undefined;
  action: string;
  actor: string;
  detailText: string;
  prevHash: string;
}

/**
 * Hash version 2, the database's own (migration 0006, `audit_entries_chain`): one line a field, each field JSON text as
 * PostgreSQL's `to_json` writes it (JSON.stringify writes the same for text), `detail` last as stored. Kept
 * byte-for-byte equal to the SQL; the record tests check the two agree.
 */
export function entryHashV2(e: ChainFieldsV2): string {
  return createHash('sha256').update(entryPreimageV2(e)).digest('hex');
}

/**
 * The exact text hash version 2 hashes: `sha256sum` of it (as UTF-8, no trailing newline) is the entry's hash. An
 * evidence file carries it so an auditor can recompute the hash with stock tools (docs/evidence.md).
 */
export function entryPreimageV2(e: ChainFieldsV2): string {
  const lines = [
    'omni-audit-v2',
    e.prevHash,
    String(e.seq),
    JSON.stringify(e.at),
    JSON.stringify(e.environment),
    e.interviewId === undefined ? 'null' : JSON.stringify(e.interviewId),
    JSON.stringify(e.action),
    JSON.stringify(e.actor),
    e.detailText,
  ];
  return lines.join('\n');
}

/** The exact text hash version 1 (entries of earlier versions, kept as imported) hashes: canonical JSON of the entry. */
export function entryPreimageV1(entry: Omit<AuditEntry, 'hash'>): string {
  return canonicalJson(entry);
}
