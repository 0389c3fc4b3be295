import { keys, useOmniQuery } from '../../api/index';
import { useFieldWord } from '../../i18n/field-words';
import { useT } from '../../i18n/index';
import { Badge, IconCheck, IconDanger, IconMinus, Panel, ServiceAnswerView } from '../../ui/index';
import type { CrossDocRow } from '../../../common/ipc/interview';
import { compareValues } from './crossdoc-diff';
import { CROSSDOC_FIELDS, CROSSDOC_SOURCES, CROSSDOC_STATUSES } from './crossdoc-words';
import { messages } from './messages';
import { useEndedSessionText } from './session-ended';

/**
 * One field per two rows: its name, verdict and score, then the compared values across the whole width. Values
 * compared one above the other need the room: in a fourth column they were squeezed to a few characters a line
 * and ids broke in the middle.
 */
export function CrossDocPanel({ interviewId }: { interviewId: string }) {
  const t = useT(messages);
  const fieldWord = useFieldWord(CROSSDOC_FIELDS);
  const sourceWord = useFieldWord(CROSSDOC_SOURCES);
  const statusWord = useFieldWord(CROSSDOC_STATUSES);
  const q = useOmniQuery(keys.interview.crossDoc(interviewId), (api) => api.interview.crossDoc({ interviewId }));
  const ended = useEndedSessionText(interviewId);
  return (
    <Panel
      title={t('crossDocTitle')}
      query={q}
      isEmpty={(d) => d.data.rows.length === 0}
      empty={t('crossDocEmpty')}
      because={ended}
      footer={(d) => <ServiceAnswerView answer={d.data.answer} />}
    >
      {(d) => (
        <table className="table crossdoc-table" data-testid="crossdoc-table">
          <thead>
            <tr>
              <th scope="col">{t('colField')}</th>
              <th scope="col">{t('colResult')}</th>
              <th scope="col" className="num">
                {t('colScore')}
              </th>
            </tr>
          </thead>
          {d.data.rows.map((row) => {
            const fieldId = `crossdoc-${interviewId}-${row.field}`;
            return (
              <tbody key={row.field} className={`verdict-${row.verdict}`}>
                <tr>
                  <th scope="rowgroup" id={fieldId} title={row.field}>
                    {fieldWord(row.field)}
                  </th>
                  <td>
                    {row.verdict === 'match' ? (
                      <Badge tone="ok" icon={<IconCheck />}>
                        {t('verdictMatch')}
                      </Badge>
                    ) : row.verdict === 'mismatch' ? (
                      <Badge tone="danger" icon={<IconDanger />}>
                        {t('verdictMismatch')}
                      </Badge>
                    ) : (
                      <Badge tone="neutral" icon={<IconMinus />}>
                        {row.status ? statusWord(row.status) : t('verdictUnknown')}
                      </Badge>
                    )}
                  </td>
                  <td className="num mono">{row.score === undefined ? '—' : String(row.score)}</td>
                </tr>
                {row.details.length > 0 && <CrossDocValues row={row} headers={fieldId} sourceWord={sourceWord} />}
              </tbody>
            );
          })}
        </table>
      )}
    </Panel>
  );
}

/** The values a row compared: where they differ, marked (and said in words under them, for everyone). */
function CrossDocValues({
  row,
  headers,
  sourceWord,
}: {
  row: CrossDocRow;
  headers: string;
  sourceWord: (key: string) => string;
}) {
  const t = useT(messages);
  // Values read from a document, not the service's other keys (a reason), and only where the service saw a difference.
  const compared = row.details.filter(([k]) => k !== '' && k !== 'reason');
  const comparison = row.verdict === 'match' ? null : compareValues(compared);
  const segmentsOf = new Map(
    comparison && comparison.kind !== 'sameDate' ? comparison.values.map((v) => [v.source, v.segments]) : [],
  );
  let summary: string | null = null;
  if (comparison?.kind === 'text')
    summary = t('diffText', {
      parts: comparison.values
        .map((v) => t('diffValue', { words: v.words.join(' ') || t('diffNothing'), source: sourceWord(v.source) }))
        .join(', '),
    });
  else if (comparison?.kind === 'date') {
    const word = { year: t('diffYear'), month: t('diffMonth'), day: t('diffDay') };
    const parts = (['year', 'month', 'day'] as const).filter((p) => comparison.values[0]!.parts.includes(p));
    summary = `${t('diffDate', { parts: parts.map((p) => word[p]).join(t('diffAnd')) })}${comparison.swapped ? ` ${t('diffSwapped')}` : ''}`;
  } else if (comparison?.kind === 'sameDate') summary = t('diffSameDate');
  return (
    <tr className="crossdoc-values">
      <td colSpan={3} headers={headers}>
        <dl className="kv">
          {row.details.map(([k, v], i) => {
            const segments = segmentsOf.get(k);
            return (
              <div key={`${k}-${i}`}>
                <dt>{k ? sourceWord(k) : '—'}</dt>
                <dd className={k === 'reason' ? undefined : 'mono'}>
                  {segments
                    ? segments.map((seg, n) =>
                        seg.differs ? (
                          <mark key={n} className="crossdoc-diff">
                            {seg.text}
                          </mark>
                        ) : (
                          <span key={n}>{seg.text}</span>
                        ),
                      )
                    : v}
                </dd>
              </div>
            );
          })}
        </dl>
        {summary && (
          <p className="crossdoc-diff-summary small" data-testid="crossdoc-diff">
            {summary}
          </p>
        )}
      </td>
    </tr>
  );
}
