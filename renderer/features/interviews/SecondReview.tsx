import { useState } from 'react';
import type { DecisionRecord } from '../../../common/ipc/interview';
import type { ReviewVerdict } from '../../../common/team-review';
import { keys, useOmniMutation, useOmniQuery } from '../../api/index';
import { common } from '../../i18n/common';
import { useFormat, useT } from '../../i18n/index';
import { Badge, Button, Dialog, ErrorNotice, TextAreaField } from '../../ui/index';
import { messages } from './messages';
import { useDecisionWord, useReasonCodes } from './shared';

/**
 * Four eyes in the decision bar: a proposed decision waits for a different member, who confirms it (its note then
 * goes to the service, once) or overturns it, with a reason. The proposer sees that it waits; the database refuses
 * their confirmation anyway.
 */
export function SecondReview({ interviewId, last }: { interviewId: string; last: DecisionRecord }) {
  const t = useT(messages);
  const f = useFormat();
  const word = useDecisionWord();
  const reasons = useReasonCodes();
  const status = useOmniQuery(keys.team.status(), (api) => api.team.status({}), { staleTime: Infinity });
  const [verdict, setVerdict] = useState<ReviewVerdict | null>(null);
  const mine = status.data !== undefined && last.decidedBy === status.data.user;
  return (
    <div className="second-review" data-testid="second-review">
      <Badge tone="warn">{t('proposedBadge', { decision: word(last.decision) })}</Badge>{' '}
      <span className="small">
        {t('proposedBy', { who: last.decidedBy ?? '—', time: f.dateTime(last.decidedAt) })}{' '}
        {mine ? t('proposedWaitsForOther') : t('proposedYourTurn')}
      </span>
      {/* The reviewer confirms the code with the rest: it goes in the note and counts once confirmed. */}
      {last.reasonCode && (
        <span className="small" data-testid="proposal-code">
          {reasons.labelOf(last)}
        </span>
      )}
      <span className="small muted second-review-reason">“{last.reason}”</span>
      {!mine && status.data && (
        <span className="second-review-actions">
          <Button variant="primary" onClick={() => setVerdict('confirmed')} data-testid="confirm-proposal">
            {t('confirmProposal')}
          </Button>
          <Button variant="danger" onClick={() => setVerdict('overturned')} data-testid="overturn-proposal">
            {t('overturnProposal')}
          </Button>
        </span>
      )}
      {verdict && <ReviewDialog interviewId={interviewId} verdict={verdict} onClose={() => setVerdict(null)} />}
    </div>
  );
}

/** A proposal confirmed or overturned: who did it and why, beside the decision. */
export function ReviewedBy({ last }: { last: DecisionRecord }) {
  const t = useT(messages);
  if (last.status !== 'confirmed' && last.status !== 'overturned') return null;
  return (
    <span className="small muted" role="status" data-testid="reviewed-by">
      {t(last.status === 'confirmed' ? 'confirmedBy' : 'overturnedBy', {
        who: last.reviewedBy ?? '—',
        proposer: last.decidedBy ?? '—',
      })}
    </span>
  );
}

function ReviewDialog({
  interviewId,
  verdict,
  onClose,
}: {
  interviewId: string;
  verdict: ReviewVerdict;
  onClose: () => void;
}) {
  const t = useT(messages);
  const tc = useT(common);
  const [reason, setReason] = useState('');
  const review = useOmniMutation(
    (api, _input: void) => api.interview.reviewDecision({ interviewId, verdict, reason: reason.trim() }),
    {
      invalidate: [
        keys.interview.overview(interviewId),
        keys.interview.audit(interviewId),
        keys.queue.all(),
        keys.team.all(),
      ],
      // The bar then says who confirmed or overturned it (ReviewedBy), and this proposal's part is gone.
      onSuccess: onClose,
    },
  );
  const ok = reason.trim().length >= 3;
  const title = verdict === 'confirmed' ? t('confirmProposal') : t('overturnProposal');
  return (
    <Dialog
      open
      onClose={onClose}
      title={title}
      actions={
        <>
          <Button onClick={onClose}>{tc('cancel')}</Button>
          <Button
            type="submit"
            form={`review-${interviewId}`}
            variant={verdict === 'confirmed' ? 'primary' : 'danger'}
            disabled={!ok || review.isPending}
          >
            {title}
          </Button>
        </>
      }
    >
      <form
        id={`review-${interviewId}`}
        onSubmit={(e) => {
          e.preventDefault();
          if (ok) review.mutate();
        }}
      >
        <p>{t(verdict === 'confirmed' ? 'confirmExplain' : 'overturnExplain')}</p>
        <TextAreaField
          id={`review-reason-${interviewId}`}
          label={t('reviewReasonLabel')}
          rows={3}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          data-autofocus
        />
        {review.error && <ErrorNotice error={review.error.data} />}
      </form>
    </Dialog>
  );
}
