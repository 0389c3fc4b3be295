import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { DecisionKind } from '../../../common/ipc/interview';
import type { QueueEntry } from '../../../common/ipc/queue';
import { keys, useOmniMutation, useOmniQuery, useQueriesUnder } from '../../api/index';
import { useBilingual, useFormat, useT } from '../../i18n/index';
import { Button, ErrorNotice, ServiceAnswerView, Skeleton } from '../../ui/index';
import { submitOnCtrlEnter, useShortcut } from '../../ui/shortcuts';
import { messages } from './messages';
import { useDecisionWord, writeBlocker } from './shared';
import { useDraft } from './useDraft';

export function WriteBlocked({
  entry,
  onAttach,
  nextSteps = false,
}: {
  entry: QueueEntry | undefined;
  onAttach: () => void;
  /** Where the decision stands: a session that ended is offered its way out of the queue, not only its reason. */
  nextSteps?: boolean;
}) {
  const t = useT(messages);
  const navigate = useNavigate();
  const blocker = writeBlocker(entry);
  const interviewId = entry?.interviewId ?? '';
  const invalidate = [keys.interview.overview(interviewId), keys.interview.audit(interviewId), keys.queue.all()];
  const decided = useOmniMutation((api, _input: void) => api.queue.setState({ interviewId, state: 'decided' }), {
    invalidate,
  });
  const removed = useOmniMutation((api, _input: void) => api.queue.remove({ interviewId }), {
    invalidate,
    onSuccess: () => navigate('/interviews'),
  });
  if (!blocker) return null;
  const ended = blocker === 'closed' || blocker === 'deleted';
  return (
    <div
      className={`notice ${blocker === 'noToken' ? 'notice-warn' : 'notice-danger'}`}
      role="note"
      data-testid="write-blocked"
    >
      <p>
        {blocker === 'closed' ? t('closedReason') : blocker === 'deleted' ? t('deletedReason') : t('noTokenReason')}
      </p>
      {blocker === 'noToken' && <Button onClick={onAttach}>{t('attachNow')}</Button>}
      {ended && nextSteps && (
        <>
          <p>{t('endedNext')}</p>
          <div className="decision-buttons">
            {entry?.localState !== 'decided' && (
              <Button onClick={() => decided.mutate()} disabled={decided.isPending}>
                {t('markDecided')}
              </Button>
            )}
            <Button onClick={() => removed.mutate()} disabled={removed.isPending}>
              {t('removeFromQueue')}
            </Button>
          </div>
          {(decided.error ?? removed.error) && <ErrorNotice error={(decided.error ?? removed.error)!.data} />}
        </>
      )}
    </div>
  );
}

export function NotesPanel({
  interviewId,
  entry,
  onAttach,
}: {
  interviewId: string;
  entry: QueueEntry | undefined;
  onAttach: () => void;
}) {
  const t = useT(messages);
  // The notes box sits far down the Tab order (player, every finding): one key brings the keyboard to it.
  useShortcut({
    keys: 'w',
    description: { en: messages.en.shortcutNotes, es: messages.es.shortcutNotes },
    run: () => focusNotes(interviewId),
  });
  return (
    <section className="panel" id="notes" aria-labelledby={`notes-title-${interviewId}`}>
      <div className="panel-header">
        <h2 id={`notes-title-${interviewId}`}>{t('notesTitle')}</h2>
      </div>
      <WriteBlocked entry={entry} onAttach={onAttach} />
      {/* Drafts load beside the interview's opening, not after it; sending waits for the session facts. */}
      <DraftForm interviewId={interviewId} kind="notes" disabled={!entry || !!writeBlocker(entry)} />
      <DraftForm interviewId={interviewId} kind="name" disabled={!entry || !!writeBlocker(entry)} />
      <SentHistory interviewId={interviewId} />
    </section>
  );
}

/** The notes box, or what the panel offers instead while notes cannot be written (attach a session token). */
function focusNotes(interviewId: string) {
  const box = document.getElementById(`notes-${interviewId}`) as HTMLTextAreaElement | null;
  const target = box && !box.disabled ? box : document.querySelector<HTMLElement>('#notes button:not(:disabled)');
  target?.focus();
  (target ?? document.getElementById('notes'))?.scrollIntoView({ block: 'nearest' });
}

/**
 * What was sent for the interview, newest first: the service cannot give notes back, so the list is read from the
 * audit trail, where the database writes each note and name the service took, with its writer and when (the same query
 * as the trail panel).
 */
function SentHistory({ interviewId }: { interviewId: string }) {
  const t = useT(messages);
  const f = useFormat();
  const opening = useQueriesUnder(keys.interview.opening(interviewId), { exact: true }).fetching;
  const q = useOmniQuery(keys.interview.audit(interviewId), (api) => api.interview.audit({ interviewId }), {
    enabled: !opening,
  });
  const sent = (q.data?.entries ?? [])
    .filter((e) => e.action === 'noted' || e.action === 'named' || e.action === 'decided')
    .reverse();
  const decisionWord = useDecisionWord();
  return (
    <div className="sent-history" data-testid="sent-history">
      <h3>{t('sentTitle')}</h3>
      {sent.length === 0 ? (
        <p className="small muted">{q.data ? t('sentNone') : t('sentLoading')}</p>
      ) : (
        <ol className="sent-list">
          {sent.map((e) => {
            // Who wrote the entry as the database says it (an entry's own `by` could name anyone before 0016).
            const by = e.actor ?? (typeof e.detail.by === 'string' ? e.detail.by : undefined);
            const what =
              e.action === 'noted'
                ? t('sentNote')
                : e.action === 'named'
                  ? t('sentName')
                  : t('sentDecision', { decision: decisionWord(e.detail.decision as DecisionKind) });
            const text = e.action === 'decided' ? String(e.detail.reason ?? '') : String(e.detail.text ?? '');
            return (
              <li key={e.seq}>
                <p className="small muted num">
                  <strong className="sent-kind">{what}</strong> · {f.dateTime(e.at)}
                  {by && <> · {t('sentBy', { who: by })}</>}
                </p>
                <p className="sent-text">{text}</p>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}

function DraftForm({
  interviewId,
  kind,
  disabled,
}: {
  interviewId: string;
  kind: 'notes' | 'name';
  disabled: boolean;
}) {
  const t = useT(messages);
  const f = useFormat();
  const pick = useBilingual();
  const draft = useDraft(interviewId, kind);
  const [sentAt, setSentAt] = useState<string | null>(null);
  const send = useOmniMutation(
    async (api) => {
      await draft.flush();
      return kind === 'notes' ? api.interview.sendNotes({ interviewId }) : api.interview.sendName({ interviewId });
    },
    {
      invalidate: [
        keys.interview.drafts(interviewId),
        keys.interview.audit(interviewId),
        keys.interview.overview(interviewId),
        keys.queue.all(),
      ],
      onSuccess: (r) => {
        draft.reset();
        setSentAt(r.sentAt);
      },
      onError: () => setSentAt(null),
    },
  );
  if (draft.loading) return <Skeleton rows={2} />;
  const id = `${kind}-${interviewId}`;
  const label = kind === 'notes' ? t('notesLabel') : t('nameLabel');
  const lastError = send.error?.data.message ?? draft.draft?.lastError?.message;
  const lastCode = send.error?.data.code ?? draft.draft?.lastError?.code;
  const status = send.isPending
    ? t('draftSending')
    : lastError && draft.text
      ? t('sendFailed', { reason: pick(lastError) })
      : draft.text && draft.savedAt
        ? t('draftSaved', { time: f.dateTime(draft.savedAt) })
        : sentAt
          ? t('sent', { time: f.dateTime(sentAt) })
          : '';
  return (
    <form
      className="draft-form"
      onSubmit={(e) => {
        e.preventDefault();
        // Ctrl+Enter submits without the button, so its conditions are checked here too.
        if (!disabled && draft.text.trim() && !send.isPending) send.mutate(undefined);
      }}
    >
      <div className="field">
        <label htmlFor={id}>{label}</label>
        {kind === 'notes' ? (
          <textarea
            id={id}
            className="input"
            rows={4}
            value={draft.text}
            disabled={disabled}
            onChange={(e) => draft.change(e.target.value)}
            onKeyDown={submitOnCtrlEnter}
            aria-keyshortcuts="Control+Enter"
            aria-describedby={`${id}-status`}
            maxLength={20000}
          />
        ) : (
          <input
            id={id}
            className="input"
            value={draft.text}
            disabled={disabled}
            onChange={(e) => draft.change(e.target.value)}
            aria-describedby={`${id}-status`}
            maxLength={300}
            autoComplete="off"
          />
        )}
        <span
          id={`${id}-status`}
          className={`hint${lastError && draft.text ? ' field-error' : ''}`}
          role="status"
          data-testid={`${kind}-status`}
        >
          {status}
          {lastError && draft.text && lastCode && <span className="mono small muted"> · {lastCode}</span>}
        </span>
      </div>
      <Button type="submit" variant="primary" disabled={disabled || !draft.text.trim() || send.isPending}>
        {kind === 'notes' ? t('notesSend') : t('nameSend')}
      </Button>
      {sentAt && send.data && <ServiceAnswerView answer={send.data.answer} />}
    </form>
  );
}
