import { keys, useOmniQuery } from '../../api/index';
import { useT } from '../../i18n/index';
import { Badge, IconCheck, IconDanger, IconMinus, Panel } from '../../ui/index';
import { messages } from './messages';

export function CrossDocPanel({ interviewId }: { interviewId: string }) {
  const t = useT(messages);
  const q = useOmniQuery(keys.interview.crossDoc(interviewId), (api) => api.interview.crossDoc({ interviewId }));
  return (
    <Panel title={t('crossDocTitle')} query={q} isEmpty={(d) => d.data.rows.length === 0} empty={t('crossDocEmpty')}>
      {(d) => (
        <table className="table" data-testid="crossdoc-table">
          <thead>
            <tr>
              <th scope="col">{t('colField')}</th>
              <th scope="col">{t('colResult')}</th>
              <th scope="col" className="num">{t('colScore')}</th>
              <th scope="col">{t('colValues')}</th>
            </tr>
          </thead>
          <tbody>
            {d.data.rows.map((row) => (
              <tr key={row.field} className={`verdict-${row.verdict}`}>
                <th scope="row" className="id">{row.field}</th>
                <td>
                  {row.verdict === 'match' ? (
                    <Badge tone="ok" icon={<IconCheck />}>{t('verdictMatch')}</Badge>
                  ) : row.verdict === 'mismatch' ? (
                    <Badge tone="danger" icon={<IconDanger />}>{t('verdictMismatch')}</Badge>
                  ) : (
                    <Badge tone="neutral" icon={<IconMinus />}>{row.status ?? t('verdictUnknown')}</Badge>
                  )}
                </td>
                <td className="num mono">{row.score === undefined ? '—' : String(row.score)}</td>
                <td>
                  <dl className="kv">
                    {row.details.map(([k, v], i) => (
                      <div key={`${k}-${i}`}>
                        <dt className="mono">{k || '—'}</dt>
                        <dd>{v}</dd>
                      </div>
                    ))}
                  </dl>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  );
}
