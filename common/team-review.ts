import { z } from 'zod';

/**
 * Team review: who holds which interview, the team's rules, and what the record announces when it changes. Shared by
 * main (main/record/claim-records.ts, team-settings-records.ts, record-events.ts) and the renderer.
 */

/** An interview held by one analyst until `expiresAt` (a lease, renewed while it is open); a lapsed one is free. */
export interface Claim {
  environment: string;
  interviewId: string;
  /** The PostgreSQL login that holds it, as the database knows it (`current_user`). */
  holder: string;
  claimedAt: string;
  expiresAt: string;
}

/** Which decisions need a second reviewer: approvals with a high-severity finding or HIGH fraud risk, every approval, or none. */
export const FourEyesRule = z.enum(['high-risk-approvals', 'all-approvals', 'none']);
export type FourEyesRule = z.infer<typeof FourEyesRule>;

export const TeamSettings = z.object({
  fourEyes: FourEyesRule,
  /** How long an interview may wait in the queue before it counts as late. */
  targetHours: z.number().int().min(1).max(720),
  /** How long a claim lasts without being renewed. */
  leaseMinutes: z.number().int().min(1).max(1440),
});
export type TeamSettings = z.infer<typeof TeamSettings>;

/**
 * `final`: decided by one analyst (sent to the service). `proposed`: waits for a second reviewer, nothing sent yet.
 * `confirmed` (then sent) or `overturned` (never sent) by a different member.
 */
/** The environment of the audit entries about the whole team, its rules and reason codes (migration 0010). */
export const TEAM_WIDE_ENVIRONMENT = 'team';

export const DecisionStatus = z.enum(['final', 'proposed', 'confirmed', 'overturned']);
export type DecisionStatus = z.infer<typeof DecisionStatus>;

/**
 * Whether a decision needs a second reviewer under the team's rule: only approvals do, every one or those with a
 * high-severity finding or HIGH fraud risk (the findings an approval acknowledges), or no check run. The database holds
 * the same rule (decisions_four_eyes in migration 0006, decisions_unassessed in 0018).
 */
export function needsSecondReviewer(
  rule: FourEyesRule,
  decision: 'approve' | 'reject' | 'requestNewCapture',
  acknowledgedFindings: readonly string[],
  /** No check ran on it (its risk reads `unassessed`): nothing judges it low risk (migration 0018). */
  unassessed = false,
): boolean {
  if (decision !== 'approve') return false;
  return (
    rule === 'all-approvals' || (rule === 'high-risk-approvals' && (acknowledgedFindings.length > 0 || unassessed))
  );
}

export const ReviewVerdict = z.enum(['confirmed', 'overturned']);
export type ReviewVerdict = z.infer<typeof ReviewVerdict>;

/** PostgreSQL roles omni_reviewer, omni_supervisor (a reviewer too), omni_admin (a supervisor too). */
export type TeamRole = 'reviewer' | 'supervisor' | 'admin';

/**
 * What the record announces (`pg_notify('omni_record', …)`) when a claim, a decision or a queue entry changes. Any
 * login may notify on the channel, so main reads each notice through this schema and drops what does not fit (red
 * team 12: `null` threw in the renderer's poll loop).
 */
export const RecordNotice = z.object({
  table: z.enum(['claims', 'decisions', 'queue_entries', 'record']),
  environment: z.string().max(64),
  interviewId: z.string().max(128),
  kind: z.enum([
    // claims
    'claimed',
    'renewed',
    'released',
    // queue entries, and a decision removed with the demo data
    'added',
    'changed',
    'removed',
    // decisions: the status they were written with
    ...DecisionStatus.options,
    // record: notices may have been missed (heard again after an absence): read everything again
    'resync',
  ]),
  /** The login that made the change. */
  by: z.string().max(128),
});
export type RecordNotice = z.infer<typeof RecordNotice>;
export type RecordNoticeKind = RecordNotice['kind'];

/** Said by main, not the database: what was heard may have missed changes (empty environment, id and login). */
export const RESYNC_NOTICE: RecordNotice = {
  table: 'record',
  environment: '',
  interviewId: '',
  kind: 'resync',
  by: '',
};
