import { Link } from 'react-router-dom';
import type { AuditEntry } from '../../../main/ipc/context';
import { useFormat } from '../../i18n/index';
import { useAuditLabels } from './audit-labels';

/** A column of the audit table, headed in the words of the screen that shows it. */
export type AuditColumn =
  | { key: 'seq' | 'time' | 'action' | 'detail' | 'environment'; header: string }
  /** The interview an entry belongs to, as a link; `none` names entries that belong to the whole environment. */
  | { key: 'interview'; header: string; none: string };

/**
 * Audit entries in the order given, one row each, in a scroll region named by the panel's heading. `classPrefix` is
 * the stylesheet prefix of the screen (`audit` on the interview, `audit-trail` in Settings) for the scroll box and
 * the cells that style needs.
 */
export function AuditTable({ entries, columns, labelledBy, testId, classPrefix }: { entries: readonly AuditEntry[]; columns: readonly AuditColumn[]; labelledBy: string; testId: string; classPrefix: string }) {
  const f = useFormat();
  const labels = useAuditLabels();
  const cell = (column: AuditColumn, e: AuditEntry) => {
    switch (column.key) {
      case 'seq':
        return <td key="seq" className="num">{e.seq}</td>;
      case 'time':
        return <td key="time" className={`num ${classPrefix}-time`}>{f.dateTime(e.at)}</td>;
      case 'action':
        return <td key="action">{labels.action(e.action)}</td>;
      case 'interview':
        return (
          <td key="interview" className={`${classPrefix}-interview`}>
            {e.interviewId ? <Link className="mono" to={`/interviews/${encodeURIComponent(e.interviewId)}`}>{e.interviewId}</Link> : <span className="muted">{column.none}</span>}
          </td>
        );
      case 'detail':
        return <td key="detail" className={`small ${classPrefix}-detail`}>{labels.detail(e)}</td>;
      case 'environment':
        return <td key="environment" className="mono small">{e.environment}</td>;
    }
  };
  return (
    <div className={`${classPrefix}-scroll`} tabIndex={0} role="region" aria-labelledby={labelledBy}>
      <table className="table" data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col">{c.header}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.seq}>{columns.map((c) => cell(c, e))}</tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
