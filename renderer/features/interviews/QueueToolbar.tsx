import { useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { QUEUE_SEARCH_MAX } from '../../../common/ipc/queue';
import { useFormat, useT } from '../../i18n/index';
import { SelectField } from '../../ui/index';
import { messages } from './messages';
import { setQueueView, type QueueView } from './queue-view';

type Key = keyof (typeof messages)['en'] & string;

/**
 * The queue's view picker, search, sort and filters; they change the shared queue view (queue-view.ts), which
 * outlives the screen. Who holds an interview is a filter on a team database only: on this computer's record nobody
 * else can.
 */
export function QueueToolbar({
  view,
  searchRef,
  team,
  picker,
  onSearchKey,
  searchError,
}: {
  view: QueueView;
  searchRef: RefObject<HTMLInputElement | null>;
  team: boolean;
  picker: ReactNode;
  /** Esc and Enter in the search: the queue's, since the shortcuts give way to a field being typed in. */
  onSearchKey?: (event: KeyboardEvent<HTMLInputElement>) => void;
  /** Why main refused the search (a search kept from before the field had its limit), said under it. */
  searchError?: string;
}) {
  const t = useT(messages);
  const f = useFormat();
  // The field holds QUEUE_SEARCH_MAX characters (maxLength); a paste that did not fit is said, not cut silently.
  const pasteTooLong = useRef(false);
  const [cut, setCut] = useState(false);
  const said = searchError ?? (cut ? t('searchCut', { max: f.number(QUEUE_SEARCH_MAX) }) : undefined);
  return (
    <>
      {/* The toolbar's fields line up by their bottoms; a reason under the search would lift its box above the others,
          so while one shows they line up by their tops (their labels are one line each). */}
      <div className={said ? 'toolbar toolbar-top' : 'toolbar'} role="search">
        {picker}
        <div className="field queue-search">
          <label htmlFor="queue-search">{t('searchLabel')}</label>
          <input
            id="queue-search"
            ref={searchRef}
            className="input"
            type="search"
            placeholder={t('searchPlaceholder')}
            value={view.search}
            maxLength={QUEUE_SEARCH_MAX}
            aria-invalid={searchError ? true : undefined}
            aria-describedby={said ? 'queue-search-error' : undefined}
            onPaste={(e) => {
              const box = e.currentTarget;
              const replaced = (box.selectionEnd ?? 0) - (box.selectionStart ?? 0);
              const room = QUEUE_SEARCH_MAX - (box.value.length - replaced);
              pasteTooLong.current = e.clipboardData.getData('text').length > room;
              if (pasteTooLong.current) setCut(true);
            }}
            onChange={(e) => {
              if (!pasteTooLong.current) setCut(false);
              pasteTooLong.current = false;
              setQueueView({ search: e.target.value });
            }}
            onKeyDown={onSearchKey}
          />
          {said && (
            <span id="queue-search-error" className="field-error" role="alert" data-testid="queue-search-error">
              {said}
            </span>
          )}
        </div>
        <FilterSelect
          view={view}
          field="sort"
          label="sortLabel"
          options={[
            ['added', 'sortAdded'],
            ['risk', 'sortRisk'],
            ['id', 'sortId'],
            ['status', 'sortStatus'],
          ]}
        />
      </div>
      <div className="queue-filters">
        <FilterSelect
          view={view}
          field="state"
          label="filterState"
          options={[
            ['all', 'all'],
            ['toReview', 'stateToReview'],
            ['inReview', 'stateInReview'],
            ['decided', 'stateDecided'],
          ]}
        />
        <FilterSelect
          view={view}
          field="status"
          label="filterStatus"
          options={[
            ['all', 'all'],
            ['Alive', 'statusAlive'],
            ['Closed', 'statusClosed'],
            ['Deleted', 'statusDeleted'],
            ['unknown', 'unknownStatus'],
          ]}
        />
        {team && (
          <FilterSelect
            view={view}
            field="holder"
            label="filterHolder"
            options={[
              ['all', 'all'],
              ['mine', 'holderMine'],
              ['unclaimed', 'holderUnclaimed'],
              ['others', 'holderOthers'],
            ]}
          />
        )}
        <FilterSelect
          view={view}
          field="review"
          label="filterReview"
          options={[['all', 'all'], ['waiting', 'reviewWaiting'], ...(team ? [['forMe', 'reviewForMe'] as const] : [])]}
        />
        <FilterSelect
          view={view}
          field="age"
          label="filterAge"
          options={[
            ['all', 'all'],
            ['pastTarget', 'agePastTarget'],
            ['withinTarget', 'ageWithinTarget'],
          ]}
        />
        <FilterSelect
          view={view}
          field="risk"
          label="filterRisk"
          options={[
            ['all', 'all'],
            ['high', 'riskHigh'],
            ['medium', 'riskMedium'],
            ['low', 'riskLow'],
            ['unknown', 'riskUnknown'],
          ]}
        />
      </div>
    </>
  );
}

/** One select of the toolbar, bound to one field of the view. */
function FilterSelect<F extends Exclude<keyof QueueView, 'search'>>({
  view,
  field,
  label,
  options,
}: {
  view: QueueView;
  field: F;
  label: Key;
  options: readonly (readonly [QueueView[F], Key])[];
}) {
  const t = useT(messages);
  const id = `queue-${field}`;
  // A view kept with a value this screen no longer offers (the holder filter off a team database) still shows.
  const offered = options.some(([value]) => value === view[field]);
  return (
    <SelectField
      id={id}
      label={t(label)}
      value={view[field]}
      onChange={(e) => setQueueView({ [field]: e.target.value } as Partial<QueueView>)}
    >
      {options.map(([value, text]) => (
        <option key={value} value={value}>
          {t(text)}
        </option>
      ))}
      {!offered && <option value={view[field]}>{view[field]}</option>}
    </SelectField>
  );
}
