import type { AuditAction, AuditEntry, EnvironmentKind, SetAsideFile } from '../common/views';
import type { RecordLinkView } from '../common/ipc/app';
import type { SecretStore, Vault } from './auth/vault';
import type { OmniClient } from './omni/client';
import type { JsonStore } from './json-store';
import type { ChangeFeed } from './record/change-feed';
import type { ClaimRecords } from './record/claim-records';
import type { DecisionRecords } from './record/decision-records';
import type { DraftRecords } from './record/draft-records';
import type { QueueRecords } from './record/queue-records';
import type { RiskReadingRecords } from './record/risk-reading-records';
import type { ServiceWriteRecords } from './record/service-write-records';
import type { SavedViewRecords } from './record/saved-view-records';
import type { TeamOverviewRecords } from './record/team-overview-records';
import type { TeamSettingsRecords } from './record/team-settings-records';

/**
 * The services every IPC handler may use. Built once per shell (Electron or web shell) by the shell's wiring;
 * handlers never import Electron or open sockets to the service themselves.
 */
export interface MainContext {
  /** Client bound to the active environment (its credentials, api-version, token header). */
  omni(): OmniClient;
  /** Environments' secrets by environment id, each call bound to where that environment points now. */
  vault: Vault;
  /** The vault by destination (auth/destination.ts): the team database's password and the team key. */
  secrets: SecretStore;
  environments: EnvironmentService;
  /** Settings kept on this machine (environments, preferences, trusted roots, the vault's sealed values). */
  store: JsonStore;
  /** The review record (queue, drafts, decisions), embedded or on a team's database; the audit trail is `audit`. */
  record: ReviewRecord;
  /** Media (video selfie, PDFs) handed to the renderer as opaque app URLs, streamed by main with Range support. */
  media: MediaRegistry;
  files: FileService;
  audit: AuditTrail;
  /** Write-only view of the vault for settings: state of each credential, never its value. */
  credentials: CredentialService;
  /** Facts and OS actions of the shell running this code (Electron or web shell). */
  shell: ShellService;
  /** The record's notices (claims, decisions, queue changes by anyone), numbered for the screens' long poll. */
  changes: ChangeFeed;
}

/** What the review services keep in the review record, one object per table (built by record/index.ts). */
export interface ReviewRecord {
  engine: 'embedded' | 'team';
  /** Why this run is on this computer's record although the team database was chosen (unreachable at start). */
  startProblem?: { en: string; es: string };
  queue: PublicShape<QueueRecords>;
  drafts: PublicShape<DraftRecords>;
  decisions: PublicShape<DecisionRecords>;
  /** Each reading of an interview's checks (append-only): four eyes is judged on them. */
  readings: PublicShape<RiskReadingRecords>;
  /** Notes, names and decision notes recorded before they go to the service, settled with its answer. */
  writes: PublicShape<ServiceWriteRecords>;
  /** Who holds which interview (team review); the embedded engine's one user holds whatever it claims. */
  claims: PublicShape<ClaimRecords>;
  /** The team's rules (four eyes, target time, lease) and who this login is to the database. */
  teamSettings: PublicShape<TeamSettingsRecords>;
  /** What the supervisor's screen reads: queue age, proposals, decisions per day, members, the team's trail. */
  overview: PublicShape<TeamOverviewRecords>;
  /** The queue views analysts keep, their own and the team's shared ones. */
  views: PublicShape<SavedViewRecords>;
  /** Whether the team database can be reached, and how many writes wait on this computer until it can. */
  link(): RecordLinkView;
}

/** A class's public methods alone, so a wrapper (the record while the team database is away) can stand in for it. */
export type PublicShape<T> = { [K in keyof T]: T[K] };

export type CredentialField = 'apiKey' | 'integrationId' | 'secret';
export type CredentialState = 'set' | 'unset' | 'unreadable';
export type StorageSecurityState = 'keychain' | 'weak-pending' | 'weak-accepted' | 'memory-only';

export interface CredentialService {
  states(environmentId: string): Promise<Record<CredentialField, CredentialState>>;
  set(environmentId: string, field: CredentialField, value: string): Promise<void>;
  clear(environmentId: string, field: CredentialField): Promise<void>;
  /** Drops the environment's credentials and session tokens bound to any address but its present one. */
  forgetElsewhere(environmentId: string): Promise<{ credentials: number; sessionTokens: number }>;
  /** Authorizes with the environment's stored credentials; when the fresh server token expires. */
  testConnection(environmentId: string): Promise<{ expiresAt: Date }>;
  storageSecurity(): { state: StorageSecurityState; reason?: { en: string; es: string } };
  acceptWeakStorage(): Promise<void>;
}

export interface ShellService {
  kind: 'electron' | 'web';
  version: string;
  platform: string;
  /** Opens an allow-listed https URL in the OS browser; false when refused or not possible in this shell. */
  openExternal(url: string): Promise<boolean>;
  /** The deep link (omni-reviewer://interview/<id>, as written) the OS handed over since the last call; null when none. */
  takeDeepLink(): string | null;
  /** Store files that could not be read at this start, and where each was moved (json-store.ts openStores). */
  setAside: SetAsideFile[];
}

export interface EnvironmentConfig {
  id: string;
  kind: EnvironmentKind;
  name: string;
  baseUrl: string;
  authUrl: string;
  apiVersion: string;
  tokenHeader: string;
}

export interface EnvironmentService {
  list(): EnvironmentConfig[];
  active(): EnvironmentConfig;
  setActive(id: string): Promise<void>;
  update(id: string, patch: Partial<Omit<EnvironmentConfig, 'id' | 'kind'>>): Promise<EnvironmentConfig>;
  /** Trusted NOM-151 provider root certificates (PEM) of an environment: the demo root for demo, imported ones otherwise. */
  trustedNom151Roots(id: string): Promise<string[]>;
  addTrustedNom151Root(id: string, pem: string): Promise<void>;
}

export interface MediaRegistry {
  /**
   * Register a remote (pre-signed) URL; returns the URL the renderer loads (custom scheme in Electron, the
   * loopback host's media route in the web shell). `refresh` is called to get a new remote URL when the old one expired.
   * `serviceOrigin`: the environment's service, the one origin on this computer or its network media may come from.
   */
  register(
    remoteUrl: string,
    opts: { contentType?: string; refresh?: () => Promise<string>; serviceOrigin?: string },
  ): string;
}

export interface FileService {
  /**
   * Save bytes the user asked to keep. Electron: a save dialog, then write. Web shell: returns a one-time download URL
   * the renderer follows. `null` when the user cancelled.
   */
  save(opts: {
    suggestedName: string;
    data: Uint8Array;
    mimeType: string;
  }): Promise<{ savedTo?: string; downloadUrl?: string } | null>;
}

export type ChainStatus = { ok: true } | { ok: false; brokenAt: number; rewritten?: true };

/** One entry as the chain hashes it: what an evidence file needs to prove it is in the trail. */
export interface ChainLink {
  seq: number;
  hash: string;
  hashVersion: number;
  /** The exact text its hash covers (`sha256sum` of it is `hash`); only when asked for. */
  preimage?: string;
}

export interface AuditTrail {
  /**
   * `waitAtMostMs`: how long to wait for the chain's lock before giving up (a checkpoint's token must not be written
   * long after it was issued, whoever holds the lock meanwhile).
   */
  append(
    entry: { interviewId?: string; action: AuditAction; detail: Record<string, unknown> },
    opts?: { waitAtMostMs?: number },
  ): Promise<AuditEntry>;
  /** Entries oldest first; `afterSeq` and `limit` read a range (the checkpoints after an entry, a few at a time). */
  list(filter?: {
    interviewId?: string;
    action?: AuditAction;
    seq?: number;
    afterSeq?: number;
    limit?: number;
  }): Promise<AuditEntry[]>;
  /**
   * When `action` was last recorded for each interview of `environment`, as a lookup by interview id: one look at the
   * file for a whole list (the queue asks for every row).
   */
  lastRecorded(
    action: AuditAction,
    environment: string,
    /** Only these interviews (one opening asks for one), through the index instead of over the whole trail. */
    interviewIds?: readonly string[],
  ): Promise<(interviewId: string) => string | undefined>;
  /**
   * The newest contract seal (`signed`, detail kind `contract`, no interview) of `environment` for each of
   * `contractIds`, by id: the detail's `signedContractId` matched exactly, only the ids asked for.
   */
  latestContractSeals(environment: string, contractIds: readonly string[]): Promise<Map<string, AuditEntry>>;
  /**
   * The entries in a range of the trail (or one interview's) as hashed, oldest first, each with the exact text its hash
   * covers when `preimages` is set: the checkpoints' statements list these hashes, evidence files carry the texts.
   */
  chain(filter: { interviewId?: string; fromSeq?: number; toSeq?: number; preimages?: boolean }): Promise<ChainLink[]>;
  /** How many bytes one interview's entries hold (texts and details): what its evidence file would carry of the trail. */
  interviewBytes(interviewId: string): Promise<number>;
  /** The newest entry (of one action, when given; before `beforeSeq`, when given): the head, or its last checkpoint. */
  latest(action?: AuditAction, beforeSeq?: number): Promise<AuditEntry | undefined>;
  /**
   * The checkpoint entry that says it reaches furthest along the trail (its detail's `seq`; the newest of a tie),
   * written by none of `passOver`, and before `below` in that order when given.
   */
  furthestCheckpoint(options: {
    passOver: readonly string[];
    below?: { reach: number; seq: number };
  }): Promise<AuditEntry | undefined>;
  /**
   * Recomputes the hash chain; the first broken link if any. `rewritten`: the history no longer extends the head this
   * app saw before (an entry changed, removed or re-chained behind it), which it never calls intact again.
   */
  verify(): Promise<ChainStatus>;
}
