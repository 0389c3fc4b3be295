import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { BULK_MAX, type BulkRefusal, type BulkResult } from '../../../common/ipc/bulk';
import type { IpcErrorData } from '../../../common/ipc/define';
import type { OmniApi } from '../../../common/ipc/index';
import { callOmni, keys, readAgain, useOmniQuery, type OmniCallError } from '../../api/index';
import { useBilingual, useFormat, useLocale, useT } from '../../i18n/index';
import { Button, ErrorNotice, ProgressBar, SelectField } from '../../ui/index';
import { bulkMessages } from './bulk-messages';
import { runInParts } from './bulk-parts';
import { followSaved } from './shared';
import type { RowSelection } from './useRowSelection';

/** Above this many rows an action shows its progress, sent in parts of PART_ROWS so it can move and be stopped. */
const PROGRESS_FROM = 5;
const PART_ROWS = 10;

type StepAction = 'release' | 'handOver' | 'readRisk' | 'remove' | 'restore';

interface Summary {
  action: StepAction | 'export';
  total: number;
  result: BulkResult;
  /** Stopped by the analyst after this many rows. */
  stoppedAt?: number;
  to?: string;
  savedTo?: string;
  cancelled?: boolean;
}

const call = (action: StepAction, ids: string[], to: string | undefined) => (api: OmniApi) =>
  action === 'handOver' ? api.bulk.handOver({ ids, to: to! }) : api.bulk[action]({ ids });

/**
 * What can be done to the checked rows of the queue: release their claims, hand them over (a supervisor on a team
 * database), read their risk without opening them, export them as a CSV file, remove them (with undo). Main does each
 * row as the single action does it; the summary says how many were done and lists each refused row with the reason.
 */
export function BulkBar({
  selection,
  supervisor,
  selectAll,
  capped,
}: {
  selection: RowSelection;
  supervisor: boolean;
  /** Checks every row of the view, read or not; absent once they all are. */
  selectAll: { count: number; run: () => void; busy: boolean } | undefined;
  /** "Select all" checked the first BULK_MAX rows of a larger view. */
  capped: boolean;
}) {
  const t = useT(bulkMessages);
  const f = useFormat();
  const { locale } = useLocale();
  const queryClient = useQueryClient();
  const ids = [...selection.checked];
  const [running, setRunning] = useState<{ total: number; done: number; startedAt: number } | null>(null);
  const [summary, setSummary] = useState<Summary | null>(null);
  /** Why the last action stopped or failed; `retry` goes on with the rows it did not reach. */
  const [error, setError] = useState<{ data: IpcErrorData; retry?: () => void } | null>(null);
  const [handingOver, setHandingOver] = useState(false);
  const stop = useRef(false);
  const readRiskHint = useId();

  const refresh = () =>
    Promise.all([keys.queue.all(), keys.team.all()].map((queryKey) => readAgain(queryClient, { queryKey })));

  const run = async (action: StepAction, rows: string[], to?: string) => {
    setSummary(null);
    setError(null);
    stop.current = false;
    const shown = rows.length > PROGRESS_FROM;
    const startedAt = Date.now();
    if (shown) setRunning({ total: rows.length, done: 0, startedAt });
    const { result, handled, failed } = await runInParts(
      rows,
      shown ? PART_ROWS : rows.length,
      (part) => callOmni(call(action, part, to)),
      {
        onProgress: (done) => shown && setRunning({ total: rows.length, done, startedAt }),
        stopped: () => stop.current,
      },
    );
    setRunning(null);
    const rest = rows.slice(handled);
    // Stopped by main (a rate limit, the service away): reading risk goes on from there when the analyst says so.
    if (result.stoppedBy)
      setError({
        data: result.stoppedBy,
        ...(action === 'readRisk' ? { retry: () => void run(action, rest, to) } : {}),
      });
    else if (failed) setError({ data: (failed as OmniCallError).data });
    setSummary({
      action,
      total: rows.length,
      result,
      ...(handled < rows.length ? { stoppedAt: handled } : {}),
      ...(to ? { to } : {}),
    });
    // Removed rows leave the view; the others stay checked for the next action (release, then export).
    if (action === 'remove') selection.drop(result.done);
    await refresh();
  };

  const exportCsv = async () => {
    setSummary(null);
    setError(null);
    try {
      const answer = await callOmni((api) => api.bulk.exportCsv({ ids, language: locale }));
      followSaved(answer);
      setSummary({
        action: 'export',
        total: ids.length,
        result: answer,
        ...(answer.saved ? {} : { cancelled: true }),
        ...(answer.savedTo ? { savedTo: answer.savedTo } : {}),
      });
      await refresh();
    } catch (caught) {
      setError({ data: (caught as OmniCallError).data });
    }
  };

  const busy = running !== null;
  return (
    <div className="bulk-area">
      {ids.length > 0 && (
        <div className="bulk-bar" role="toolbar" aria-label={t('bulkActions')} data-testid="bulk-bar">
          <strong className="bulk-count">{t('selectedCount', { n: f.number(ids.length) })}</strong>
          {/* On this computer's record too: "Take next" claims there as well. */}
          <Button onClick={() => void run('release', ids)} disabled={busy}>
            {t('release')}
          </Button>
          {supervisor && (
            <Button aria-expanded={handingOver} onClick={() => setHandingOver(!handingOver)} disabled={busy}>
              {t('handOver')}
            </Button>
          )}
          {/* What it does, for the keyboard and screen readers too, not only on hover. */}
          <Button
            onClick={() => void run('readRisk', ids)}
            disabled={busy}
            title={t('readRiskHint')}
            aria-describedby={readRiskHint}
          >
            {t('readRisk')}
          </Button>
          <span id={readRiskHint} className="visually-hidden">
            {t('readRiskHint')}
          </span>
          <Button onClick={() => void exportCsv()} disabled={busy}>
            {t('exportCsv')}
          </Button>
          <Button variant="danger" onClick={() => void run('remove', ids)} disabled={busy}>
            {t('remove')}
          </Button>
          {selectAll && (
            <Button variant="link" onClick={selectAll.run} disabled={busy || selectAll.busy}>
              {t('selectAllInView', { n: f.number(selectAll.count) })}
            </Button>
          )}
          <Button variant="link" onClick={selection.clear} disabled={busy}>
            {t('clearSelection')}
          </Button>
        </div>
      )}
      {capped && ids.length > 0 && (
        <p className="notice notice-warn small" role="status" data-testid="bulk-capped">
          {t('selectionCapped', { n: f.number(BULK_MAX) })}
        </p>
      )}
      {handingOver && ids.length > 0 && (
        <HandOverForm
          busy={busy}
          onCancel={() => setHandingOver(false)}
          onHandOver={(to) => {
            setHandingOver(false);
            void run('handOver', ids, to);
          }}
        />
      )}
      {running && (
        <ProgressBar
          label={t('working')}
          unit="rows"
          done={running.done}
          total={running.total}
          startedAt={running.startedAt}
          onCancel={() => (stop.current = true)}
        />
      )}
      {error && <ErrorNotice error={error.data} {...(error.retry ? { onRetry: error.retry } : {})} />}
      {summary && (
        <BulkSummary
          summary={summary}
          onUndo={
            summary.action === 'remove' && summary.result.done.length > 0
              ? () => void run('restore', summary.result.done)
              : undefined
          }
          onDismiss={() => setSummary(null)}
        />
      )}
    </div>
  );
}

/** A supervisor picks the member to hand the rows to (the team's reviewers, from the supervisor's overview). */
function HandOverForm({
  busy,
  onHandOver,
  onCancel,
}: {
  busy: boolean;
  onHandOver: (to: string) => void;
  onCancel: () => void;
}) {
  const t = useT(bulkMessages);
  const overview = useOmniQuery(keys.team.overview(), (api) => api.team.overview({}));
  const members = (overview.data?.members ?? []).filter((m) => m.roles.includes('reviewer'));
  const [to, setTo] = useState('');
  return (
    <form
      className="bulk-hand-over"
      onSubmit={(e) => {
        e.preventDefault();
        if (to) onHandOver(to);
      }}
    >
      <SelectField id="bulk-hand-over-to" label={t('handOverTo')} value={to} onChange={(e) => setTo(e.target.value)}>
        <option value="">{t('handOverPick')}</option>
        {members.map((m) => (
          <option key={m.user} value={m.user}>
            {m.user}
          </option>
        ))}
      </SelectField>
      <Button type="submit" variant="primary" disabled={busy || !to}>
        {t('handOverConfirm')}
      </Button>
      <Button variant="link" onClick={onCancel}>
        {t('cancel')}
      </Button>
      {overview.error && <ErrorNotice error={overview.error.data} />}
    </form>
  );
}

/** How many were done, and each refused row with the reason; a removal can be undone from here. */
function BulkSummary({
  summary,
  onUndo,
  onDismiss,
}: {
  summary: Summary;
  onUndo: (() => void) | undefined;
  onDismiss: () => void;
}) {
  const t = useT(bulkMessages);
  const f = useFormat();
  const pick = useBilingual();
  const heading = useRef<HTMLParagraphElement>(null);
  // The buttons that ran it may be gone (removed rows empty the selection): the summary takes the focus.
  useEffect(() => heading.current?.focus(), [summary]);
  const { done, refused } = summary.result;
  const counts = { done: f.number(done.length), total: f.number(summary.total) };
  const said = summary.cancelled
    ? t('exportCancelled')
    : {
        release: () => t('doneRelease', counts),
        handOver: () => t('doneHandOver', { ...counts, to: summary.to ?? '' }),
        remove: () => t('doneRemove', counts),
        restore: () => t('doneRestore', counts),
        readRisk: () => t('doneReadRisk', counts),
        export: () =>
          summary.savedTo ? t('doneExportTo', { ...counts, path: summary.savedTo }) : t('doneExport', counts),
      }[summary.action]();
  const tone = refused.length > 0 || summary.stoppedAt !== undefined ? ' notice-warn' : ' notice-ok';
  return (
    <div className={`notice bulk-summary${tone}`} role="status" data-testid="bulk-summary">
      <p ref={heading} tabIndex={-1}>
        {said}
        {summary.stoppedAt !== undefined &&
          ` ${t('stopped', { done: f.number(summary.stoppedAt), total: counts.total })}`}{' '}
        {onUndo && <Button onClick={onUndo}>{t('undo')}</Button>}{' '}
        <Button variant="link" onClick={onDismiss}>
          {t('dismiss')}
        </Button>
      </p>
      {refused.length > 0 && (
        <>
          <p className="bulk-refused-heading">{t('refusedHeading', { n: f.number(refused.length) })}</p>
          <ul className="bulk-refused" data-testid="bulk-refused">
            {refused.map((r: BulkRefusal) => (
              <li key={r.interviewId}>
                <span className="mono">{r.interviewId}</span>: {pick(r.message)}
                {r.advice && <span className="small muted"> {pick(r.advice)}</span>}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
