import { useState } from 'react';
import type { DecisionKind, InterviewOverview } from '../../../common/ipc/interview';
import { keys, useOmniMutation } from '../../api/index';
import { common } from '../../i18n/common';
import { useFormat, useT } from '../../i18n/index';
import { Badge, Button, Dialog, ErrorNotice, IconCheck, IconDanger } from '../../ui/index';
import { useRawIdv } from './ChecksPanel';
import { messages } from './messages';
import { WriteBlocked } from './NotesPanel';
import { writeBlocker } from './shared';
import { useDraft } from './useDraft';

/** Always in view at the bottom of the workspace: the three decisions and the last one recorded. */
export function DecisionBar({ interviewId, overview, onAttach }: { interviewId: string; overview: InterviewOverview | undefined; onAttach: () => void }) {
  const t = useT(messages);
  const f = useFormat();
  const [choice, setChoice] = useState<DecisionKind | null>(null);
  const blocked = !overview || !!writeBlocker(overview.entry);
  const last = overview?.lastDecision;
  const word = (d: DecisionKind) => (d === 'approve' ? t('approve') : d === 'reject' ? t('reject') : t('requestNewCapture'));
  return (
    <section className="decision-bar" aria-labelledby={`decision-${interviewId}`}>
      <h2 id={`decision-${interviewId}`}>{t('decisionTitle')}</h2>
      <div className="decision-buttons">
        <Button variant="primary" disabled={blocked} onClick={() => setChoice('approve')}>{t('approve')}</Button>
        <Button variant="danger" disabled={blocked} onClick={() => setChoice('reject')}>{t('reject')}</Button>
        <Button disabled={blocked} onClick={() => setChoice('requestNewCapture')}>{t('requestNewCapture')}</Button>
      </div>
      {last && (
        <span data-testid="last-decision">
          <Badge tone={last.decision === 'approve' ? 'ok' : last.decision === 'reject' ? 'danger' : 'warn'} icon={last.decision === 'approve' ? <IconCheck /> : <IconDanger />}>
            {t('decided', { decision: word(last.decision) })}
          </Badge>{' '}
          <span className="small muted num">{f.dateTime(last.decidedAt)}</span>
        </span>
      )}
      {overview && writeBlocker(overview.entry) && (
        <div className="decision-blocked">
          <WriteBlocked entry={overview.entry} onAttach={onAttach} />
        </div>
      )}
      {choice && <DecisionDialog interviewId={interviewId} choice={choice} label={word(choice)} onClose={() => setChoice(null)} />}
    </section>
  );
}

function DecisionDialog({ interviewId, choice, label, onClose }: { interviewId: string; choice: DecisionKind; label: string; onClose: () => void }) {
  const t = useT(messages);
  const tc = useT(common);
  const f = useFormat();
  const reason = useDraft(interviewId, 'decisionReason');
  const raw = useRawIdv(interviewId);
  const [ack, setAck] = useState(false);
  const [touched, setTouched] = useState(false);
  const decide = useOmniMutation(
    async (api) => {
      await reason.flush();
      return api.interview.decide({ interviewId, decision: choice, reason: reason.text.trim(), acknowledgeHighFindings: ack });
    },
    {
      invalidate: [keys.interview.overview(interviewId), keys.interview.audit(interviewId), keys.interview.drafts(interviewId), keys.queue.all()],
      onSuccess: () => reason.reset(),
    },
  );
  // Main re-checks the findings; when it refuses for lack of acknowledgement it lists what it found.
  const refused = decide.error?.data.code === 'ACKNOWLEDGEMENT_REQUIRED' ? (decide.error.data.details?.findings as string[] | undefined) : undefined;
  const findings = choice === 'approve' ? (refused ?? raw.data?.data.highFindings ?? []) : [];
  const reasonOk = reason.text.trim().length >= 3;
  const canSubmit = reasonOk && (findings.length === 0 || ack) && !decide.isPending && !decide.isSuccess;
  return (
    <Dialog
      open
      onClose={onClose}
      title={`${t('decisionTitle')}: ${label}`}
      actions={
        decide.isSuccess ? (
          <Button variant="primary" onClick={onClose}>{tc('close')}</Button>
        ) : (
          <Button variant={choice === 'reject' ? 'danger' : 'primary'} type="submit" form={`decide-${interviewId}`} disabled={!canSubmit}>{t('confirmDecision')}</Button>
        )
      }
    >
      {decide.isSuccess ? (
        <p className="notice notice-ok" role="status" data-testid="decision-recorded">{t('decisionRecorded', { decision: label, time: f.dateTime(decide.data.record.decidedAt) })}</p>
      ) : (
        <form
          id={`decide-${interviewId}`}
          onSubmit={(e) => {
            e.preventDefault();
            setTouched(true);
            if (canSubmit) decide.mutate(undefined);
          }}
        >
          <div className="field">
            <label htmlFor={`reason-${interviewId}`}>{t('reasonLabel')}</label>
            <textarea
              id={`reason-${interviewId}`}
              className="input"
              rows={4}
              required
              value={reason.text}
              onChange={(e) => reason.change(e.target.value)}
              onBlur={() => setTouched(true)}
              aria-invalid={touched && !reasonOk ? true : undefined}
              aria-describedby={`reason-hint-${interviewId}`}
              autoFocus
            />
            <span id={`reason-hint-${interviewId}`} className={touched && !reasonOk ? 'field-error' : 'hint'}>{touched && !reasonOk ? t('reasonTooShort') : t('reasonHint')}</span>
          </div>
          {findings.length > 0 && (
            <div className="notice notice-danger" data-testid="open-findings">
              <p>{t('openFindings')}</p>
              <ul className="mono small">
                {findings.map((x) => (
                  <li key={x}>{x}</li>
                ))}
              </ul>
              <label className="checkbox">
                <input type="checkbox" checked={ack} onChange={(e) => setAck(e.target.checked)} /> {t('acknowledge')}
              </label>
            </div>
          )}
          {decide.error && <ErrorNotice error={decide.error.data} />}
        </form>
      )}
    </Dialog>
  );
}
