/** Types of chain-hash.mjs (plain JavaScript, so the chain walker's thread can import it as it is). */
export declare const GENESIS_HASH: string;
export declare function canonicalJson(value: unknown): string;
/** Any entry body: the AuditEntry without its hash, or an older one without `actor`. */
export declare function entryHash(entry: object): string;
export declare function entryPreimageV1(entry: object): string;

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
export declare function entryPreimageV2(e: ChainFieldsV2): string;
export declare function entryHashV2(e: ChainFieldsV2): string;

/** An audit_entries row as read for the chain: `detail` as its JSON text. */
export interface ChainRow {
  seq: number;
  at: string;
  environment: string;
  interview_id: string | null;
  action: string;
  actor: string | null;
  detail_text: string;
  prev_hash: string;
  hash_version: number;
}
export declare function chainRowHash(row: ChainRow): string;
export declare function chainRowPreimage(row: ChainRow): string;
export declare function chainFieldsOf(row: ChainRow): ChainFieldsV2;

/** The chain extended by the next rows (in order): the new head, or the first entry that breaks it. */
export declare function extendChain(
  walk: { count: number; hash: string },
  rows: readonly (ChainRow & { hash: string })[],
): { ok: true; count: number; hash: string } | { ok: false; brokenAt: number };
