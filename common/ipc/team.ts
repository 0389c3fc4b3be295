import { z } from 'zod';
import type { AuditEntry } from '../views';
import { type Claim, type DecisionStatus, type RecordNotice, type TeamRole, TeamSettings } from '../team-review';
import { channel } from './define';
import { DecisionKind, ReasonCodeName } from './interview';
import { InterviewId, QueueFilter, QueueSearch } from './queue';

/** One of the team's reason codes: its label in both languages; a retired one stays for the decisions that used it. */
export const ReasonCode = z
  .object({
    decision: DecisionKind,
    code: ReasonCodeName,
    en: z.string().trim().min(1, 'Give the code an English label').max(80),
    es: z.string().trim().min(1, 'Give the code a Spanish label').max(80),
    active: z.boolean(),
  })
  .strict();
export type ReasonCode = z.infer<typeof ReasonCode>;

/** Decisions recorded per day (UTC), kind and reason code (null: made without one), the last 14 days. */
export interface DecisionsByCodeRow {
  day: string;
  decision: DecisionKind;
  code: string | null;
  count: number;
}

/** Who this analyst is on the record, and the team's rules. On the embedded engine: one user with every role. */
export interface TeamStatusView {
  engine: 'embedded' | 'team';
  user: string;
  roles: TeamRole[];
  settings: TeamSettings;
  /** The queue's age for everyone: how many wait, since when, and how many are past the team's target. */
  waiting: QueueWaitingView;
}

export interface QueueWaitingView {
  count: number;
  oldestAddedAt?: string;
  pastTarget: number;
}

/** A claim as the screens show it: whether it is this analyst's own. */
export interface ClaimView extends Claim {
  mine: boolean;
}

/** A decision waiting for a second reviewer. */
export interface ProposalView {
  interviewId: string;
  decision: DecisionKind;
  /** Its reason code, when it was proposed with one. */
  reasonCode?: string;
  reason: string;
  proposedBy: string;
  proposedAt: string;
}

/** The supervisor's view of the team's work. */
export interface TeamOverviewView {
  settings: TeamSettings;
  waiting: QueueWaitingView;
  holders: ClaimView[];
  proposals: ProposalView[];
  /** Decisions recorded per reviewer and day (UTC), the last 14 days, final and proposed alike. */
  decisionsByDay: { day: string; reviewer: string; count: number; status: DecisionStatus }[];
  members: { user: string; roles: TeamRole[] }[];
  /** Decisions per day and reason code, overturned ones left out; with the codes, retired ones too, to name them. */
  decisionsByCode: DecisionsByCodeRow[];
  reasonCodes: ReasonCode[];
}

export interface TeamAuditView {
  entries: AuditEntry[];
  /** The whole trail's hash chain, verified by main. */
  chain: { ok: true } | { ok: false; brokenAt: number; rewritten?: true };
  /** Entries that matched, of which `entries` holds the newest `limit`. */
  matched: number;
  /** The trail's checkpoints outside the database (NOM-151 timestamps of its head), checked now. */
  checkpoints: {
    count: number;
    last?: { covers: number; genTime?: string };
    /** The first that no longer holds: the history contradicts it, its token is forged, or it was stamped late. */
    problem?: { covers: number; outcome: 'contradicted' | 'forged' | 'late'; by?: string };
  };
}

/** Notices since `after`; `cursor` is what to pass next. A cursor from before a restart returns everything new. */
export interface TeamChangesView {
  cursor: number;
  notices: RecordNotice[];
}

const Empty = z.object({}).strict();
const OneInterview = z.object({ interviewId: InterviewId }).strict();
/** A PostgreSQL login name as the admin SQL creates them. */
export const Login = z
  .string()
  .trim()
  .min(1)
  .max(63)
  .regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/, 'A database login uses letters, digits and _ . - only');

export const team = {
  status: channel<TeamStatusView>()(Empty),
  /**
   * Claims the oldest unclaimed interview to review, within the queue's view when one is given (its holder filter
   * aside: what is taken is always unclaimed); null when none is left.
   */
  takeNext: channel<ClaimView | null>()(
    z.object({ within: z.object({ filter: QueueFilter, search: QueueSearch }).strict().optional() }).strict(),
  ),
  /** Claims (or renews) the interview for this analyst; refused with CLAIMED_BY_OTHER when someone else holds it. */
  claim: channel<ClaimView>()(OneInterview),
  release: channel<{ released: boolean }>()(OneInterview),
  /** Supervisors: hands an interview to another member. */
  reassign: channel<ClaimView>()(z.object({ interviewId: InterviewId, to: Login }).strict()),
  holders: channel<ClaimView[]>()(Empty),
  /** Long poll: answers as soon as a notice newer than `after` arrives, or after `waitMs` with none. */
  changes: channel<TeamChangesView>()(
    z.object({ after: z.number().int().min(0), waitMs: z.number().int().min(0).max(30_000).default(25_000) }).strict(),
  ),
  overview: channel<TeamOverviewView>()(Empty),
  saveSettings: channel<TeamSettings>()(TeamSettings),
  /** The team's reason codes, every kind, retired ones too, in the team's order. */
  reasonCodes: channel<ReasonCode[]>()(Empty),
  /**
   * Supervisors (the embedded record's one user is one): the whole list. A code left out is retired, never removed;
   * a code keeps its kind.
   */
  saveReasonCodes: channel<ReasonCode[]>()(
    z
      .object({ codes: z.array(ReasonCode).max(200) })
      .strict()
      .refine(
        ({ codes }) => new Set(codes.map((c) => `${c.decision} ${c.code}`)).size === codes.length,
        'Each code appears once per kind of decision',
      ),
  ),
  /** Supervisors: the whole team's audit trail, searched by reviewer, action and interview. */
  audit: channel<TeamAuditView>()(
    z
      .object({
        reviewer: Login.optional(),
        action: z.string().trim().max(40).optional(),
        interviewId: z.string().trim().max(128).optional(),
        limit: z.number().int().min(1).max(1000).default(200),
      })
      .strict(),
  ),
};
