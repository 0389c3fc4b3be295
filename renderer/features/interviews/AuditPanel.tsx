import { keys, useOmniMutation, useOmniQuery } from '../../api/index';
import { useFormat, useLocale, useT } from '../../i18n/index';
import { Badge, Button, ErrorNotice, IconCheck, IconDanger, Panel } from '../../ui/index';
import { messages } from './messages';
import { useAuditLabels } from './audit-labels';
import { followSaved } from './shared';

export function AuditPanel({ interviewId }: { interviewId: string }) {
  const t = useT(messages);
  const f = useFormat();
  const { locale } = useLocale();
  const q = useOmniQuery(keys.interview.audit(interviewId), (api) => api.interview.audit({ interviewId }));
  const exportAudit = useOmniMutation((api, format: 'json' | 'pdf') => api.interview.exportAudit({ interviewId, format, language: locale }), {
    invalidate: [keys.interview.audit(interviewId)],
    onSuccess: (saved) => followSaved(saved),
  });
  const { action, detail: detailText } = useAuditLabels();
  return (
    <Panel
      title={t('auditTitle')}
      query={q}
      isEmpty={(d) => d.entries.length === 0}
      empty={t('auditEmpty')}
      actions={
        <span className="panel-actions">
          <Button onClick={() => exportAudit.mutate('json')} disabled={exportAudit.isPending}>{t('exportJson')}</Button>
          <Button onClick={() => exportAudit.mutate('pdf')} disabled={exportAudit.isPending}>{t('exportPdf')}</Button>
        </span>
      }
    >
      {(d) => (
        <>
          <p data-testid="audit-chain">
            {d.chain.ok ? <Badge tone="ok" icon={<IconCheck />}>{t('chainOk')}</Badge> : <Badge tone="danger" icon={<IconDanger />}>{t('chainBroken', { n: d.chain.brokenAt })}</Badge>}
          </p>
          {exportAudit.error && <ErrorNotice error={exportAudit.error.data} />}
          {exportAudit.isSuccess && exportAudit.data && <p className="small" role="status">{exportAudit.data.savedTo ? t('saved', { path: exportAudit.data.savedTo }) : t('exported')}</p>}
          <div className="audit-scroll" tabIndex={0} role="region" aria-label={t('auditTitle')}>
            <table className="table" data-testid="audit-table">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">{t('colTime')}</th>
                  <th scope="col">{t('colAction')}</th>
                  <th scope="col">{t('colDetail')}</th>
                  <th scope="col">{t('colEnv')}</th>
                </tr>
              </thead>
              <tbody>
                {[...d.entries].reverse().map((e) => (
                  <tr key={e.seq}>
                    <td className="num">{e.seq}</td>
                    <td className="num">{f.dateTime(e.at)}</td>
                    <td>{action(e.action)}</td>
                    <td className="small audit-detail">{detailText(e)}</td>
                    <td className="mono small">{e.environment}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </Panel>
  );
}
