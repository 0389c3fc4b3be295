import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import {
  type DecisionKind,
  type DecisionRecord,
  decisionOutcome,
  type InterviewOverview,
} from '../../../common/ipc/interview';
import { keys, useOmniMutation } from '../../api/index';
import { usePreference } from '../../api/preferences';
import { submitOnCtrlEnter, useShortcut } from '../../ui/shortcuts';
import { common } from '../../i18n/common';
import { useBilingual, useFormat, useT } from '../../i18n/index';
import { Badge, Button, Dialog, ErrorNotice, IconCheck, IconDanger } from '../../ui/index';
import { useFindingWords, useMissingEvidence, useRawIdv } from './ChecksPanel';
import { messages } from './messages';
import { WriteBlocked } from './NotesPanel';
import { ReviewedBy, SecondReview } from './SecondReview';
import { useDecisionWord, useReasonCodes, writeBlocker } from './shared';
import { useDraft } from './useDraft';
import { useWay } from './useWay';

/** Set on the navigation that goes on by itself after a decision, so the next interview says what was recorded. */
interface MovedOn {
  decidedOn: string;
  decision: DecisionKind;
}

/** Always in view at the bottom of the workspace: the three decisions and the last one recorded. */
export function DecisionBar({
  interviewId,
  overview,
  onAttach,
}: {
  interviewId: string;
  overview: InterviewOverview | undefined;
  onAttach: () => void;
}) {
  const t = useT(messages);
  const f = useFormat();
  const [choice, setChoice] = useState<DecisionKind | null>(null);
  // The route's state is shared with other screens' hand-overs (a link's): only a decision's is read here.
  const state = useLocation().state as Partial<MovedOn> | null;
  const movedOn = typeof state?.decidedOn === 'string' && state.decision ? (state as MovedOn) : null;
  const blocked = !overview || !!writeBlocker(overview.entry);
  const last = overview?.lastDecision;
  const word = useDecisionWord();
  const reasons = useReasonCodes();
  // The decision is far down the Tab order (header, player, every finding): one key brings the keyboard to it.
  // Reject and Request capture open their dialog (which asks for the reason, so a key alone decides nothing); where
  // the decisions are blocked, the key goes to what the bar offers instead (attach a session token).
  const choose = (kind: DecisionKind) => (blocked ? focusDecision() : setChoice(kind));
  useShortcut([
    {
      keys: 'd',
      description: { en: messages.en.shortcutDecision, es: messages.es.shortcutDecision },
      run: focusDecision,
    },
    {
      keys: 'r',
      description: { en: messages.en.shortcutReject, es: messages.es.shortcutReject },
      run: () => choose('reject'),
    },
    {
      keys: 'c',
      description: { en: messages.en.shortcutRequestCapture, es: messages.es.shortcutRequestCapture },
      run: () => choose('requestNewCapture'),
    },
  ]);
  return (
    <section className="decision-bar" aria-labelledby={`decision-${interviewId}`} id="decision">
      <h2 id={`decision-${interviewId}`}>{t('decisionTitle')}</h2>
      <div className="decision-buttons">
        <Button variant="primary" disabled={blocked} onClick={() => setChoice('approve')}>
          {t('approve')}
        </Button>
        <Button variant="danger" disabled={blocked} onClick={() => setChoice('reject')}>
          {t('reject')}
        </Button>
        <Button disabled={blocked} onClick={() => setChoice('requestNewCapture')}>
          {t('requestNewCapture')}
        </Button>
      </div>
      {last?.status === 'proposed' && <SecondReview interviewId={interviewId} last={last} />}
      {last && last.status !== 'proposed' && (
        <span data-testid="last-decision">
          <Badge
            tone={last.decision === 'approve' ? 'ok' : last.decision === 'reject' ? 'danger' : 'warn'}
            icon={last.decision === 'approve' ? <IconCheck /> : <IconDanger />}
          >
            {t('decided', { decision: word(last.decision) })}
          </Badge>{' '}
          {last.reasonCode && (
            <span className="small" data-testid="last-decision-code">
              {reasons.labelOf(last)}
            </span>
          )}{' '}
          <span className="small muted num">{f.dateTime(last.decidedAt)}</span> <ReviewedBy last={last} />
        </span>
      )}
      {last?.noteUnsent && <NoteUnsent interviewId={interviewId} />}
      {movedOn && movedOn.decidedOn !== interviewId && (
        <span className="small muted" role="status" data-testid="moved-on">
          {t('movedOn', { id: movedOn.decidedOn, decision: word(movedOn.decision) })}
        </span>
      )}
      {overview && writeBlocker(overview.entry) && (
        <div className="decision-blocked">
          <WriteBlocked entry={overview.entry} onAttach={onAttach} nextSteps />
        </div>
      )}
      {choice && (
        <DecisionDialog interviewId={interviewId} choice={choice} previous={last} onClose={() => setChoice(null)} />
      )}
    </section>
  );
}

/**
 * The decision is recorded, its note has not reached the service: said so, with the way to send it again (the same
 * note, with the same key, so a service that kept the first one keeps it once).
 */
function NoteUnsent({ interviewId }: { interviewId: string }) {
  const t = useT(messages);
  const again = useOmniMutation((api, _input: void) => api.interview.sendDecisionNoteAgain({ interviewId }), {
    invalidate: [keys.interview.overview(interviewId), keys.interview.audit(interviewId), keys.queue.all()],
  });
  return (
    <div className="decision-unsent" role="status" data-testid="decision-note-unsent">
      <p className="notice notice-warn">{t('decisionNoteUnsent')}</p>
      <Button onClick={() => again.mutate()} disabled={again.isPending}>
        {t('sendDecisionNoteAgain')}
      </Button>
      {again.error && <ErrorNotice error={again.error.data} />}
    </div>
  );
}

/** Approve, or the first thing the bar offers when the decisions are blocked (attach a session token). */
export function focusDecision() {
  document.querySelector<HTMLElement>('#decision button:not(:disabled)')?.focus();
}

function DecisionDialog({
  interviewId,
  choice,
  previous,
  onClose,
}: {
  interviewId: string;
  choice: DecisionKind;
  previous: DecisionRecord | undefined;
  onClose: () => void;
}) {
  const t = useT(messages);
  const tc = useT(common);
  const f = useFormat();
  const navigate = useNavigate();
  const word = useDecisionWord();
  const label = word(choice);
  const reason = useDraft(interviewId, 'decisionReason');
  const reasons = useReasonCodes();
  const bilingual = useBilingual();
  const codes = (reasons.query.data ?? []).filter((c) => c.decision === choice && c.active);
  const [code, setCode] = useState('');
  const raw = useRawIdv(interviewId);
  const way = useWay(interviewId);
  // Whether to open the next interview by itself once a decision is recorded.
  const after = usePreference('afterDecision', 'stay');
  // A decision already went to the service: another one is a second note, so the analyst says so first.
  const [changing, setChanging] = useState(!previous);
  const [ack, setAck] = useState(false);
  const [touched, setTouched] = useState(false);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);
  const goNext = () => {
    if (way.next)
      navigate(`/interviews/${encodeURIComponent(way.next)}`, {
        state: { decidedOn: interviewId, decision: choice } satisfies MovedOn,
      });
  };
  const decide = useOmniMutation(
    async (api) => {
      await reason.flush();
      return api.interview.decide({
        interviewId,
        decision: choice,
        ...(code ? { reasonCode: code } : {}),
        reason: reason.text.trim(),
        acknowledgeHighFindings: ack,
      });
    },
    {
      invalidate: [
        keys.interview.overview(interviewId),
        keys.interview.audit(interviewId),
        keys.interview.drafts(interviewId),
        keys.queue.all(),
        keys.team.all(),
      ],
      onSuccess: () => {
        reason.reset();
        if (after.value === 'next' && way.next) goNext();
      },
      // A code retired meanwhile: the list is read again, without it, and the choice left to the analyst.
      onError: (error) => {
        if (error.data.code !== 'UNKNOWN_REASON_CODE') return;
        setCode('');
        void reasons.query.refetch();
      },
    },
  );
  // The form appears after the analyst confirmed the change; the next step after the decision is the next interview.
  useEffect(() => {
    if (changing && previous) reasonRef.current?.focus();
  }, [changing, previous]);
  useEffect(() => {
    if (decide.isSuccess) nextRef.current?.focus();
  }, [decide.isSuccess]);
  // Main re-checks the findings; when it refuses for lack of acknowledgement it lists what it found.
  const refused =
    decide.error?.data.code === 'ACKNOWLEDGEMENT_REQUIRED'
      ? (decide.error.data.details?.findings as string[] | undefined)
      : undefined;
  const findings = choice === 'approve' ? (refused ?? raw.data?.data.highFindings ?? []) : [];
  const findingWords = useFindingWords();
  const missing = useMissingEvidence(interviewId);
  const missingWords = { checks: t('missingChecks'), checksUnread: t('missingChecksUnread'), fraud: t('missingFraud') };
  // Alt+↓ / Alt+↑ in the reason choose the next or previous code, so the hand need not leave the text for the radios.
  const stepCode = (by: 1 | -1) => {
    if (codes.length === 0) return;
    const at = codes.findIndex((c) => c.code === code);
    const next = at < 0 ? (by === 1 ? 0 : codes.length - 1) : (at + by + codes.length) % codes.length;
    setCode(codes[next]!.code);
  };
  const onReasonKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.altKey && !event.ctrlKey && !event.metaKey && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      stepCode(event.key === 'ArrowDown' ? 1 : -1);
      return;
    }
    submitOnCtrlEnter(event);
  };
  const chosen = codes.find((c) => c.code === code);
  const reasonOk = reason.text.trim().length >= 3;
  const canSubmit = reasonOk && (findings.length === 0 || ack) && !decide.isPending && !decide.isSuccess;
  let actions;
  if (decide.isSuccess)
    actions = (
      <>
        <Button onClick={onClose}>{tc('close')}</Button>
        {way.next && (
          <Button ref={nextRef} variant="primary" onClick={goNext} data-testid="next-after-decision">
            {t('openNextInterview')}
          </Button>
        )}
      </>
    );
  else if (!changing)
    actions = (
      <>
        {/* The safe choice has the focus: Enter keeps the decision already sent. */}
        <Button onClick={onClose} data-autofocus>
          {t('keepDecision')}
        </Button>
        <Button variant={choice === 'reject' ? 'danger' : 'primary'} onClick={() => setChanging(true)}>
          {t('changeDecision')}
        </Button>
      </>
    );
  else
    actions = (
      <>
        <Button onClick={onClose}>{tc('cancel')}</Button>
        <Button
          variant={choice === 'reject' ? 'danger' : 'primary'}
          type="submit"
          form={`decide-${interviewId}`}
          disabled={!canSubmit}
        >
          {t('confirmDecision')}
        </Button>
      </>
    );
  return (
    <Dialog open onClose={onClose} title={`${t('decisionTitle')}: ${label}`} actions={actions}>
      {decide.isSuccess ? (
        <>
          <p className="notice notice-ok" role="status" data-testid="decision-recorded">
            {decide.data.status === 'proposed'
              ? t('proposalRecorded', { decision: label })
              : t('decisionRecorded', { decision: label, time: f.dateTime(decide.data.record.decidedAt) })}
          </p>
          {!way.next && <p className="small muted">{t('noNextInterview')}</p>}
          <label className="checkbox">
            <input
              type="checkbox"
              checked={after.value === 'next'}
              onChange={(e) => after.set(e.target.checked ? 'next' : 'stay')}
              data-testid="after-decision-next"
            />{' '}
            {t('afterDecisionNext')}
          </label>
          {after.error && <ErrorNotice error={after.error.data} />}
        </>
      ) : !changing && previous ? (
        <div className="notice notice-warn" role="note" data-testid="already-decided">
          <p>{t('alreadyDecided', { decision: word(previous.decision), time: f.dateTime(previous.decidedAt) })}</p>
          <p>{t('alreadyDecidedNext', { decision: label })}</p>
        </div>
      ) : (
        <form
          id={`decide-${interviewId}`}
          onSubmit={(e) => {
            e.preventDefault();
            setTouched(true);
            if (canSubmit) decide.mutate(undefined);
          }}
        >
          <p className="small muted" data-testid="decision-outcome">
            {decisionOutcome(choice) === 'resubmit' ? t('outcomeResubmit') : t('outcomeFinal')}
          </p>
          {codes.length > 0 && (
            <fieldset className="reason-codes" data-testid="reason-codes" aria-describedby={`code-keys-${interviewId}`}>
              <legend>{t('reasonCodeLabel')}</legend>
              <span id={`code-keys-${interviewId}`} className="hint">
                {t('reasonCodeKeys')}
              </span>
              {codes.map((c) => (
                <label key={c.code} className="reason-code">
                  <input
                    type="radio"
                    name={`reason-code-${interviewId}`}
                    value={c.code}
                    checked={code === c.code}
                    onChange={() => setCode(c.code)}
                  />{' '}
                  {bilingual(c)}
                </label>
              ))}
              {/* Said aloud when Alt+↓ / Alt+↑ change the code from the reason, where the radios are out of sight. */}
              <span className="visually-hidden" role="status" data-testid="reason-code-chosen">
                {chosen ? t('reasonCodeChosen', { code: bilingual(chosen) }) : ''}
              </span>
            </fieldset>
          )}
          {reasons.query.error && <ErrorNotice error={reasons.query.error.data} />}
          <div className="field">
            <label htmlFor={`reason-${interviewId}`}>{t('reasonLabel')}</label>
            <textarea
              id={`reason-${interviewId}`}
              ref={reasonRef}
              className="input"
              rows={4}
              required
              value={reason.text}
              onChange={(e) => reason.change(e.target.value)}
              onKeyDown={onReasonKey}
              aria-keyshortcuts={codes.length > 0 ? 'Control+Enter Alt+ArrowDown Alt+ArrowUp' : 'Control+Enter'}
              onBlur={() => setTouched(true)}
              aria-invalid={touched && !reasonOk ? true : undefined}
              aria-describedby={`reason-hint-${interviewId}`}
              data-autofocus
            />
            <span id={`reason-hint-${interviewId}`} className={touched && !reasonOk ? 'field-error' : 'hint'}>
              {touched && !reasonOk ? t('reasonTooShort') : t('reasonHint')} {t('reasonSubmitKeys')}
            </span>
          </div>
          {/* An approval with nothing checked reads "low risk" in the service's words: said before it is sent. */}
          {choice === 'approve' && missing.length > 0 && (
            <div className="notice notice-warn" role="note" data-testid="approve-without">
              <p>{t('approveWithout', { missing: missing.map((m) => missingWords[m]).join('; ') })}</p>
              <p className="small">{t('approveWithoutNext')}</p>
            </div>
          )}
          {findings.length > 0 && (
            <div className="notice notice-danger" data-testid="open-findings">
              <p>{t('openFindings')}</p>
              <ul className="mono small">
                {findings.map((x) => (
                  <li key={x}>{findingWords(x)}</li>
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
