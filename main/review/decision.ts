import { z } from 'zod';
import { FraudSeverity, inSpec, type RawIdvResponse } from '../../common/omni';
import { DecisionKind, type DecisionRecord, decisionOutcome } from '../../common/ipc/interview';

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

/**
 * Findings an approval must acknowledge: every high-severity check (also one that did not run: a gap in the
 * evidence) and a HIGH fraud risk.
 */
export function openHighFindings(raw: RawIdvResponse): string[] {
  const findings = raw.checkResults
    .filter((c) => c.severity === 'high')
    .map((c) => (c.result === null ? `${c.name} (high, did not run)` : `${c.name} (high, ${c.result})`));
  if (raw.fraudRisk?.severity === 'HIGH') findings.push(`checkFraudRisk (HIGH, ${raw.fraudRisk.result})`);
  return findings;
}

/**
 * The risk the queue files an interview under, from its checks: `high` with anything an approval must acknowledge,
 * `medium` with a MEDIUM fraud risk or a medium-severity check, else `low`. A fraud-risk severity newer than the spec
 * is kept as sent (the queue lists it under unknown risk) unless a high finding already decides.
 */
export function riskLevelOf(raw: RawIdvResponse): string {
  if (openHighFindings(raw).length > 0) return 'high';
  const fraud = raw.fraudRisk?.severity;
  if (fraud !== undefined && !inSpec(FraudSeverity, fraud)) return fraud;
  if (fraud === 'MEDIUM' || raw.checkResults.some((c) => c.severity === 'medium')) return 'medium';
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
