import { useEffect, useState, type FormEvent } from 'react';
import { SAVED_VIEW_NAME_MAX, SavedViewName, type SavedView } from '../../../common/ipc/queue';
import { keys, useOmniMutation, useOmniQuery } from '../../api/index';
import { common } from '../../i18n/common';
import { useLocale, useT } from '../../i18n/index';
import { Button, ErrorNotice, Field, fieldsSayIt, issueAt, schemaReason, SelectField } from '../../ui/index';
import { messages } from './messages';
import { DEFAULT_VIEW, queueQuery, sameView, setQueueView, viewOf, type QueueView } from './queue-view';

type Key = keyof (typeof messages)['en'] & string;

/** Views every analyst has: what they are for is the same in every team. Those about holders need a team database. */
const READY_MADE: { id: string; name: Key; team?: true; view: Partial<QueueView> }[] = [
  { id: 'mine', name: 'viewMine', team: true, view: { holder: 'mine' } },
  { id: 'unclaimed', name: 'viewUnclaimed', team: true, view: { holder: 'unclaimed', state: 'toReview' } },
  { id: 'waiting', name: 'viewWaiting', view: { review: 'waiting' } },
  { id: 'forMe', name: 'viewForMe', team: true, view: { review: 'forMe' } },
  { id: 'pastTarget', name: 'viewPastTarget', view: { age: 'pastTarget' } },
  { id: 'highRisk', name: 'viewHighRisk', view: { risk: 'high' } },
];

/** The views on offer, and which one the queue shows now ('all', 'custom' for unsaved filters, or a view's id). */
function useViews(view: QueueView, team: boolean) {
  const saved = useOmniQuery(keys.queue.views(), (api) => api.queue.views({}));
  const readyMade = READY_MADE.filter((r) => team || !r.team).map((r) => ({
    ...r,
    view: { ...DEFAULT_VIEW, ...r.view },
  }));
  const list = saved.data ?? [];
  const current = sameView(view, DEFAULT_VIEW)
    ? 'all'
    : (readyMade.find((r) => sameView(view, r.view))?.id ??
      list.find((s) => sameView(view, viewOf(s.query)))?.id.toString() ??
      'custom');
  return { saved, readyMade, list, current, currentOwn: list.find((s) => s.mine && s.id.toString() === current) };
}

/**
 * The queue's views: all interviews, the ready-made ones, and those saved in the review record (the analyst's own and
 * the team's shared ones). Picking one sets every filter, the sort and the search; changing a filter afterwards reads
 * as unsaved filters, which can be saved under a name (QueueViewActions).
 */
export function QueueViewPicker({ view, team }: { view: QueueView; team: boolean }) {
  const t = useT(messages);
  const { readyMade, list, current } = useViews(view, team);
  const own = list.filter((s) => s.mine);
  const shared = list.filter((s) => !s.mine);
  const pick = (id: string) => {
    const ready = readyMade.find((r) => r.id === id);
    const kept = list.find((s) => s.id.toString() === id);
    if (id === 'all') setQueueView(DEFAULT_VIEW);
    else if (ready) setQueueView(ready.view);
    else if (kept) setQueueView(viewOf(kept.query));
  };
  return (
    <SelectField
      id="queue-view"
      frameClassName="queue-view-picker"
      label={t('viewLabel')}
      value={current}
      onChange={(e) => pick(e.target.value)}
    >
      <option value="all">{t('viewAll')}</option>
      {current === 'custom' && <option value="custom">{t('viewCustom')}</option>}
      <optgroup label={t('viewsReady')}>
        {readyMade.map((r) => (
          <option key={r.id} value={r.id}>
            {t(r.name)}
          </option>
        ))}
      </optgroup>
      {own.length > 0 && (
        <optgroup label={t('viewsOwn')}>
          {own.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </optgroup>
      )}
      {shared.length > 0 && (
        <optgroup label={t('viewsTeam')}>
          {shared.map((s) => (
            <option key={s.id} value={s.id}>
              {t('viewSharedBy', { name: s.name, owner: s.owner })}
            </option>
          ))}
        </optgroup>
      )}
    </SelectField>
  );
}

/** How long "view saved" or "view deleted" stays said. */
const SAID_FOR_MS = 6_000;

/** Saving the filters as a view (a small form), and deleting the analyst's own view in use. */
export function QueueViewActions({ view, team }: { view: QueueView; team: boolean }) {
  const t = useT(messages);
  const tc = useT(common);
  const { saved, currentOwn } = useViews(view, team);
  const [saving, setSaving] = useState(false);
  const [said, setSaid] = useState<string | null>(null);
  useEffect(() => {
    if (!said) return;
    const timer = setTimeout(() => setSaid(null), SAID_FOR_MS);
    return () => clearTimeout(timer);
  }, [said]);
  const remove = useOmniMutation((api, v: SavedView) => api.queue.deleteView({ id: v.id }), {
    invalidate: [keys.queue.views()],
    onSuccess: (_r, v) => setSaid(t('viewDeleted', { name: v.name })),
  });
  return (
    <>
      <span className="queue-view-actions">
        {said && (
          <span className="small muted" role="status">
            {said}
          </span>
        )}
        {currentOwn && (
          <Button variant="link" disabled={remove.isPending} onClick={() => remove.mutate(currentOwn)}>
            {t('deleteView')}
          </Button>
        )}
        {!saving && (
          <Button variant="link" onClick={() => setSaving(true)}>
            {t('saveView')}
          </Button>
        )}
      </span>
      {saving && (
        <SaveViewForm
          view={view}
          team={team}
          initialName={currentOwn?.name ?? ''}
          onDone={(name) => {
            setSaving(false);
            if (name) setSaid(t('viewSaved', { name }));
          }}
          cancelLabel={tc('cancel')}
        />
      )}
      {remove.error && <ErrorNotice error={remove.error.data} />}
      {saved.error && <ErrorNotice error={saved.error.data} />}
    </>
  );
}

function SaveViewForm({
  view,
  team,
  initialName,
  onDone,
  cancelLabel,
}: {
  view: QueueView;
  team: boolean;
  initialName: string;
  onDone: (savedName?: string) => void;
  cancelLabel: string;
}) {
  const t = useT(messages);
  const { locale } = useLocale();
  const [name, setName] = useState(initialName);
  const [shared, setShared] = useState(false);
  // The name's rule is said once it was sent, and from then on as it is typed.
  const [sent, setSent] = useState(false);
  const save = useOmniMutation(
    (api, input: { name: string; shared: boolean }) => api.queue.saveView({ ...input, query: queueQuery(view) }),
    { invalidate: [keys.queue.views()], onSuccess: (v) => onDone(v.name) },
  );
  // The schema main checks the name with (a name of invisible characters shows blank in the list).
  const local = schemaReason(SavedViewName, name, locale, t('fieldInvalid'));
  const nameError = (sent ? local : undefined) ?? issueAt(save.error?.data, ['name'], locale, t('fieldInvalid'));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSent(true);
    if (!local) save.mutate({ name: name.trim(), shared: team && shared });
  };
  return (
    <form className="toolbar queue-save-view" onSubmit={submit} aria-label={t('saveView')} noValidate>
      <Field
        id="queue-view-name"
        label={t('saveViewName')}
        error={nameError}
        value={name}
        maxLength={SAVED_VIEW_NAME_MAX}
        autoFocus
        onChange={(e) => {
          setName(e.target.value);
          if (save.error) save.reset();
        }}
        onKeyDown={(e) => e.key === 'Escape' && onDone()}
      />
      {team && (
        <label className="checkbox">
          <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} /> {t('saveViewShared')}
        </label>
      )}
      <Button type="submit" variant="primary" disabled={!name.trim() || save.isPending}>
        {t('saveViewSubmit')}
      </Button>
      <Button variant="link" onClick={() => onDone()}>
        {cancelLabel}
      </Button>
      {save.error && !fieldsSayIt(save.error.data, ['name']) && <ErrorNotice error={save.error.data} />}
    </form>
  );
}
