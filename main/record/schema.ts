import type { ColumnType, Generated } from 'kysely';

/**
 * The review record's tables, as Kysely sees them: the one description of the schema in TypeScript. The tables
 * themselves are made by the migrations (migrations/, run by migrate.ts), the same on the embedded engine and on a
 * team's server; test/main/record/schema.test.ts holds the two to each other.
 *
 * Times the analyst sees are timestamptz (read back as Date). The audit trail keeps its time as the exact text it
 * hashed, so the chain verifies byte for byte.
 */
export interface RecordDatabase {
  queue_entries: QueueEntryTable;
  drafts: DraftTable;
  decisions: DecisionTable;
  audit_entries: AuditEntryTable;
  record_meta: RecordMetaTable;
  shared_session_tokens: SharedSessionTokenTable;
  claims: ClaimTable;
  team_settings: TeamSettingsTable;
  saved_views: SavedViewTable;
  risk_readings: RiskReadingTable;
  service_writes: ServiceWriteTable;
  reason_codes: ReasonCodeTable;
}

type Time = ColumnType<Date, Date | string, Date | string>;

/** A JSON value as read back: any value but null, so a column that may be null says `| null` (schema.test.ts). */
type Json = NonNullable<unknown>;

export interface QueueEntryTable {
  environment: string;
  interview_id: string;
  added_at: Time;
  local_state: string;
  label: string | null;
  label_es: string | null;
  session_status: string | null;
  session_status_seen_at: Time | null;
  /** Only entries written by versions that stamped openings in the queue; the audit trail records them now. */
  last_opened_at: Time | null;
  /** The risk level its checks were last read with (migration 0005); null until read. */
  risk: string | null;
  /** The login that added it (migration 0006); empty on entries of earlier versions. */
  added_by: Generated<string | null>;
}

export interface DraftTable {
  environment: string;
  interview_id: string;
  kind: string;
  text: string;
  updated_at: Time;
  last_error: ColumnType<DraftError | null, string | null, string | null>;
  /** Whose draft it is (migration 0006, the database's `current_user`); '' on drafts of earlier versions. */
  owner: Generated<string>;
}

export interface DraftError {
  code: string;
  message: { en: string; es: string };
  at: string;
}

export interface DecisionTable {
  id: Generated<number>;
  environment: string;
  interview_id: string;
  decision: string;
  reason: string;
  acknowledged_findings: ColumnType<string[], string, string>;
  decided_at: Time;
  status: Generated<string>;
  /** The login that recorded it (the database's default); empty on decisions of earlier versions. */
  decided_by: Generated<string | null>;
  reviewed_by: string | null;
  review_reason: string | null;
  reviewed_at: Time | null;
  /** One of the team's reason codes for this kind of decision (migration 0007); null on earlier decisions. */
  reason_code: string | null;
  /** The code's labels when the decision was recorded, the database's (migration 0019); null before it. */
  reason_label_en: Generated<string | null>;
  reason_label_es: Generated<string | null>;
}

export interface AuditEntryTable {
  /** The chain's fields are the database's to compute (migration 0006): a client sends only what happened. */
  seq: Generated<number>;
  at: string;
  environment: string;
  interview_id: string | null;
  action: string;
  detail: ColumnType<Record<string, unknown>, string, never>;
  prev_hash: Generated<string>;
  hash: Generated<string>;
  /** The login that wrote it (the database's default); empty on entries of earlier versions. */
  actor: Generated<string | null>;
  /** 1: hashed by the app (earlier versions, imported trails); 2: by the database (audit-chain.ts `entryHashV2`). */
  hash_version: Generated<number>;
}

export interface RecordMetaTable {
  key: string;
  value: ColumnType<Json, string, string>;
}

export interface SharedSessionTokenTable {
  environment: string;
  interview_id: string;
  /** base64 of IV, GCM tag and ciphertext, sealed with the team key (shared-session-tokens.ts). */
  sealed: string;
  sealed_by: Generated<string>;
  sealed_at: Generated<Date>;
}

export interface ClaimTable {
  environment: string;
  interview_id: string;
  holder: Generated<string>;
  /** Both from the server's clock (`now()`), so analysts' clocks cannot disagree about who holds what. */
  claimed_at: ColumnType<Date, Date | string | undefined, Date | string>;
  expires_at: Time;
}

export interface TeamSettingsTable {
  id: Generated<boolean>;
  four_eyes: string;
  target_hours: number;
  lease_minutes: number;
}

export interface SavedViewTable {
  id: Generated<number>;
  owner: Generated<string>;
  name: string;
  filter: ColumnType<Record<string, unknown>, string, string>;
  shared: Generated<boolean>;
}

/** Who read an interview's checks with what risk, when (migration 0006): append-only, four eyes is judged on it. */
export interface RiskReadingTable {
  id: Generated<string>;
  environment: string;
  interview_id: string;
  level: string;
  high_findings: ColumnType<string[], string, never>;
  read_by: Generated<string>;
  read_at: Generated<Date>;
}

/** A note, name or decision note for the service, recorded before it is sent, then settled with the answer. */
export interface ServiceWriteTable {
  id: Generated<string>;
  environment: string;
  interview_id: string;
  kind: string;
  body: string;
  idempotency_key: string;
  decision_id: number | null;
  written_by: Generated<string>;
  written_at: Generated<Date>;
  state: Generated<string>;
  answered_at: Date | null;
  answer: ColumnType<Json | null, never, string | null>;
}

/** The team's reason codes per decision kind (migration 0007): retired, never removed. */
export interface ReasonCodeTable {
  decision: string;
  code: string;
  label_en: string;
  label_es: string;
  active: Generated<boolean>;
  position: Generated<number>;
}
