import type { RefObject } from 'react';
import type { QueueCounts } from '../../../common/ipc/queue';
import { useFormat, useT } from '../../i18n/index';
import { messages } from './messages';
import { countKept, setQueueView, type QueueView } from './queue-view';

/**
 * The queue's search, filters and sort; they change the shared queue view (queue-view.ts), which outlives the screen.
 * Each filter's option says how many entries it would keep, with the other filter and the search as they are.
 */
export function QueueToolbar({
  view,
  counts,
  searchRef,
}: {
  view: QueueView;
  counts: QueueCounts | undefined;
  searchRef: RefObject<HTMLInputElement | null>;
}) {
  const t = useT(messages);
  const f = useFormat();
  const { search, state: stateFilter, status: statusFilter, sort } = view;
  const n = (state: QueueView['state'], status: QueueView['status']) =>
    counts ? ` (${f.number(countKept(counts, state, status))})` : '';
  return (
    <div className="toolbar" role="search">
      <div className="field">
        <label htmlFor="queue-search">{t('searchLabel')}</label>
        <input
          id="queue-search"
          ref={searchRef}
          className="input"
          type="search"
          placeholder={t('searchPlaceholder')}
          value={search}
          onChange={(e) => setQueueView({ search: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor="queue-state">{t('filterState')}</label>
        <select
          id="queue-state"
          className="select"
          value={stateFilter}
          onChange={(e) => setQueueView({ state: e.target.value as QueueView['state'] })}
        >
          <option value="all">
            {t('all')}
            {n('all', statusFilter)}
          </option>
          <option value="toReview">
            {t('stateToReview')}
            {n('toReview', statusFilter)}
          </option>
          <option value="inReview">
            {t('stateInReview')}
            {n('inReview', statusFilter)}
          </option>
          <option value="decided">
            {t('stateDecided')}
            {n('decided', statusFilter)}
          </option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="queue-status">{t('filterStatus')}</label>
        <select
          id="queue-status"
          className="select"
          value={statusFilter}
          onChange={(e) => setQueueView({ status: e.target.value as QueueView['status'] })}
        >
          <option value="all">
            {t('all')}
            {n(stateFilter, 'all')}
          </option>
          <option value="Alive">
            {t('statusAlive')}
            {n(stateFilter, 'Alive')}
          </option>
          <option value="Closed">
            {t('statusClosed')}
            {n(stateFilter, 'Closed')}
          </option>
          <option value="Deleted">
            {t('statusDeleted')}
            {n(stateFilter, 'Deleted')}
          </option>
          <option value="unknown">
            {t('unknownStatus')}
            {n(stateFilter, 'unknown')}
          </option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="queue-sort">{t('sortLabel')}</label>
        <select
          id="queue-sort"
          className="select"
          value={sort}
          onChange={(e) => setQueueView({ sort: e.target.value as QueueView['sort'] })}
        >
          <option value="added">{t('sortAdded')}</option>
          <option value="id">{t('sortId')}</option>
          <option value="status">{t('sortStatus')}</option>
        </select>
      </div>
    </div>
  );
}
