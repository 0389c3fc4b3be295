import type { MainContext } from '../ports';
import type { DecideResult, DecisionKind, DecisionRecord } from '../../common/ipc/interview';
import { RISK_UNASSESSED } from '../../common/ipc/queue';
import { type DecisionStatus, needsSecondReviewer, type ReviewVerdict } from '../../common/team-review';
import { ReviewError } from '../errors';
import type { ServiceWrite } from '../record/service-write-records';
import { formatDecisionNote } from './decision';
import type { DraftStore } from './drafts';
import { errorData } from './errors';
import type { InterviewReads } from './interview-reads';
import type { ReviewQueue } from './queue';
import type { ServiceWrites } from './service-writes';

/** Deciding an interview: final or proposed for a second reviewer, confirmed or overturned, its note sent again. */
export class DecisionDesk {
  constructor(
    private readonly ctx: MainContext,
    private readonly queue: ReviewQueue,
    private readonly drafts: DraftStore,
    private readonly reads: InterviewReads,
    private readonly writes: ServiceWrites,
    private readonly now: () => Date,
  ) {}

  async decide(
    interviewId: string,
    decision: DecisionKind,
    reason: string,
    acknowledge: boolean,
    reasonCode?: string,
  ): Promise<DecideResult> {
    await this.writes.requireWritable(interviewId);
    return this.writes.holding(interviewId, () =>
      this.decideHeld(interviewId, decision, reason, acknowledge, reasonCode),
    );
  }

  private async decideHeld(
    interviewId: string,
    decision: DecisionKind,
    reason: string,
    acknowledge: boolean,
    reasonCode: string | undefined,
  ): Promise<DecideResult> {
    const env = this.ctx.environments.active().id;
    const draftText = (await this.drafts.get(interviewId)).decisionReason?.text ?? reason;
    let findings: string[] = [];
    let unassessed = false;
    if (decision === 'approve') {
      // Checked here, not trusted from the screen: the findings as the service reports them now.
      const checks = (await this.reads.rawIdv(interviewId)).data;
      findings = checks.highFindings;
      unassessed = checks.riskLevel === RISK_UNASSESSED;
      if (findings.length > 0 && !acknowledge)
        throw new ReviewError(
          'ACKNOWLEDGEMENT_REQUIRED',
          {
            en: `Approving needs an explicit acknowledgement of ${findings.length} high-severity finding(s).`,
            es: `Aprobar requiere reconocer explícitamente ${findings.length} hallazgo(s) de severidad alta.`,
          },
          { en: 'Tick the acknowledgement, then approve again.', es: 'Marca el reconocimiento y vuelve a aprobar.' },
          { details: { findings } },
        );
    }
    const record: DecisionRecord = {
      decision,
      ...(reasonCode ? { reasonCode } : {}),
      reason,
      acknowledgedFindings: findings,
      decidedAt: this.now().toISOString(),
      environment: env,
      status: await this.statusOf(decision, findings, unassessed),
    };
    const by = await this.writes.senderName();
    const label = await this.serviceLabel(record);
    let write: ServiceWrite | undefined;
    // The database writes the decision's trail entry ("decided" or "proposed") in the same transaction (0013).
    try {
      ({ write } = await this.ctx.record.decisions.add(
        interviewId,
        record,
        record.status === 'final' ? formatDecisionNote(interviewId, record, label) : undefined,
        by,
      ));
    } catch (err) {
      // The database judges four eyes on every reading on file: where it asks for a second reviewer, it is a proposal.
      if (errorData(err).code !== 'SECOND_REVIEW_REQUIRED') throw err;
      record.status = 'proposed';
      await this.ctx.record.decisions.add(interviewId, record, undefined, by);
    }
    if (record.status === 'proposed') {
      // Recorded for a second reviewer; the note goes to the service when one confirms it (reviewDecision).
      await this.drafts.confirmSent(interviewId, 'decisionReason', draftText);
      await this.queue.setState(interviewId, 'decided');
      await this.writes.releaseClaim(interviewId);
      return { status: record.status, record };
    }
    await this.queue.setState(interviewId, 'decided');
    const result = await this.writes.send(interviewId, 'decisionReason', draftText, write!);
    await this.writes.releaseClaim(interviewId);
    return { ...result, status: record.status, record };
  }

  /** The code's English label, the service's words, for the note (the code itself when the list no longer has it). */
  private async serviceLabel(record: DecisionRecord): Promise<string | undefined> {
    if (!record.reasonCode) return undefined;
    const codes = await this.ctx.record.teamSettings.reasonCodes();
    return codes.find((c) => c.decision === record.decision && c.code === record.reasonCode)?.en;
  }

  /**
   * Whether the team's rule sends this decision to a second reviewer. On the embedded engine one user holds every
   * role and has nobody to confirm with, so the rule cannot apply there: its decisions are final.
   */
  private async statusOf(decision: DecisionKind, findings: string[], unassessed: boolean): Promise<DecisionStatus> {
    if (this.ctx.record.engine === 'embedded' || decision !== 'approve') return 'final';
    const { fourEyes } = await this.ctx.record.teamSettings.get();
    return needsSecondReviewer(fourEyes, decision, findings, unassessed) ? 'proposed' : 'final';
  }

  /**
   * A different member, holding the interview, confirms or overturns its proposed decision. Confirmed, the
   * confirmation and its note are recorded first, then the note goes to the service (sent again with the same key
   * if it fails). Overturned, nothing is sent and the interview goes back to the queue to be decided again.
   */
  review(interviewId: string, verdict: ReviewVerdict, reason: string): Promise<DecideResult> {
    return this.writes.holding(interviewId, () => this.reviewHeld(interviewId, verdict, reason));
  }

  private async reviewHeld(interviewId: string, verdict: ReviewVerdict, reason: string): Promise<DecideResult> {
    const environment = this.ctx.environments.active().id;
    const by = await this.writes.senderName();
    // The note of a confirmed proposal names its code as it read when proposed; a proposal of an earlier version, as
    // the list says now (read before the transaction).
    const codes = verdict === 'confirmed' ? await this.ctx.record.teamSettings.reasonCodes() : [];
    const labelOf = (p: DecisionRecord) =>
      p.reasonLabel?.en ?? codes.find((c) => c.decision === p.decision && c.code === p.reasonCode)?.en;
    const { record, write } = await this.ctx.record.decisions.review(
      environment,
      interviewId,
      verdict,
      reason,
      verdict === 'confirmed' ? (proposal) => formatDecisionNote(interviewId, proposal, labelOf(proposal)) : undefined,
      by,
    );
    const sent = write ? await this.writes.send(interviewId, 'decisionReason', reason, write) : undefined;
    await this.writes.releaseClaim(interviewId);
    return { ...sent, status: record.status, record };
  }

  /** The recorded decision's note that did not reach the service, sent again as recorded (same key). */
  sendNoteAgain(interviewId: string): Promise<DecideResult> {
    return this.writes.holding(interviewId, async () => {
      const env = this.ctx.environments.active().id;
      const [unsent, last] = await Promise.all([
        this.ctx.record.writes.unsent(env, interviewId, 'decision'),
        this.ctx.record.decisions.last(env, interviewId),
      ]);
      if (!unsent || !last) throw nothingUnsent(interviewId);
      const draft = (await this.drafts.get(interviewId)).decisionReason?.text ?? last.reason;
      const sent = await this.writes.send(interviewId, 'decisionReason', draft, unsent);
      await this.writes.releaseClaim(interviewId);
      return { ...sent, status: last.status, record: last };
    });
  }
}

function nothingUnsent(interviewId: string): ReviewError {
  return new ReviewError(
    'NOTHING_UNSENT',
    {
      en: `Interview ${interviewId} has no decision note of yours waiting to be sent.`,
      es: `La entrevista ${interviewId} no tiene una nota de decisión tuya esperando a enviarse.`,
    },
    { en: 'Reload the interview to see where it stands.', es: 'Vuelve a cargar la entrevista para ver cómo está.' },
  );
}
