/** Plain data that main produces and the renderer shows; the IPC contract and both processes share it. */

/** The app's store files: settings and credentials, and the review data that grows with use (json-store.ts). */
export type DataFileKind = 'settings' | 'queue' | 'drafts' | 'decisions';

export interface SetAsideFile {
  kind: DataFileKind;
  /** Where the unreadable file was moved, unchanged, for recovery. */
  path: string;
}

export type EnvironmentKind = 'demo' | 'production' | 'custom';

export type AuditAction =
  | 'opened'
  | 'played'
  | 'downloaded'
  | 'noted'
  | 'named'
  | 'decided'
  /** Four eyes: an approval recorded for a second reviewer, nothing sent yet; then confirmed (sent) or overturned. */
  | 'proposed'
  | 'confirmed'
  | 'overturned'
  | 'signed'
  | 'verified'
  | 'captured'
  | 'validated'
  | 'stateChanged'
  /** A NOM-151 provider root became trusted in an environment (detail: subject, sha256 fingerprint). */
  | 'trustedRootAdded'
  /** Team review: an interview taken, given back, or handed to another member by a supervisor (detail: to). */
  | 'claimed'
  | 'released'
  | 'reassigned'
  | 'teamSettingsChanged'
  /** Taken off the queue's work list (its token, drafts and trail stay), and put back by an undo. */
  | 'removed'
  | 'restored'
  /** A decision removed by an admin (written by the database itself: migration 0010). */
  | 'decisionRemoved'
  /** The trail's head (detail: seq, hash) timestamped outside the database through NOM-151 (folio, token). */
  | 'checkpoint'
  /** An interview's session token shared with the team, sealed, or removed (detail: of, another's); migration 0017. */
  | 'tokenShared'
  | 'tokenUnshared';

export interface AuditEntry {
  seq: number;
  at: string;
  environment: string;
  interviewId?: string;
  action: AuditAction;
  detail: Record<string, unknown>;
  prevHash: string;
  hash: string;
  /**
   * The database login that wrote it (team review attributes every entry); part of the hashed body when present.
   * Entries written before it was kept have none, and their hashes stay as they were.
   */
  actor?: string;
}

/**
 * What the service answered to one call, as the client read it, for the screen's raw view (main/omni/answer.ts).
 * Secrets are redacted and signed URLs cut to scheme, host and path; very long texts (files in base64) abbreviated.
 */
export interface ServiceAnswer {
  /** The endpoint table's name of the call, e.g. `getCrossDocResults`. */
  endpoint: string;
  /** The answer as read: known fields in the contract's types, the rest (and `unreadFields`) as they came. */
  body: unknown;
  /** Fields the spec does not list, each with its path from the answer's root (`checkResults.2.engine`). */
  beyondSpec: BeyondSpecField[];
}

export interface BeyondSpecField {
  path: string;
  value: unknown;
}
