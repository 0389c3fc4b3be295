import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { Link } from 'react-router-dom';
import { TEAM_WIDE_ENVIRONMENT } from '../../../common/team-review';
import type { AuditEntry } from '../../../common/views';
import { useFormat } from '../../i18n/index';
import { useEnvironmentName } from '../../ui/index';
import { useAuditLabels } from './audit-labels';

/** A column of the audit table, headed in the words of the screen that shows it. */
export type AuditColumn =
  | { key: 'seq' | 'time' | 'action' | 'actor' | 'detail' | 'environment'; header: string }
  /** The interview an entry belongs to, as a link; `none` names entries that belong to the whole environment. */
  /** `none`: an entry of a whole environment; `team`: one of the whole team (its rules: `TEAM_WIDE_ENVIRONMENT`). */
  | { key: 'interview'; header: string; none: string; team: string };

/** A one-line row; rows whose detail wraps are measured as they show. */
const ROW_ESTIMATE = 37;
/**
 * Up to this many rows are all drawn. An interview's own trail is usually a few rows, and measuring them as they
 * show (a layout forced in the commit, then a second render) cost every opening of an interview more than drawing
 * them: the review bench's open-interview-ratio went from ~1.5 to ~2.
 */
const DRAW_ALL_UP_TO = 100;

/**
 * Audit entries in the order given, one row each, in a scroll region named by the panel's heading. `classPrefix` is
 * the stylesheet prefix of the screen (`audit` on the interview, `audit-trail` in Settings) for the scroll box and
 * the cells that style needs.
 *
 * Beyond DRAW_ALL_UP_TO rows, only the rows in view (and a few beyond) are in the DOM: a trail gains about ten
 * entries per interview reviewed, and Settings, drawing every row of 20,000, took ~3 s to show. Spacer rows keep a
 * real <table>, with the row count and each row's index for assistive tech.
 */
export function AuditTable({
  entries,
  columns,
  labelledBy,
  testId,
  classPrefix,
}: {
  entries: readonly AuditEntry[];
  columns: readonly AuditColumn[];
  labelledBy: string;
  testId: string;
  classPrefix: string;
}) {
  const f = useFormat();
  const labels = useAuditLabels();
  const environmentName = useEnvironmentName();
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = entries.length > DRAW_ALL_UP_TO;
  const virtualizer = useVirtualizer({
    enabled: virtual,
    count: entries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE,
    getItemKey: (index) => entries[index]!.seq,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  const spacer = (height: number) => (
    <tr aria-hidden="true" className="virtual-spacer">
      <td colSpan={columns.length} style={{ height }} />
    </tr>
  );
  const cell = (column: AuditColumn, e: AuditEntry) => {
    switch (column.key) {
      case 'seq':
        return (
          <td key="seq" className="num">
            {e.seq}
          </td>
        );
      case 'time':
        return (
          <td key="time" className={`num ${classPrefix}-time`}>
            {f.dateTime(e.at)}
          </td>
        );
      case 'action':
        return <td key="action">{labels.action(e.action)}</td>;
      case 'interview':
        return (
          <td key="interview" className={`${classPrefix}-interview`}>
            {e.interviewId ? (
              <Link className="mono" to={`/interviews/${encodeURIComponent(e.interviewId)}`}>
                {e.interviewId}
              </Link>
            ) : (
              <span className="muted">{e.environment === TEAM_WIDE_ENVIRONMENT ? column.team : column.none}</span>
            )}
          </td>
        );
      case 'actor':
        return (
          <td key="actor" className="mono small">
            {e.actor ?? '—'}
          </td>
        );
      case 'detail':
        return (
          <td key="detail" className={`small ${classPrefix}-detail`}>
            {labels.detail(e)}
          </td>
        );
      case 'environment':
        return (
          <td key="environment" className="small" title={e.environment}>
            {environmentName(e.environment)}
          </td>
        );
    }
  };
  return (
    <div ref={scrollRef} className={`${classPrefix}-scroll`} tabIndex={0} role="region" aria-labelledby={labelledBy}>
      <table className="table" data-testid={testId} aria-rowcount={entries.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
            {columns.map((c) => (
              <th key={c.key} scope="col">
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {virtual && before > 0 && spacer(before)}
          {virtual
            ? items.map((item) => (
                <tr
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  aria-rowindex={item.index + 2}
                >
                  {columns.map((c) => cell(c, entries[item.index]!))}
                </tr>
              ))
            : entries.map((e, index) => (
                <tr key={e.seq} aria-rowindex={index + 2}>
                  {columns.map((c) => cell(c, e))}
                </tr>
              ))}
          {virtual && after > 0 && spacer(after)}
        </tbody>
      </table>
    </div>
  );
}
