import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { IpcErrorData } from '../../../common/ipc/define';
import type { InterviewOverview } from '../../../common/ipc/interview';
import type { DeepLinkOpened } from '../../../common/ipc/queue';
import type { LocalReviewState } from '../../../common/ipc/queue';
import { keys, readAgain, useQueriesUnder, useOmniMutation, useOmniQuery } from '../../api/index';
import { useShortcut } from '../../ui/shortcuts';
import { useBilingual, useFormat, useT } from '../../i18n/index';
import { Button, Dialog, ErrorNotice, Field, Segmented, Skeleton } from '../../ui/index';
import { AuditPanel } from './AuditPanel';
import { CaseSummary } from './CaseSummary';
import { ChecksPanel } from './ChecksPanel';
import { ContractsPanel } from './ContractsPanel';
import { CrossDocPanel } from './CrossDocPanel';
import { DecisionBar, focusDecision } from './DecisionBar';
import { messages } from './messages';
import { NotesPanel } from './NotesPanel';
import { PanelOutages } from './outage';
import { openingQuery } from './prefetch';
import { setLastVisited } from './queue-view';
import { SessionStatusBadge, useEntryLabel, useLocalStateLabel } from './shared';
import { useClaim } from './useClaim';
import { useStep, useWay } from './useWay';
import { VideoPanel } from './VideoPanel';

// Panels that need only the interview id: the workspace's own updates (opening, overview) do not re-render them,
// so each renders when its own data arrives and not again with every other answer.
const Video = memo(VideoPanel);
const Checks = memo(ChecksPanel);
const CrossDoc = memo(CrossDocPanel);
const Contracts = memo(ContractsPanel);
const Audit = memo(AuditPanel);

/** One interview: header, evidence on the left, findings on the right, the decision always in view. */
export function Workspace({ interviewId }: { interviewId: string }) {
  const t = useT(messages);
  const queryClient = useQueryClient();
  const [tokenDialog, setTokenDialog] = useState(false);
  // Opened from a link whose token was not attached (it names another interview, or this one holds another): said in
  // the header until a token is attached here. Taken off the history entry, so a reload does not say it again.
  const location = useLocation();
  const navigate = useNavigate();
  const [linkNotice, setLinkNotice] = useState<{ interviewId: string; why: DeepLinkOpened['linkTokenNotUsed'] }>();
  useEffect(() => {
    const opened = (location.state as { linkOpened?: DeepLinkOpened } | null)?.linkOpened;
    if (!opened) return;
    setLinkNotice({ interviewId: opened.interviewId, why: opened.linkTokenNotUsed });
    void navigate(location.pathname, { replace: true, state: null });
  }, [location, navigate]);
  // Usually already in flight: the navigation started it (see prefetch.ts). The panels load in parallel beside it.
  const open = useQuery(openingQuery(queryClient, interviewId));
  useEffect(() => {
    const opening = keys.interview.opening(interviewId);
    // The visit ends: the next one is recorded again. Deferred so a remount in the same tick (Strict Mode) keeps it.
    return () => {
      setTimeout(() => {
        if (!queryClient.getQueryCache().find({ queryKey: opening, exact: true })?.getObserversCount())
          queryClient.removeQueries({ queryKey: opening, exact: true });
      });
    };
  }, [queryClient, interviewId]);
  // Back in the queue, this interview's row is the selected one.
  useEffect(() => setLastVisited(interviewId), [interviewId]);
  const overview = useOmniQuery(
    keys.interview.overview(interviewId),
    (api) => api.interview.overview({ interviewId }),
    { enabled: open.isSuccess },
  );
  const current = overview.data;
  // A decided interview is not held by opening it: whoever confirms a proposal holds it when they act.
  const claim = useClaim(interviewId, current !== undefined && current.entry.localState !== 'decided');

  return (
    <div className="workspace" data-interview={interviewId}>
      <WorkspaceHeader
        interviewId={interviewId}
        overview={current}
        onAttach={() => setTokenDialog(true)}
        linkTokenNotUsed={linkNotice?.interviewId === interviewId ? linkNotice.why : undefined}
      />
      <CaseSummary interviewId={interviewId} overview={current} claim={claim} />
      {open.error && <ErrorNotice error={open.error.data} onRetry={() => void open.refetch()} />}
      {claim.kind === 'held' && <HeldByOther message={claim.error.message} />}
      {/* One outage said once above the panels it left empty, not in each of them. */}
      <PanelOutages>
        <div className="workspace-columns">
          {/* The video stays in view (sticky) while the findings beside it scroll. */}
          <div className="workspace-col" aria-label={t('evidence')} role="region">
            <Video interviewId={interviewId} />
          </div>
          <div className="workspace-col" aria-label={t('findings')} role="region">
            <Checks interviewId={interviewId} />
            <CrossDoc interviewId={interviewId} />
            <Contracts interviewId={interviewId} />
            <NotesPanel interviewId={interviewId} entry={current?.entry} onAttach={() => setTokenDialog(true)} />
            <Audit interviewId={interviewId} />
          </div>
        </div>
      </PanelOutages>
      <DecisionBar interviewId={interviewId} overview={current} onAttach={() => setTokenDialog(true)} />
      <TokenDialog
        interviewId={interviewId}
        open={tokenDialog}
        onClose={() => setTokenDialog(false)}
        onAttached={() => setLinkNotice(undefined)}
      />
    </div>
  );
}

/** Another member holds this interview: it can be read, and the decision is theirs (main refuses it otherwise). */
function HeldByOther({ message }: { message: { en: string; es: string } }) {
  const pick = useBilingual();
  const t = useT(messages);
  return (
    <div className="claim-held" role="status" data-testid="claim-held">
      <strong>{pick(message)}</strong> {t('heldReadOnly')}
    </div>
  );
}

function WorkspaceHeader({
  interviewId,
  overview,
  onAttach,
  linkTokenNotUsed,
}: {
  interviewId: string;
  overview: InterviewOverview | undefined;
  onAttach: () => void;
  linkTokenNotUsed: DeepLinkOpened['linkTokenNotUsed'];
}) {
  const t = useT(messages);
  const f = useFormat();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { fetching, updatedAt: refreshedAt } = useQueriesUnder(keys.interview.all(interviewId));
  const clear = useOmniMutation((api) => api.queue.clearToken({ interviewId }), {
    invalidate: [keys.interview.overview(interviewId), keys.queue.all()],
  });
  const labelOf = useEntryLabel();
  // A refused change of state is said under the facts, not inside them (it had pushed the header's row apart).
  const [stateRefusal, setStateRefusal] = useState<{ interviewId: string; error: IpcErrorData } | null>(null);

  const way = useWay(interviewId);
  const go = useCallback((to: string) => navigate(`/interviews/${encodeURIComponent(to)}`), [navigate]);
  const step = useStep(interviewId, way, go);
  useShortcut([
    { keys: 'j', description: { en: messages.en.shortcutNext, es: messages.es.shortcutNext }, run: () => step('next') },
    { keys: 'k', description: { en: messages.en.shortcutPrev, es: messages.es.shortcutPrev }, run: () => step('prev') },
  ]);

  const entry = overview?.entry;
  return (
    <header className="workspace-header">
      <nav className="workspace-nav" aria-label={t('backToQueue')}>
        <Link to="/interviews">← {t('backToQueue')}</Link>
        {/* The decision sits after the player and every finding in the Tab order: two stops from the top instead. */}
        <Button variant="link" onClick={focusDecision} data-testid="go-to-decision">
          {t('goToDecision')}
        </Button>
        {way.index >= 0 && (
          <span className="small muted num" data-testid="queue-position">
            {t('queuePosition', { n: way.index + 1, total: way.count })}
          </span>
        )}
        <Button onClick={() => step('prev')} disabled={!way.prev}>
          {t('prevInterview')}
        </Button>
        <Button onClick={() => step('next')} disabled={!way.next}>
          {t('nextInterview')}
        </Button>
      </nav>
      <div className="workspace-title">
        <h1>
          <span className="visually-hidden">{t('interview')} </span>
          <span className="mono" data-testid="interview-id">
            {interviewId}
          </span>
        </h1>
        {entry && labelOf(entry) && <span className="muted">{labelOf(entry)}</span>}
      </div>
      {!entry ? (
        <Skeleton rows={1} />
      ) : (
        <dl className="workspace-facts">
          <div>
            <dt>{t('colStatus')}</dt>
            <dd data-testid="session-status">
              <SessionStatusBadge status={entry.sessionStatus} />
            </dd>
          </div>
          <div>
            <dt>{t('colState')}</dt>
            <dd>
              <LocalStateControl
                interviewId={interviewId}
                state={entry.localState}
                onRefusal={(error) => setStateRefusal(error && { interviewId, error })}
              />
            </dd>
          </div>
          <div>
            <dt>{t('sessionToken')}</dt>
            <dd data-testid="token-state">
              {entry.hasSessionToken ? (
                <>
                  {t('tokenSet')} ·{' '}
                  <Button variant="link" onClick={onAttach}>
                    {t('replace')}
                  </Button>{' '}
                  ·{' '}
                  <Button variant="link" onClick={() => clear.mutate(undefined)}>
                    {t('clear')}
                  </Button>
                </>
              ) : (
                <>
                  <span className="muted">{t('tokenMissing')}</span> ·{' '}
                  <Button variant="link" onClick={onAttach}>
                    {t('attach')}
                  </Button>
                </>
              )}
            </dd>
          </div>
          <div>
            <dt className="visually-hidden">{t('refreshAll')}</dt>
            <dd>
              <span className="small muted num" aria-live="polite">
                {refreshedAt ? t('lastRefresh', { time: f.dateTime(refreshedAt) }) : ''}
              </span>{' '}
              <Button
                onClick={() => void readAgain(queryClient, { queryKey: keys.interview.all(interviewId) })}
                disabled={fetching}
              >
                {t('refreshAll')}
              </Button>
            </dd>
          </div>
        </dl>
      )}
      {linkTokenNotUsed && (
        <p className="notice notice-warn" role="status" data-testid="link-token-not-used">
          {t(linkTokenNotUsed === 'otherInterview' ? 'linkTokenOtherInterview' : 'linkTokenOtherHeld')}
        </p>
      )}
      {stateRefusal?.interviewId === interviewId && (
        <div data-testid="local-state-refusal">
          <ErrorNotice error={stateRefusal.error} />
        </div>
      )}
      {clear.error && <ErrorNotice error={clear.error.data} />}
    </header>
  );
}

const LOCAL_STATES: LocalReviewState[] = ['toReview', 'inReview', 'decided'];

/** The analyst's own state of the interview, changed by hand (reopen a decided one, put it back to review); audited in main. */
function LocalStateControl({
  interviewId,
  state,
  onRefusal,
}: {
  interviewId: string;
  state: LocalReviewState;
  onRefusal: (error: IpcErrorData | null) => void;
}) {
  const t = useT(messages);
  const stateLabel = useLocalStateLabel();
  const [chosen, setChosen] = useState<LocalReviewState | null>(null);
  /** A change is on its way; `latest` is the choice made meanwhile, sent when it lands. */
  const sending = useRef(false);
  const latest = useRef<LocalReviewState | null>(null);
  const change = useOmniMutation((api, next: LocalReviewState) => api.queue.setState({ interviewId, state: next }), {
    invalidate: [keys.interview.overview(interviewId), keys.interview.audit(interviewId), keys.queue.all()],
    onSuccess: () => onRefusal(null),
    onError: (error) => onRefusal(error.data),
  });
  const send = (next: LocalReviewState) => {
    sending.current = true;
    change.mutate(next, {
      onSettled: () => {
        const then = latest.current;
        latest.current = null;
        if (then !== null && then !== next) return send(then);
        sending.current = false;
        setChosen(null);
      },
    });
  };
  return (
    <span className="state-control">
      <Segmented
        label={t('changeState')}
        hideLabel
        testId="local-state"
        // The choice shows at once and goes back if the host refuses it. Not disabled while it is sent: that would
        // take the keyboard focus away. A choice made meanwhile waits for the one on its way, then follows it, so
        // main records the changes in the order they were made.
        value={chosen ?? state}
        onChange={(next) => {
          setChosen(next);
          if (sending.current) latest.current = next;
          else send(next);
        }}
        options={LOCAL_STATES.map((option) => ({ value: option, label: stateLabel(option) }))}
      />
      {change.isSuccess && change.data && (
        <span className="visually-hidden" role="status">
          {t('stateChanged', { state: stateLabel(change.data.localState) })}
        </span>
      )}
    </span>
  );
}

function TokenDialog({
  interviewId,
  open,
  onClose,
  onAttached,
}: {
  interviewId: string;
  open: boolean;
  onClose: () => void;
  onAttached: () => void;
}) {
  const t = useT(messages);
  const [value, setValue] = useState('');
  const attach = useOmniMutation((api, sessionToken: string) => api.queue.attachToken({ interviewId, sessionToken }), {
    invalidate: [keys.interview.overview(interviewId), keys.queue.all()],
    onSuccess: () => {
      setValue('');
      onAttached();
      onClose();
    },
  });
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('attachTitle')}
      actions={
        <Button variant="primary" form="token-form" type="submit" disabled={!value.trim() || attach.isPending}>
          {t('save')}
        </Button>
      }
    >
      <form
        id="token-form"
        onSubmit={(e) => {
          e.preventDefault();
          attach.mutate(value.trim());
        }}
      >
        <p className="small">{t('attachHint')}</p>
        <Field
          label={t('sessionToken')}
          mono
          type="password"
          autoComplete="off"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          data-autofocus
        />
        {attach.error && <ErrorNotice error={attach.error.data} />}
      </form>
    </Dialog>
  );
}
