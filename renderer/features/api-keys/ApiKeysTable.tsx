import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useMemo, useRef, type ReactNode } from 'react';
import type { ApiKeyRow, CellValue } from '../../../common/ipc/apikeys';
import { readableName } from '../../i18n/field-words';
import { intlLocale, useLocale, useT, type Bilingual, type Locale, type Translate } from '../../i18n/index';
import { Badge, IconCheck, IconMinus, NotInSpec } from '../../ui/index';
import { messages } from './messages';

type T = Translate<(typeof messages)['en']>;

export interface Column {
  id: string;
  header: string;
  value: (row: ApiKeyRow) => CellValue | undefined;
  kind: 'id' | 'text' | 'mono' | 'date' | 'enabled' | 'extra';
  /** Fixed width of a column that is never cut; without one, the column shares what is left with the others. */
  width?: string;
  /**
   * Shown on a second line in the cell of this other column (the masked key under the key id, the organization's id
   * under its name), so every column fits a 1024 px window whole; the export and the search keep it a column.
   */
  under?: string;
}

export interface SortState {
  column: string;
  direction: 'asc' | 'desc';
}

export const ROW_HEIGHT = 36;

/** Attributes the service adds to a key beyond the five every row has; others read as their name made readable. */
const EXTRA_WORDS: Record<string, Bilingual> = {
  organizationId: { en: 'Organization ID', es: 'ID de la organización' },
  organizationName: { en: 'Organization', es: 'Organización' },
  superAdmin: { en: 'Super admin', es: 'Superadmin' },
  description: { en: 'Description', es: 'Descripción' },
  expiresAt: { en: 'Expires', es: 'Vence' },
  lastUsedAt: { en: 'Last used', es: 'Último uso' },
  createdBy: { en: 'Created by', es: 'Creada por' },
  scopes: { en: 'Scopes', es: 'Alcances' },
};

/** The date column's narrowest width (api-keys.css widens it where there is room). */
const DATE_WIDTH = '6em';

/** Widths in em of a monospace text of `chars` characters, with the cell's padding. */
const monoWidth = (chars: number, extra = 0) => `${(chars * 0.62 + 1.4 + extra).toFixed(2)}em`;
const longest = (rows: readonly ApiKeyRow[], value: (r: ApiKeyRow) => CellValue | undefined) =>
  rows.reduce((n, r) => Math.max(n, String(value(r) ?? '').length), 0);

/**
 * Every column in view and whole from 1024 px: ids, dates, statuses and yes/no columns are as wide as what they hold
 * and never cut or broken; names and other free texts share the rest and wrap. Widths are in em, so the smaller type
 * of a narrow window narrows them too.
 */
export function columnsFor(extra: string[], t: T, locale: Locale, rows: readonly ApiKeyRow[] = []): Column[] {
  const booleans = new Set(
    extra.filter(
      (name) =>
        rows.some((r) => typeof r.extra[name] === 'boolean') &&
        rows.every((r) => r.extra[name] == null || typeof r.extra[name] === 'boolean'),
    ),
  );
  const header = (name: string) => (Object.hasOwn(EXTRA_WORDS, name) ? EXTRA_WORDS[name]![locale] : readableName(name));
  return [
    {
      id: 'id',
      header: t('colId'),
      value: (r) => r.id,
      kind: 'id',
      // The key id and the copy button; the masked key under it, in a smaller type.
      width: monoWidth(
        Math.min(
          32,
          Math.max(
            6,
            longest(rows, (r) => r.id),
            longest(rows, (r) => r.maskedKey) * 0.85,
          ),
        ),
        1.8,
      ),
    },
    { id: 'name', header: t('colName'), value: (r) => r.name, kind: 'text' },
    { id: 'maskedKey', header: t('colMasked'), value: (r) => r.maskedKey, kind: 'mono', under: 'id' },
    // Its width is the stylesheet's (.apikeys-col-date): narrower in a narrow window, where a date takes two lines.
    { id: 'createdAt', header: t('colCreated'), value: (r) => r.createdAt, kind: 'date', width: DATE_WIDTH },
    {
      id: 'enabled',
      header: t('colEnabled'),
      value: (r) => r.enabled,
      kind: 'enabled',
      // The longer of the two badges ("Deshabilitada"), with its icon and padding.
      width: `${(Math.max(t('enabled').length, t('disabled').length) * 0.55 + 3.4).toFixed(2)}em`,
    },
    ...extra.map((name): Column => ({
      id: `extra:${name}`,
      header: header(name),
      value: (r) => r.extra[name],
      kind: 'extra',
      ...(name === 'organizationId' && extra.includes('organizationName') ? { under: 'extra:organizationName' } : {}),
      ...(booleans.has(name)
        ? {
            width: `${Math.max(
              4.5,
              Math.max(
                ...header(name)
                  .split(' ')
                  .map((w) => w.length),
              ) *
                0.6 +
                1.4,
            ).toFixed(2)}em`,
          }
        : {}),
    })),
  ];
}

/** Case- and accent-insensitive search over every column. */
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
const searchText = new WeakMap<ApiKeyRow, string>();
export function matches(row: ApiKeyRow, query: string): boolean {
  const q = fold(query.trim());
  if (!q) return true;
  let text = searchText.get(row);
  if (text === undefined) {
    text = fold(
      [
        row.id,
        row.name,
        row.maskedKey,
        row.createdAt,
        ...Object.values(row.extra).map((v) => (v === null ? '' : String(v))),
      ].join('\u0000'),
    );
    searchText.set(row, text);
  }
  return text.includes(q);
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function compare(a: CellValue | undefined, b: CellValue | undefined): number {
  // Missing values sort last whatever the direction is handled by the caller.
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(b) - Number(a);
  return collator.compare(String(a), String(b));
}

export function sortRows(rows: ApiKeyRow[], column: Column, direction: 'asc' | 'desc'): ApiKeyRow[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...rows].sort((x, y) => {
    const a = column.value(x);
    const b = column.value(y);
    const aMissing = a === undefined || a === null || a === '';
    const bMissing = b === undefined || b === null || b === '';
    if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
    return sign * compare(a, b) || collator.compare(x.id, y.id);
  });
}

/**
 * The keys table, virtualized: only the rows in view (plus a few) are in the DOM, so 10,000 keys scroll as
 * smoothly as 10. Spacer rows keep a real <table> (headers, row count and row index for assistive tech).
 */
export function ApiKeysTable({
  rows,
  columns,
  sort,
  onSort,
  onCopied,
}: {
  rows: ApiKeyRow[];
  columns: Column[];
  sort: SortState;
  onSort: (sort: SortState) => void;
  onCopied: (message: string) => void;
}) {
  const t = useT(messages);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);

  const copy = useCallback(
    async (id: string) => {
      try {
        await navigator.clipboard.writeText(id);
        onCopied(t('copied', { id }));
      } catch {
        onCopied(t('copyFailed'));
      }
    },
    [onCopied, t],
  );

  // The columns with a header of their own; the others are drawn under one of these (Column.under).
  const shown = columns.filter((c) => !c.under || !columns.some((x) => x.id === c.under));
  const flexible = shown.filter((c) => !c.width).length;
  return (
    <div ref={scrollRef} className="apikeys-scroll" tabIndex={0} aria-label={t('title')} data-testid="apikeys-scroll">
      <table
        className="table apikeys-table"
        aria-rowcount={rows.length + 1}
        style={{ minWidth: `calc(${shown.map((c) => c.width ?? '7em').join(' + ')})` }}
      >
        <colgroup>
          {shown.map((c) =>
            c.kind === 'date' ? (
              <col key={c.id} className="apikeys-col-date" />
            ) : (
              <col key={c.id} style={c.width ? { width: c.width } : { width: `${(100 / flexible).toFixed(2)}%` }} />
            ),
          )}
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            {shown.map((c) => {
              const active = sort.column === c.id;
              return (
                <th
                  key={c.id}
                  scope="col"
                  aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
                >
                  <button
                    type="button"
                    className="apikeys-sort"
                    aria-label={t('sortBy', { column: c.header })}
                    onClick={() =>
                      onSort({ column: c.id, direction: active && sort.direction === 'asc' ? 'desc' : 'asc' })
                    }
                  >
                    <span className="apikeys-sort-label">
                      {c.header}
                      {columns
                        .filter((u) => u.under === c.id)
                        .map((u) => (
                          <span key={u.id} className="apikeys-under-header">
                            {' · '}
                            {u.header}
                          </span>
                        ))}
                    </span>
                    <span aria-hidden="true" className="apikeys-sort-mark">
                      {active ? (sort.direction === 'asc' ? '▲' : '▼') : ''}
                    </span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {before > 0 && (
            <tr aria-hidden="true" className="apikeys-spacer">
              <td colSpan={shown.length} style={{ height: before }} />
            </tr>
          )}
          {items.map((item) => (
            <KeyRow
              key={rows[item.index]!.id}
              row={rows[item.index]!}
              rowIndex={item.index + 2}
              dataIndex={item.index}
              measure={virtualizer.measureElement}
              columns={columns}
              shown={shown}
              onCopy={copy}
            />
          ))}
          {after > 0 && (
            <tr aria-hidden="true" className="apikeys-spacer">
              <td colSpan={shown.length} style={{ height: after }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * One table row. Memoized: while scrolling only the rows entering the view render; the ones already shown are
 * skipped, which keeps each scroll frame's work well under the 16 ms budget with 10,000 keys.
 */
const KeyRow = memo(function KeyRow({
  row,
  rowIndex,
  dataIndex,
  measure,
  columns,
  shown,
  onCopy,
}: {
  row: ApiKeyRow;
  rowIndex: number;
  /** The row's place for the virtualizer, which measures it: a name on two lines makes it taller. */
  dataIndex: number;
  measure: (row: HTMLTableRowElement | null) => void;
  columns: Column[];
  shown: Column[];
  onCopy: (id: string) => Promise<void>;
}) {
  const t = useT(messages);
  const { locale } = useLocale();
  const dateFormat = useMemo(() => new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'medium' }), [locale]);
  const dateTimeFormat = useMemo(
    () => new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'medium', timeStyle: 'medium' }),
    [locale],
  );
  const cell = (column: Column): ReactNode => {
    const value = column.value(row);
    switch (column.kind) {
      case 'id':
        return (
          <span className="apikeys-id">
            {/* Cut short with an ellipsis where the column is narrower than the id: the whole id is its title. */}
            <code title={row.id}>{row.id}</code>
            <button
              type="button"
              className="btn btn-link apikeys-copy"
              aria-label={t('copyId', { id: row.id })}
              onClick={() => void onCopy(row.id)}
            >
              <CopyIcon />
            </button>
          </span>
        );
      case 'mono':
        return <code title={titleOf(value)}>{value ?? '—'}</code>;
      case 'date':
        return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? (
          <time dateTime={value} title={dateTimeFormat.format(new Date(value))}>
            {dateFormat.format(new Date(value))}
          </time>
        ) : (
          (value ?? '—')
        );
      case 'enabled':
        return value === undefined ? (
          <span className="muted">{t('unknown')}</span>
        ) : value ? (
          <Badge tone="ok" icon={<IconCheck />}>
            {t('enabled')}
          </Badge>
        ) : (
          <Badge tone="neutral" icon={<IconMinus />}>
            {t('disabled')}
          </Badge>
        );
      default:
        if (column.kind === 'extra' && row.unread?.includes(column.id.slice('extra:'.length)))
          return <NotInSpec value={value === null || value === undefined ? 'null' : String(value)} />;
        return value === null || value === undefined
          ? '—'
          : typeof value === 'boolean'
            ? value
              ? t('yes')
              : t('no')
            : String(value);
    }
  };
  return (
    <tr
      aria-rowindex={rowIndex}
      data-index={dataIndex}
      ref={measure}
      style={{ height: ROW_HEIGHT }}
      data-testid="apikey-row"
    >
      {shown.map((c) => (
        <td key={c.id} className={c.kind === 'id' || c.kind === 'mono' ? 'id' : undefined}>
          {cell(c)}
          {columns
            .filter((u) => u.under === c.id)
            .map((u) => (
              <div
                key={u.id}
                className={`apikeys-under${u.kind === 'mono' || u.kind === 'extra' ? ' mono' : ''}`}
                title={titleOf(u.value(row))}
              >
                <span className="visually-hidden">{u.header}: </span>
                {cell(u)}
              </div>
            ))}
        </td>
      ))}
    </tr>
  );
});

/** The whole text of a value drawn on one line, which a narrow column may cut short. */
const titleOf = (value: CellValue | undefined) =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;

const CopyIcon = () => (
  <svg
    width="14"
    height="14"
    viewBox="0 0 16 16"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.4"
    aria-hidden="true"
    focusable="false"
  >
    <rect x="5" y="5" width="8.5" height="9" rx="1.2" />
    <path d="M3 10.5V3.2C3 2.5 3.5 2 4.2 2H10" />
  </svg>
);
