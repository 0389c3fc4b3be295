import { z } from 'zod';
import { FraudSeverity, inSpec, isQuietSeverity, unreadFieldsOf, type RawIdvResponse } from '../../common/omni';
import { DecisionKind, type DecisionRecord, decisionOutcome } from '../../common/ipc/interview';
import { RISK_UNASSESSED } from '../../common/ipc/queue';

export const DECISION_NOTE_HEADER = '[Omni Reviewer decision]';
const MACHINE_PREFIX = 'omni-reviewer-decision: ';

const DecisionPayload = z.object({
  type: z.literal('omni-reviewer.decision'),
  version: z.literal(1),
  interviewId: z.string(),
  decision: DecisionKind,
  /** Added after version 1's first notes: absent on theirs. */
  outcome: z.enum(['final', 'resubmit']).optional(),
  reasonCode: z.object({ code: z.string(), label: z.string() }).optional(),
  reason: z.string(),
  acknowledgedFindings: z.array(z.string()),
  decidedAt: z.string(),
  environment: z.string(),
});
export type DecisionPayload = z.infer<typeof DecisionPayload>;

const decisionWords: Record<DecisionKind, string> = {
  approve: 'APPROVE',
  reject: 'REJECT',
  requestNewCapture: 'REQUEST NEW CAPTURE',
};

const quiet = isQuietSeverity;

/**
 * Findings an approval must acknowledge: every check the service did not rank low or medium (high, a severity newer
 * than the spec, one in another case, one whose severity could not be read) and such a fraud risk. Also a check that
 * did not run (a gap in the evidence). What cannot be read counts against approving, never for it: a `null` severity
 * had set every check aside and filed a 0.97 fraud risk as low.
 */
export function openHighFindings(raw: RawIdvResponse): string[] {
  const findings = raw.checkResults
    .filter((c) => !quiet(c.severity))
    .map((c) => `${c.name} (${c.severity}, ${c.result === null ? 'did not run' : c.result})`);
  const fraud = raw.fraudRisk;
  if (fraud && !quiet(fraud.severity)) findings.push(`checkFraudRisk (${fraud.severity}, ${fraud.result})`);
  const unread = unreadFieldsOf(raw);
  const unreadChecks = Array.isArray(unread.checkResults) ? unread.checkResults : [];
  for (const check of unreadChecks) findings.push(`${nameOf(check)} (not readable)`);
  if (unread.fraudRisk !== undefined) findings.push('checkFraudRisk (not readable)');
  return findings;
}

function nameOf(check: unknown): string {
  const name = (check as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name.length > 0 ? name.slice(0, 100) : 'a check';
}

/**
 * The risk the queue files an interview under, from its checks: `high` with anything an approval must acknowledge,
 * `unassessed` when no check ran, `medium` with a MEDIUM fraud risk or a medium-severity check that ran, else `low`.
 * A fraud-risk severity newer than the spec is kept as sent (the queue lists it under unknown risk; an approval still
 * acknowledges it) unless another finding decides.
 */
export function riskLevelOf(raw: RawIdvResponse): string {
  const fraud = raw.fraudRisk?.severity;
  const newerFraud = fraud !== undefined && !inSpec(FraudSeverity, fraud) && !quiet(fraud);
  if (openHighFindings(raw).length > (newerFraud ? 1 : 0)) return 'high';
  if (newerFraud) return fraud;
  // No check ran (none listed, or none with a result): unassessed, whatever a medium or low fraud score or the
  // severity of a check that did not run says (red team 23: "medium" let one reviewer approve it alone).
  const ran = raw.checkResults.filter((c) => c.result !== null);
  if (ran.length === 0) return RISK_UNASSESSED;
  if (fraud?.toUpperCase() === 'MEDIUM' || ran.some((c) => c.severity.toLowerCase() === 'medium')) return 'medium';
  return 'low';
}

const outcomeWords = {
  final: 'FINAL (the case is closed)',
  resubmit: 'RESUBMIT (the applicant is asked for a new capture)',
};

/**
 * The conference note that records a decision with the interview: readable lines for people, then one JSON line
 * that tools can parse back (`parseDecisionNote`). The note is in the service's words (English, as its own fields
 * and messages), so a reason code goes with its English label.
 */
export function formatDecisionNote(interviewId: string, record: DecisionRecord, reasonLabel?: string): string {
  const outcome = decisionOutcome(record.decision);
  const reasonCode = record.reasonCode
    ? { code: record.reasonCode, label: reasonLabel ?? record.reasonCode }
    : undefined;
  const payload: DecisionPayload = {
    type: 'omni-reviewer.decision',
    version: 1,
    interviewId,
    decision: record.decision,
    outcome,
    ...(reasonCode ? { reasonCode } : {}),
    reason: record.reason,
    acknowledgedFindings: record.acknowledgedFindings,
    decidedAt: record.decidedAt,
    environment: record.environment,
  };
  const lines = [
    DECISION_NOTE_HEADER,
    `Decision: ${decisionWords[record.decision]}`,
    `Outcome: ${outcomeWords[outcome]}`,
    ...(reasonCode ? [`Reason code: ${reasonCode.code} (${reasonCode.label})`] : []),
    `Reason: ${record.reason}`,
    ...(record.acknowledgedFindings.length
      ? [`Acknowledged high-severity findings: ${record.acknowledgedFindings.join('; ')}`]
      : []),
    `Decided at: ${record.decidedAt}`,
    MACHINE_PREFIX + JSON.stringify(payload),
  ];
  return lines.join('\n');
}

export function parseDecisionNote(note: string): DecisionPayload | null {
  if (!note.startsWith(DECISION_NOTE_HEADER)) return null;
  const line = note.split('\n').find((l) => l.startsWith(MACHINE_PREFIX));
  if (!line) return null;
  try {
    const parsed = DecisionPayload.safeParse(JSON.parse(line.slice(MACHINE_PREFIX.length)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
