import { keys, useOmniQuery } from '../../api/index';
import { useFieldWord } from '../../i18n/field-words';
import { useT } from '../../i18n/index';
import { Badge, IconCheck, IconDanger, IconMinus, Panel, ServiceAnswerView } from '../../ui/index';
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
                {row.details.length > 0 && (
                  <tr className="crossdoc-values">
                    <td colSpan={3} headers={fieldId}>
                      <dl className="kv">
                        {row.details.map(([k, v], i) => (
                          <div key={`${k}-${i}`}>
                            <dt>{k ? sourceWord(k) : '—'}</dt>
                            <dd className={k === 'reason' ? undefined : 'mono'}>{v}</dd>
                          </div>
                        ))}
                      </dl>
                    </td>
                  </tr>
                )}
              </tbody>
            );
          })}
        </table>
      )}
    </Panel>
  );
}
