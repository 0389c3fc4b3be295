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
  | 'teamSettingsChanged';

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
