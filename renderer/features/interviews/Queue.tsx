import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useNavigate } from 'react-router-dom';
import type { QueueCounts, QueueEntry, QueueQuery } from '../../../common/ipc/queue';
import { BULK_MAX } from '../../../common/ipc/bulk';
import { callOmni, keys, useOmniMutation, type OmniCallError } from '../../api/index';
import { QUEUE_PAGE, useQueueCounts, useQueueNeighbours, useQueuePages } from '../../api/queue';
import { useShortcut } from '../../ui/shortcuts';
import { useFormat, useLocale, useT } from '../../i18n/index';
import { Button, ErrorNotice, issueAt, Skeleton } from '../../ui/index';
import { messages } from './messages';
import { QueueToolbar } from './QueueToolbar';
import { QueueRow } from './QueueRow';
import { useTableRows } from './useTableRows';
import { countKept, isFiltered, queueQuery, scopeOf, useQueueWalk } from './queue-view';
import { QueueViewActions, QueueViewPicker } from './QueueViews';
import { AddPanel, DemoSeedsPanel } from './AddPanels';
import { useSettled } from './useSettled';
import { PastTarget, TakeNext, useHolders, useOnTeamDatabase, useSupervisor, useWaitingAge } from './team-queue';
import { BulkBar } from './BulkBar';
import { bulkMessages } from './bulk-messages';
import { useRowSelection } from './useRowSelection';

/** How long typing in the search must pause before main is asked. */
const SEARCH_PAUSE_MS = 200;

export function QueueScreen() {
  const t = useT(messages);
  // The view and the row to come back to outlive this screen (queue-view.ts): back from an interview, the queue
  // is as the analyst left it, with that interview's row selected.
  const { view, lastVisited } = useQueueWalk();
  const search = useSettled(view.search, SEARCH_PAUSE_MS);
  const query = useMemo(() => queueQuery(view, search), [view, search]);
  // Where the interview just seen sits on this view: the pages are read that far, so its row can be shown.
  const [restoring, setRestoring] = useState(lastVisited !== null);
  const place = useQueueNeighbours(restoring ? lastVisited : null, query);
  const target = restoring ? (place.data?.index ?? -1) : -1;
  const pages = useQueuePages(query, target >= 0 ? target + QUEUE_PAGE / 2 : 0);
  const counts = useQueueCounts(query.search, scopeOf(view));
  const filtered = isFiltered(view, search);
  // Adding is occasional, so it waits behind a button and the rows take the width; an empty queue opens it, since
  // there is nothing else to do there (and it stays open until closed, not while the first rows come in).
  const [adding, setAdding] = useState<'closed' | 'open' | 'opened'>('closed');
  const empty = !filtered && pages.data?.pages[0]?.rows.length === 0;
  useEffect(() => {
    if (empty) setAdding((a) => (a === 'closed' ? 'open' : a));
  }, [empty]);
  // The toolbar stands above the rows' states, so the search stays there to correct whatever they show.
  const team = useOnTeamDatabase();
  const searchRef = useRef<HTMLInputElement>(null);
  // Esc and Enter in the search act on the rows: the table's, while it is drawn.
  const searchKey = useRef<((event: KeyboardEvent<HTMLInputElement>) => void) | null>(null);
  const { locale } = useLocale();
  const searchRefused =
    issueAt(pages.error?.data, ['search'], locale, t('fieldInvalid')) ??
    issueAt(counts.error?.data, ['search'], locale, t('fieldInvalid'));
  useShortcut({
    keys: '/',
    description: { en: messages.en.shortcutSearch, es: messages.es.shortcutSearch },
    run: () => searchRef.current?.focus(),
  });
  return (
    <div className="queue-screen">
      <div className="queue-heading">
        <h1>{t('queueTitle')}</h1>
        <div className="queue-heading-actions">
          <Button
            aria-expanded={adding !== 'closed'}
            aria-controls="queue-add"
            onClick={() => setAdding(adding === 'closed' ? 'opened' : 'closed')}
            data-testid="queue-add-toggle"
          >
            {t('addTitle')}
          </Button>
          <TakeNext within={filtered ? { filter: query.filter, search: query.search } : undefined} />
        </div>
      </div>
      {adding !== 'closed' && (
        <div id="queue-add" className="queue-add">
          <p className="muted">{t('queueIntro')}</p>
          <div className="queue-add-grid">
            {/* Opened by the button: the keyboard goes on to the id field. */}
            <AddPanel autoFocus={adding === 'opened'} />
            <DemoSeedsPanel />
          </div>
        </div>
      )}
      <div className="queue-list">
        <div>
          {/* The rows' panel, its four states drawn here rather than by Panel: the toolbar stays above whichever one
              shows, so a search main refuses is corrected where it was typed (an error in Panel replaced it). */}
          <section className="panel" aria-busy={pages.isPending || undefined}>
            <div className="panel-header">
              <h2>{t('queueTitle')}</h2>
            </div>
            <QueueToolbar
              view={view}
              searchRef={searchRef}
              team={team}
              picker={<QueueViewPicker view={view} team={team} />}
              onSearchKey={(event) => searchKey.current?.(event)}
              searchError={searchRefused}
            />
            {searchRefused ? (
              <p className="panel-empty">{t('searchRefusedRows')}</p>
            ) : pages.error ? (
              <ErrorNotice error={pages.error.data} onRetry={() => void pages.refetch()} />
            ) : pages.isPending || pages.data === undefined ? (
              <Skeleton rows={6} />
            ) : empty ? (
              <p className="panel-empty">{t('queueEmpty')}</p>
            ) : (
              <QueueTable
                searchRef={searchRef}
                searchKey={searchKey}
                rows={pages.data.pages.flatMap((p) => p.rows)}
                query={query}
                readFor={pages.isPlaceholderData ? null : search}
                more={{
                  has: pages.hasNextPage,
                  fetching: pages.isFetching,
                  fetch: () => void pages.fetchNextPage(),
                }}
                counts={counts.data}
                // Unknown yet: wait for the place before restoring; known (or none): rows up to it, then restore.
                // A place that could not be read (the team database away) restores within the rows read.
                restoreTo={
                  restoring && lastVisited
                    ? { interviewId: lastVisited, index: place.isError ? -1 : place.data?.index }
                    : null
                }
                onRestored={() => setRestoring(false)}
              />
            )}
          </section>
        </div>
      </div>
    </div>
  );
}

/** Said after a removal, with a way back. Takes the focus: the button that had it went away with its row. */
function RemovedNotice({
  interviewId,
  undoing,
  onUndo,
  onDismiss,
}: {
  interviewId: string;
  undoing: boolean;
  onUndo: () => void;
  onDismiss: () => void;
}) {
  const t = useT(messages);
  const undo = useRef<HTMLButtonElement>(null);
  useEffect(() => undo.current?.focus(), [interviewId]);
  return (
    <div className="notice" role="status" data-testid="queue-removed">
      <span>{t('removedNotice', { id: interviewId })}</span>{' '}
      <Button ref={undo} onClick={onUndo} disabled={undoing}>
        {t('undo')}
      </Button>{' '}
      <Button variant="link" onClick={onDismiss}>
        {t('dismiss')}
      </Button>
    </div>
  );
}

/** Rows from the end of those read at which the next page is asked for, so scrolling rarely reaches the end. */
const READ_AHEAD_ROWS = 30;

/** A row with its label line; rows are measured as drawn, this only places the ones not drawn yet. */
function QueueTable({
  searchRef,
  searchKey,
  rows,
  query,
  readFor,
  more,
  counts,
  restoreTo,
  onRestored,
}: {
  searchRef: RefObject<HTMLInputElement | null>;
  /** Set to what Esc and Enter in the search do to these rows (the toolbar is the screen's). */
  searchKey: RefObject<((event: KeyboardEvent<HTMLInputElement>) => void) | null>;
  /** The rows read so far, in the view's order; more are read as the table scrolls towards their end. */
  rows: QueueEntry[];
  /** The view these rows are of: "select all in this view" asks main for all of its ids. */
  query: QueueQuery;
  /** The search these rows were read for; null while an earlier search's rows stand in for them. */
  readFor: string | null;
  more: { has: boolean; fetching: boolean; fetch: () => void };
  counts: QueueCounts | undefined;
  /** The row to select once read (the interview just seen) and its place on this view, when known. */
  restoreTo: { interviewId: string; index: number | undefined } | null;
  onRestored: () => void;
}) {
  const t = useT(messages);
  const f = useFormat();
  const navigate = useNavigate();
  const { view } = useQueueWalk();
  const team = useOnTeamDatabase();
  const holders = useHolders();
  const age = useWaitingAge();
  const supervisor = useSupervisor();
  const tb = useT(bulkMessages);
  const rowIds = useMemo(() => rows.map((e) => e.interviewId), [rows]);
  const selection = useRowSelection(
    rowIds,
    useMemo(() => JSON.stringify(query), [query]),
  );
  const viewCount = counts ? countKept(counts, view.state, view.status) : rows.length;
  const allChecked = selection.checked.size > 0 && selection.checked.size >= viewCount;
  const [selectingAll, setSelectingAll] = useState(false);
  const [selectAllError, setSelectAllError] = useState<OmniCallError | null>(null);
  // The view held more rows than one action takes: the first BULK_MAX are checked, and the bar says so.
  const [selectedFirstOnly, setSelectedFirstOnly] = useState(false);
  const capped = selectedFirstOnly && selection.checked.size >= BULK_MAX;
  const selectAll = async () => {
    if (allChecked) return selection.clear();
    setSelectingAll(true);
    setSelectAllError(null);
    try {
      const view = await callOmni((api) => api.bulk.viewIds(query));
      selection.replace(view.ids);
      setSelectedFirstOnly(view.more);
    } catch (error) {
      setSelectAllError(error as OmniCallError);
    } finally {
      setSelectingAll(false);
    }
  };
  const [selected, setSelected] = useState(() =>
    Math.max(
      0,
      rows.findIndex((e) => e.interviewId === restoreTo?.interviewId),
    ),
  );
  const tableRef = useRef<HTMLTableElement>(null);
  const { virtualizer, items, before, after, rowsOffset } = useTableRows(
    rows.length,
    (index) => rows[index]!.interviewId,
    tableRef,
  );
  // A removal can be undone: the entry comes back with its state and label (main keeps it for this run).
  const [removedId, setRemovedId] = useState<string | null>(null);
  const remove = useOmniMutation((api, interviewId: string) => api.queue.remove({ interviewId }), {
    invalidate: [keys.queue.all()],
    onSuccess: (_result, interviewId) => {
      setRemovedId(interviewId);
      selection.drop([interviewId]);
    },
  });
  const restore = useOmniMutation((api, interviewId: string) => api.queue.restore({ interviewId }), {
    invalidate: [keys.queue.all()],
    onSuccess: () => setRemovedId(null),
  });

  // The next page is read when the rows drawn come near the end of those read, or to reach the row to restore.
  const lastDrawn = items.at(-1)?.index ?? 0;
  const reaching = restoreTo?.index !== undefined && restoreTo.index >= rows.length;
  useEffect(() => {
    if (more.has && !more.fetching && (reaching || lastDrawn >= rows.length - READ_AHEAD_ROWS)) more.fetch();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [more.has, more.fetching, reaching, lastDrawn, rows.length]);

  const current = Math.min(selected, Math.max(0, rows.length - 1));
  const move = (delta: number) => {
    const next = Math.max(0, Math.min(rows.length - 1, current + delta));
    setSelected(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };
  // Back from an interview, its row is selected once read; below the fold it is brought into view, while a row that
  // shows, even in part, leaves the screen at its top. Once, when the rows' place is known (the virtualizer's
  // positions include it). An effect, not a layout effect: the frame puts every new screen at its top in a layout
  // effect, and this comes after.
  // Rows kept from an earlier visit may lack the row (the queue changed meanwhile): wait for the fresh read.
  const waiting =
    restoreTo !== null && (restoreTo.index === undefined || (reaching && more.has) || (reaching && more.fetching));
  useEffect(() => {
    const scroller = tableRef.current?.closest('main');
    if (!restoreTo || waiting || rowsOffset === 0 || !scroller) return;
    onRestored();
    const index = rows.findIndex((e) => e.interviewId === restoreTo.interviewId);
    if (index < 0) return;
    setSelected(index);
    const row = virtualizer.measurementsCache[index];
    if (row && row.start >= scroller.scrollTop + scroller.clientHeight)
      virtualizer.scrollToIndex(index, { align: 'center' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rowsOffset, waiting]);
  const open = (entry: QueueEntry | undefined) =>
    entry && navigate(`/interviews/${encodeURIComponent(entry.interviewId)}`);

  // Esc in the search goes back to the rows, keeping what was typed (the browser would clear it), so the next `j`
  // moves the selection instead of being typed. The table takes the focus: the shortcuts act on its selected row.
  const toRows = () => {
    if (tableRef.current) tableRef.current.focus({ preventScroll: true });
    else searchRef.current?.blur();
  };
  // Enter in the search opens the one interview it finds, once main has answered for the text typed so far (the
  // search is asked when typing pauses); several go back to the rows, as Esc does; none leave the focus where it is.
  const [enterFor, setEnterFor] = useState<string | null>(null);
  const answered = enterFor !== null && enterFor === view.search && readFor === enterFor && !more.fetching;
  useEffect(() => {
    if (!answered) return;
    setEnterFor(null);
    if (rows.length === 1 && !more.has) open(rows[0]);
    else if (rows.length > 1) toRows();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [answered]);
  const onSearchKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      toRows();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      setEnterFor(view.search);
    }
  };

  useShortcut([
    { keys: 'j', description: { en: messages.en.shortcutNext, es: messages.es.shortcutNext }, run: () => move(1) },
    { keys: 'k', description: { en: messages.en.shortcutPrev, es: messages.es.shortcutPrev }, run: () => move(-1) },
    {
      keys: 'x',
      description: { en: bulkMessages.en.shortcutToggle, es: bulkMessages.es.shortcutToggle },
      run: () => rows[current] && selection.toggle(rows[current].interviewId, { range: false }),
    },
    // Gives way to a link, button or field that Enter already acts on (the shortcut provider's controlOwnsKey).
    {
      keys: 'Enter',
      description: { en: messages.en.shortcutOpen, es: messages.es.shortcutOpen },
      run: () => open(rows[current]),
    },
  ]);

  useEffect(() => {
    searchKey.current = onSearchKey;
    return () => {
      searchKey.current = null;
    };
  });

  return (
    <>
      <div className="queue-summary">
        <p className="small muted" aria-live="polite">
          {counts &&
            `${t('queueCount', {
              shown: f.number(countKept(counts, view.state, view.status)),
              total: f.number(counts.total),
            })} · `}
          <PastTarget />
          {t('keyboardHint')}
          {/* The dash in the Risk column said only in a tooltip: said once, where the rows are counted. */}
          {rows.some((r) => !r.risk) && ` · ${t('riskNotReadLegend')}`}
        </p>
        <QueueViewActions view={view} team={team} />
      </div>
      {/* Said to screen readers whenever the count changes; the bar shows it to the eye. */}
      <p className="visually-hidden" aria-live="polite" data-testid="queue-selection-said">
        {selection.checked.size > 0 ? tb('selectedCount', { n: f.number(selection.checked.size) }) : tb('noneSelected')}
      </p>
      <BulkBar
        selection={selection}
        supervisor={supervisor}
        selectAll={
          allChecked || capped ? undefined : { count: viewCount, run: () => void selectAll(), busy: selectingAll }
        }
        capped={capped}
      />
      {selectAllError && <ErrorNotice error={selectAllError.data} />}
      {remove.error && <ErrorNotice error={remove.error.data} />}
      {removedId && (
        <RemovedNotice
          interviewId={removedId}
          undoing={restore.isPending}
          onUndo={() => restore.mutate(removedId)}
          onDismiss={() => setRemovedId(null)}
        />
      )}
      {restore.error && <ErrorNotice error={restore.error.data} />}
      {rows.length === 0 ? (
        <p className="panel-empty">{t('queueNoMatch')}</p>
      ) : (
        <div className="queue-table-scroll">
          <table
            ref={tableRef}
            // Focused by Esc or Enter in the search, so the keys act on the selected row; not a Tab stop.
            tabIndex={-1}
            className="table queue-table"
            aria-rowcount={
              (counts ? Math.max(rows.length, countKept(counts, view.state, view.status)) : rows.length) + 1
            }
          >
            <thead>
              <tr aria-rowindex={1}>
                <th scope="col" className="queue-check">
                  <input
                    type="checkbox"
                    className="queue-checkbox"
                    checked={allChecked}
                    ref={(box) => {
                      if (box) box.indeterminate = selection.checked.size > 0 && !allChecked;
                    }}
                    disabled={selectingAll || viewCount === 0}
                    aria-label={tb('selectAllInView', { n: f.number(viewCount) })}
                    title={tb('selectAllInView', { n: f.number(viewCount) })}
                    onChange={() => void selectAll()}
                    data-testid="queue-select-all"
                  />
                </th>
                {/* The id and its label: the label gives way (cut short) so the id stays whole and the row one line. */}
                <th scope="col" colSpan={2}>
                  {t('colInterview')}
                </th>
                <th scope="col">{t('colStatus')}</th>
                <th scope="col">{t('filterRisk')}</th>
                <th scope="col">{t('colState')}</th>
                <th scope="col" className="num">
                  {t('colWaiting')}
                </th>
                {holders && <th scope="col">{t('colHolder')}</th>}
                <th scope="col" className="num">
                  {t('colOpened')}
                </th>
                <th scope="col">
                  <span className="visually-hidden">{t('colActions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {before > 0 && (
                <tr aria-hidden="true" className="queue-spacer">
                  <td colSpan={holders ? 10 : 9} style={{ height: before }} />
                </tr>
              )}
              {items.map((item) => (
                <QueueRow
                  key={item.key}
                  entry={rows[item.index]!}
                  index={item.index}
                  current={item.index === current}
                  checked={selection.checked.has(rows[item.index]!.interviewId)}
                  onCheck={(interviewId, range) => selection.toggle(interviewId, { range })}
                  measure={virtualizer.measureElement}
                  onSelect={setSelected}
                  waiting={age(rows[item.index]!)}
                  holder={holders && { claim: holders.get(rows[item.index]!.interviewId) }}
                  onRemove={(interviewId) => remove.mutate(interviewId)}
                />
              ))}
              {after > 0 && (
                <tr aria-hidden="true" className="queue-spacer">
                  <td colSpan={holders ? 10 : 9} style={{ height: after }} />
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
