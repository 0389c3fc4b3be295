import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import type { ApiKeyListView, ApiKeyRow, CellValue } from '../../../common/ipc/apikeys';
import { keys, useOmniMutation, useOmniQuery } from '../../api/index';
import { useShortcut } from '../../ui/shortcuts';
import { useFormat, useLocale, useT, type Translate } from '../../i18n/index';
import {
  Button,
  ErrorNotice,
  Field,
  IconInfo,
  IconWarning,
  Panel,
  ServiceAnswerView,
  useEnvironmentScope,
  useKeptState,
} from '../../ui/index';
import { startDownload } from '../signing/files';
import { ApiKeysTable, columnsFor, matches, sortRows, type Column, type SortState } from './ApiKeysTable';
import { messages } from './messages';
import './api-keys.css';

/** API keys audit: the organization's keys (masked), searchable and sortable, exported as shown. */
export default function ApiKeysScreen() {
  const t = useT(messages);
  const f = useFormat();
  const [organization, setOrganization] = useState('');
  // The organization typed outlives the screen until the service lists its keys (a failed listing leaves it to apply
  // again); it is the environment's.
  const [orgDraft, setOrgDraft, forgetOrgDraft] = useKeptState(`apikeys.organization.${useEnvironmentScope()}`, '');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortState>({ column: 'createdAt', direction: 'desc' });
  const [status, setStatus] = useState('');
  const searchRef = useRef<HTMLInputElement>(null);

  const query = useOmniQuery(keys.apikeys.list(organization), (api) =>
    api.apikeys.list(organization ? { organization } : {}),
  );

  const listed = query.isSuccess && !query.isFetching;
  useEffect(() => {
    if (listed && organization !== '' && organization === orgDraft.trim()) forgetOrgDraft();
  }, [listed, organization, orgDraft, forgetOrgDraft]);

  useShortcut({
    keys: '/',
    description: { en: messages.en.search, es: messages.es.search },
    run: () => searchRef.current?.focus(),
  });

  const onOrg = (e: FormEvent) => {
    e.preventDefault();
    setOrganization(orgDraft.trim());
  };

  return (
    <div className="apikeys">
      <h1>{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      <form className="apikeys-org" onSubmit={onOrg}>
        <Field
          label={t('orgLabel')}
          hint={t('orgHint')}
          mono
          value={orgDraft}
          onChange={(e) => setOrgDraft(e.target.value)}
          maxLength={512}
          autoComplete="off"
          spellCheck={false}
        />
        <div className="apikeys-org-actions">
          <Button type="submit" disabled={orgDraft.trim() === '' || orgDraft.trim() === organization}>
            {t('orgApply')}
          </Button>
          {organization && (
            <Button
              onClick={() => {
                setOrganization('');
                forgetOrgDraft({ now: true });
              }}
            >
              {t('orgClear')}
            </Button>
          )}
        </div>
      </form>
      <Panel
        title={t('title')}
        query={query}
        isEmpty={(d) => d.keys.length === 0}
        empty={t('empty')}
        footer={(d) => <ServiceAnswerView answer={d.answer} shown={d.extraColumns.map((c) => `[].${c}`)} />}
        actions={
          query.data && (
            <span className="muted small">{t('fetchedAt', { time: f.dateTime(query.data.fetchedAt) })}</span>
          )
        }
      >
        {(data) => (
          <KeysView
            data={data}
            organization={organization}
            search={search}
            setSearch={setSearch}
            searchRef={searchRef}
            sort={sort}
            setSort={setSort}
            status={status}
            setStatus={setStatus}
            onRefresh={() => void query.refetch()}
          />
        )}
      </Panel>
    </div>
  );
}

function KeysView({
  data,
  organization,
  search,
  setSearch,
  searchRef,
  sort,
  setSort,
  status,
  setStatus,
  onRefresh,
}: {
  data: ApiKeyListView;
  organization: string;
  search: string;
  setSearch: (v: string) => void;
  searchRef: React.RefObject<HTMLInputElement | null>;
  sort: SortState;
  setSort: (s: SortState) => void;
  status: string;
  setStatus: (s: string) => void;
  onRefresh: () => void;
}) {
  const t = useT(messages);
  const f = useFormat();
  const { locale } = useLocale();
  const columns = useMemo(
    () => columnsFor(data.extraColumns, t, locale, data.keys),
    [data.extraColumns, t, locale, data.keys],
  );
  const filtered = useMemo(() => data.keys.filter((row) => matches(row, search)), [data.keys, search]);
  const visible = useMemo(
    () => sortRows(filtered, columns.find((c) => c.id === sort.column) ?? columns[0]!, sort.direction),
    [filtered, columns, sort],
  );

  const exportCsv = useOmniMutation((api, rows: ApiKeyRow[]) =>
    api.apikeys.exportCsv({
      columns: columns.map((c) => c.header),
      rows: rows.map((r) => columns.map((c) => exportCell(c, r, t))),
    }),
  );
  const onExport = () =>
    exportCsv.mutate(visible, {
      onSuccess: (result) => {
        if (!result.saved) return;
        if (result.downloadUrl) startDownload(result.downloadUrl, 'api-keys.csv');
        setStatus(
          result.savedTo
            ? t('exportSaved', { rows: result.rows, path: result.savedTo })
            : t('exported', { rows: result.rows }),
        );
      },
    });

  const seenOrgs = [
    ...new Set(data.keys.map((k) => k.extra.organizationId).filter((v): v is string => typeof v === 'string')),
  ];
  // The listing may say which organization it belongs to; when it does, tell whether the request was honoured.
  const orgNote: { tone: 'info' | 'warn'; text: string } | null = !organization
    ? null
    : seenOrgs.length === 0
      ? { tone: 'info', text: t('orgRequested', { org: organization }) }
      : seenOrgs.includes(organization) || data.keys.some((k) => k.extra.organizationName === organization)
        ? { tone: 'info', text: t('orgHonoured', { seen: seenOrgs.join(', ') }) }
        : { tone: 'warn', text: t('orgIgnored', { org: organization, seen: seenOrgs.join(', ') }) };

  return (
    <>
      {data.unreadRecords > 0 && (
        <p className="notice notice-warn" role="status" data-testid="unread-records">
          <IconWarning /> {t('unreadRecords', { count: f.number(data.unreadRecords) })}
        </p>
      )}
      {orgNote && (
        <p className={`notice${orgNote.tone === 'warn' ? ' notice-warn' : ''}`} data-testid="org-note">
          {orgNote.tone === 'warn' ? <IconWarning /> : <IconInfo />} {orgNote.text}
        </p>
      )}
      <div className="apikeys-toolbar" role="search">
        <div className="field">
          <label htmlFor="apikeys-search">{t('search')}</label>
          <input
            id="apikeys-search"
            ref={searchRef}
            className="input"
            type="search"
            aria-describedby="apikeys-search-hint"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <span id="apikeys-search-hint" className="hint">
            {t('searchHint')}
          </span>
        </div>
        <span className="muted num" aria-live="polite">
          {t('count', { shown: f.number(visible.length), total: f.number(data.keys.length) })}
        </span>
        <Button onClick={onRefresh}>{t('refresh')}</Button>
        <Button variant="primary" onClick={onExport} disabled={visible.length === 0 || exportCsv.isPending}>
          {t('export')}
        </Button>
      </div>
      {exportCsv.error && <ErrorNotice error={exportCsv.error.data} onRetry={onExport} />}
      <p className="visually-hidden" role="status">
        {status}
      </p>
      {status && (
        <p className="muted small" aria-hidden="true">
          {status}
        </p>
      )}
      {visible.length === 0 ? (
        <p className="panel-empty">{t('noMatch', { query: search, total: data.keys.length })}</p>
      ) : (
        <ApiKeysTable rows={visible} columns={columns} sort={sort} onSort={setSort} onCopied={setStatus} />
      )}
    </>
  );
}

/** A cell as the table says it: yes/no and enabled/disabled in the reader's language, not true/false. */
function exportCell(column: Column, row: ApiKeyRow, t: Translate<(typeof messages)['en']>): CellValue {
  const value = column.value(row) ?? null;
  if (typeof value !== 'boolean') return value;
  if (column.kind === 'enabled') return value ? t('enabled') : t('disabled');
  return value ? t('yes') : t('no');
}
