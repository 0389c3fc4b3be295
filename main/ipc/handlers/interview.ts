import { reviewService } from '../../review/service';
import type { DomainHandlers } from '../router';

export const interviewHandlers: DomainHandlers<'interview'> = {
  open: async ({ interviewId }, ctx) => reviewService(ctx).open(interviewId),
  overview: async ({ interviewId }, ctx) => reviewService(ctx).overview(interviewId),
  rawIdv: async ({ interviewId }, ctx) => reviewService(ctx).rawIdv(interviewId),
  crossDoc: async ({ interviewId }, ctx) => reviewService(ctx).crossDoc(interviewId),
  contracts: async ({ interviewId }, ctx) => reviewService(ctx).contracts(interviewId),
  video: async ({ interviewId }, ctx) => reviewService(ctx).video(interviewId),
  drafts: async ({ interviewId }, ctx) => reviewService(ctx).drafts.get(interviewId),
  saveDraft: async ({ interviewId, kind, text }, ctx) => reviewService(ctx).saveDraft(interviewId, kind, text),
  sendNotes: async ({ interviewId }, ctx) => reviewService(ctx).sendText(interviewId, 'notes'),
  sendName: async ({ interviewId }, ctx) => reviewService(ctx).sendText(interviewId, 'name'),
  decide: async ({ interviewId, decision, reason, acknowledgeHighFindings, reasonCode }, ctx) =>
    reviewService(ctx).decide(interviewId, decision, reason, acknowledgeHighFindings, reasonCode),
  reviewDecision: async ({ interviewId, verdict, reason }, ctx) =>
    reviewService(ctx).reviewDecision(interviewId, verdict, reason),
  sendDecisionNoteAgain: async ({ interviewId }, ctx) => reviewService(ctx).sendDecisionNoteAgain(interviewId),
  recordPlay: async ({ interviewId, positionSeconds }, ctx) =>
    reviewService(ctx).recordPlay(interviewId, positionSeconds),
  saveFile: async (input, ctx) => reviewService(ctx).saveFile(input),
  audit: async ({ interviewId }, ctx) => reviewService(ctx).audit(interviewId),
  exportAudit: async ({ interviewId, format, language }, ctx) =>
    reviewService(ctx).exportAudit(interviewId, format, language),
};
