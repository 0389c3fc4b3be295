import type { BatchRowView } from '../../../common/ipc/validation';
import { useBilingual, useT } from '../../i18n/index';
import { Badge, IconDanger, IconWarning, ServiceAnswerView } from '../../ui/index';
import { groupLabel } from './SingleChecks';
import { messages } from './messages';

/** The rows that were not valid, in file order: the first ones found, and how many there were in all. */
export function BatchProblems({ problems, problemCount }: { problems: BatchRowView[]; problemCount: number }) {
  const t = useT(messages);
  const pick = useBilingual();
  return problems.length === 0 ? (
    <p className="panel-empty">{t('problemsNone')}</p>
  ) : (
    <>
      {problemCount > problems.length && (
        <p className="muted small">{t('problemsMore', { shown: problems.length, total: problemCount })}</p>
      )}
      <div className="batch-problems">
        <table className="table">
          <thead>
            <tr>
              <th scope="col" className="num">
                {t('colLine')}
              </th>
              <th scope="col">{t('colValue')}</th>
              <th scope="col">{t('colResult')}</th>
              <th scope="col">{t('colDetail')}</th>
              <th scope="col" className="num">
                {t('colAttempts')}
              </th>
            </tr>
          </thead>
          <tbody>
            {[...problems]
              .sort((a, b) => a.line - b.line)
              .map((r) => (
                <tr key={r.seq} data-testid="batch-problem">
                  <td className="num">{r.line}</td>
                  <td className="id">{r.value || '—'}</td>
                  <td>
                    {r.status === 'invalid' ? (
                      <Badge tone="danger" icon={<IconDanger />}>
                        {t('statusInvalid')}
                      </Badge>
                    ) : (
                      <Badge tone="warn" icon={<IconWarning />}>
                        {t('statusError')}
                      </Badge>
                    )}
                    {r.source === 'local' && <span className="muted small"> {t('sourceLocal')}</span>}
                  </td>
                  <td>
                    {pick(r.message)}
                    {r.warning && <span className="muted"> {pick(r.warning)}</span>}
                    {r.advice && <span className="muted"> {pick(r.advice)}</span>}
                    {(r.group !== undefined || r.code) && (
                      <span className="code small">
                        {' '}
                        {r.group !== undefined && `${groupLabel({ group: r.group, retryable: r.group === 2 }, t)} · `}
                        {r.code}
                      </span>
                    )}
                    {r.answer && <ServiceAnswerView answer={r.answer} />}
                  </td>
                  <td className="num">{r.attempts}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
