import type { RefObject } from 'react';
import { useT } from '../../i18n/index';
import { messages } from './messages';
import { setQueueView, type QueueView } from './queue-view';

/** The queue's search, filters and sort; they change the shared queue view (queue-view.ts), which outlives the screen. */
export function QueueToolbar({ view, searchRef }: { view: QueueView; searchRef: RefObject<HTMLInputElement | null> }) {
  const t = useT(messages);
  const { search, state: stateFilter, status: statusFilter, sort } = view;
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
          <option value="all">{t('all')}</option>
          <option value="toReview">{t('stateToReview')}</option>
          <option value="inReview">{t('stateInReview')}</option>
          <option value="decided">{t('stateDecided')}</option>
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
          <option value="all">{t('all')}</option>
          <option value="Alive">{t('statusAlive')}</option>
          <option value="Closed">{t('statusClosed')}</option>
          <option value="Deleted">{t('statusDeleted')}</option>
          <option value="unknown">{t('unknownStatus')}</option>
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
