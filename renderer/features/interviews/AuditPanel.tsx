import { useId, useState } from 'react';
import { keys, useQueriesUnder, useOmniMutation, useOmniQuery } from '../../api/index';
import { useLocale, useT } from '../../i18n/index';
import { Badge, Button, ErrorNotice, IconCheck, IconDanger, Panel } from '../../ui/index';
import { messages } from './messages';
import { AuditTable } from './AuditTable';
import { followSaved } from './shared';
import { EvidenceExport } from './EvidenceExport';

export function AuditPanel({ interviewId }: { interviewId: string }) {
  const t = useT(messages);
  const { locale } = useLocale();
  // The opening answers with the trail (prefetch.ts): asked for on its own only when no opening is under way.
  const opening = useQueriesUnder(keys.interview.opening(interviewId), { exact: true }).fetching;
  const q = useOmniQuery(keys.interview.audit(interviewId), (api) => api.interview.audit({ interviewId }), {
    enabled: !opening,
  });
  const exportAudit = useOmniMutation(
    (api, format: 'json' | 'pdf') => api.interview.exportAudit({ interviewId, format, language: locale }),
    {
      invalidate: [keys.interview.audit(interviewId)],
      onSuccess: (saved) => followSaved(saved),
    },
  );
  const titleId = useId();
  const [evidence, setEvidence] = useState(false);
  return (
    <Panel
      title={<span id={titleId}>{t('auditTitle')}</span>}
      query={q}
      isEmpty={(d) => d.entries.length === 0}
      empty={t('auditEmpty')}
      actions={
        <span className="panel-actions">
          <Button onClick={() => exportAudit.mutate('json')} disabled={exportAudit.isPending}>
            {t('exportJson')}
          </Button>
          <Button onClick={() => exportAudit.mutate('pdf')} disabled={exportAudit.isPending}>
            {t('exportPdf')}
          </Button>
          <Button onClick={() => setEvidence(true)} aria-expanded={evidence}>
            {t('exportEvidence')}
          </Button>
        </span>
      }
    >
      {(d) => (
        <>
          {evidence && <EvidenceExport interviewId={interviewId} onClose={() => setEvidence(false)} />}
          <p data-testid="audit-chain">
            {d.chain.ok ? (
              <Badge tone="ok" icon={<IconCheck />}>
                {t('chainOk')}
              </Badge>
            ) : (
              <Badge tone="danger" icon={<IconDanger />}>
                {t('chainBroken', { n: d.chain.brokenAt })}
              </Badge>
            )}
          </p>
          {exportAudit.error && <ErrorNotice error={exportAudit.error.data} />}
          {exportAudit.isSuccess && exportAudit.data && (
            <p className="small" role="status">
              {exportAudit.data.savedTo ? t('saved', { path: exportAudit.data.savedTo }) : t('exported')}
            </p>
          )}
          <AuditTable
            entries={[...d.entries].reverse()}
            columns={[
              { key: 'seq', header: '#' },
              { key: 'time', header: t('colTime') },
              { key: 'action', header: t('colAction') },
              { key: 'detail', header: t('colDetail') },
              { key: 'environment', header: t('colEnv') },
            ]}
            labelledBy={titleId}
            testId="audit-table"
            classPrefix="audit"
          />
        </>
      )}
    </Panel>
  );
}
