import { z } from 'zod';
import type { RawIdvResponse, SessionStatus } from '../omni';
import type { AuditEntry, EnvironmentKind, ServiceAnswer } from '../views';
import { type DecisionStatus, ReviewVerdict } from '../team-review';
import { channel } from './define';
import { InterviewId, type QueueEntry } from './queue';

/** No path separators, no characters Windows refuses, no control characters. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what a file name must not hold
const SAFE_FILE_NAME = /^[^/\\:*?"<>|\u0000-\u001f]+$/;

export const DraftKind = z.enum(['notes', 'name', 'decisionReason']);
export type DraftKind = z.infer<typeof DraftKind>;

export const DecisionKind = z.enum(['approve', 'reject', 'requestNewCapture']);
export type DecisionKind = z.infer<typeof DecisionKind>;

/** A reason code as the team keeps it (migration 0007 holds the same rule). */
export const ReasonCodeName = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_]{1,47}$/, 'A reason code is 2 to 48 lower-case letters, digits or _, starting with a letter');

/**
 * Whether the applicant may try again: a request for a new capture asks them to resubmit; approving and rejecting
 * close the case.
 */
export function decisionOutcome(decision: DecisionKind): 'final' | 'resubmit' {
  return decision === 'requestNewCapture' ? 'resubmit' : 'final';
}

export interface Draft {
  text: string;
  updatedAt: string;
  /** Why the last send failed, kept with the draft until a send succeeds. */
  lastError?: { code: string; message: { en: string; es: string }; at: string };
}

export interface Drafts {
  notes?: Draft;
  name?: Draft;
  decisionReason?: Draft;
}

export interface InterviewOverview {
  entry: QueueEntry;
  environment: { id: string; kind: EnvironmentKind; name: string };
  lastDecision?: DecisionRecord;
}

export interface Fetched<T> {
  data: T;
  fetchedAt: string;
}

/** One compared field of the cross-document result, reduced by main from whatever shape the entry had. */
export interface CrossDocRow {
  field: string;
  verdict: 'match' | 'mismatch' | 'unknown';
  score?: number;
  status?: string;
  /** Every other value of the entry, flattened to readable `key → text` pairs. */
  details: [string, string][];
}

export interface RawIdvView {
  result: RawIdvResponse;
  answer: ServiceAnswer;
  /** High-severity checks and a HIGH fraud risk: approving needs an acknowledgement while any is listed. */
  highFindings: string[];
  /**
   * The risk the queue files it under (main's riskLevelOf): `high`, `medium`, `low`, `unassessed` (no check ran), or a
   * newer level as sent.
   */
  riskLevel: string;
}

export interface CrossDocView {
  rows: CrossDocRow[];
  answer: ServiceAnswer;
}

export interface ContractDocument {
  documentId: string;
  /** App media URL (never the pre-signed one); main renews the remote link when it expired. */
  url: string;
  /**
   * This environment's latest NOM-151 seal of this contract on the audit trail, if any: its folio (none when the
   * evidence named no serial), when it was sealed, and whether the evidence verified then.
   */
  seal?: ContractSeal;
}

export interface ContractSeal {
  folio: string | null;
  at: string;
  valid: boolean;
  /** Whose seal: the login the trail's entry is chained under (none on a trail kept by one person). */
  by?: string;
}

export interface ContractsView {
  sessionStatus?: SessionStatus;
  documents: ContractDocument[];
  /** Contracts the service listed with a link the app cannot open (not http(s)), by id (a held secret redacted). */
  unreadable?: string[];
  /** The links as the service sent them, each URL without its pre-signed query. */
  answer: ServiceAnswer;
}

export interface VideoLink {
  /** App media URL streamed by main with Range. */
  url: string;
  issuedAt: string;
  /** When the pre-signed URL stops working (1 hour after issue). */
  expiresAt: string;
  answer: ServiceAnswer;
}

export interface SendResult {
  sessionStatus?: SessionStatus;
  sentAt: string;
  answer: ServiceAnswer;
}

export interface DecisionRecord {
  decision: DecisionKind;
  /** One of the team's reason codes for this kind of decision; absent on decisions made without one. */
  reasonCode?: string;
  /**
   * The code's labels when the decision was recorded (the database's, team or embedded); absent on decisions of
   * earlier versions, which are shown with the list's labels now.
   */
  reasonLabel?: { en: string; es: string };
  reason: string;
  acknowledgedFindings: string[];
  decidedAt: string;
  environment: string;
  /** `final` when one analyst's decision is enough; a `proposed` one waits for a different member (four eyes). */
  status: DecisionStatus;
  /** The database login that recorded it; absent on decisions of earlier versions. */
  decidedBy?: string;
  /** Who confirmed or overturned a proposal, why and when. */
  reviewedBy?: string;
  reviewReason?: string;
  reviewedAt?: string;
  /** Its note is recorded but has not reached the service yet (this analyst's to send again). */
  noteUnsent?: true;
}

/**
 * What a decision or a second review did: `final` and `confirmed` went to the service as a note (when, and the
 * session status it answered with); `proposed` and `overturned` were recorded only.
 */
export interface DecideResult {
  status: DecisionStatus;
  record: DecisionRecord;
  sentAt?: string;
  sessionStatus?: SessionStatus;
  /** The service's answer to the note, when one was sent. */
  answer?: ServiceAnswer;
}

export interface OpenedInterview {
  overview: InterviewOverview;
  audit: AuditView;
}

export interface AuditView {
  entries: AuditEntry[];
  /** `rewritten`: the database's history no longer extends what this app saw before (changed behind its back). */
  chain: { ok: true } | { ok: false; brokenAt: number; rewritten?: true };
}

export interface SavedFile {
  savedTo?: string;
  downloadUrl?: string;
}

const ById = z.object({ interviewId: InterviewId });

export const interview = {
  /**
   * Puts the interview in the queue if missing, marks it opened (local state, last opened, audit). Answers with the
   * trail too, already holding this opening, so the workspace needs no second round trip to show it.
   */
  open: channel<OpenedInterview>()(ById),
  overview: channel<InterviewOverview>()(ById),
  rawIdv: channel<Fetched<RawIdvView>>()(ById),
  crossDoc: channel<Fetched<CrossDocView>>()(ById),
  contracts: channel<Fetched<ContractsView>>()(ById),
  /** `unavailable`: the service has no video selfie to give for this interview, in its own words. */
  video: channel<Fetched<VideoLink | { unavailable: string }>>()(ById),
  drafts: channel<Drafts>()(ById),
  /** Called from the first keystroke on; the text stays in main until the service confirms the send. */
  saveDraft: channel<Drafts>()(z.object({ interviewId: InterviewId, kind: DraftKind, text: z.string().max(20_000) })),
  sendNotes: channel<SendResult>()(ById),
  sendName: channel<SendResult>()(ById),
  /** Under the team's four-eyes rule an approval is recorded as `proposed` and nothing is sent yet. */
  decide: channel<DecideResult>()(
    z.object({
      interviewId: InterviewId,
      decision: DecisionKind,
      /** One of the team's codes for this kind of decision, in use now (the database refuses any other). */
      reasonCode: ReasonCodeName.optional(),
      reason: z.string().trim().min(3).max(4000),
      /** The analyst confirmed approving despite open high-severity findings. */
      acknowledgeHighFindings: z.boolean().default(false),
    }),
  ),
  /**
   * A different member confirms (the decision's note then goes to the service, once) or overturns (recorded only,
   * the interview goes back to the queue) the interview's proposed decision. The database refuses the proposer.
   */
  reviewDecision: channel<DecideResult>()(
    z.object({ interviewId: InterviewId, verdict: ReviewVerdict, reason: z.string().trim().min(3).max(4000) }),
  ),
  /**
   * The recorded decision's note, which did not reach the service, sent again as it was recorded (same text, same
   * idempotency key), by whoever recorded or confirmed it.
   */
  sendDecisionNoteAgain: channel<DecideResult>()(z.object({ interviewId: InterviewId })),
  /** Playback started (once per play after a pause); appended to the audit trail. */
  recordPlay: channel<{ ok: true }>()(
    z.object({ interviewId: InterviewId, positionSeconds: z.number().min(0).max(86_400) }),
  ),
  /** Saves bytes the renderer already holds (a contract PDF it streamed with progress, a video snapshot). */
  saveFile: channel<SavedFile | null>()(
    z.object({
      interviewId: InterviewId,
      what: z.enum(['contract', 'snapshot']),
      documentId: z.string().max(200).optional(),
      suggestedName: z.string().trim().min(1).max(200).regex(SAFE_FILE_NAME, 'Not a valid file name'),
      mimeType: z.enum(['application/pdf', 'image/png']),
      dataBase64: z
        .string()
        .max(140_000_000)
        .regex(/^[A-Za-z0-9+/=\r\n]*$/, 'Must be base64'),
    }),
  ),
  audit: channel<AuditView>()(ById),
  /** `language`: the screen's language; the PDF report is written in it alone. */
  exportAudit: channel<SavedFile | null>()(
    z.object({ interviewId: InterviewId, format: z.enum(['json', 'pdf']), language: z.enum(['en', 'es']) }),
  ),
};
