import { useId } from 'react';
import { keys, useOmniMutation, useOmniQuery } from '../../api/index';
import { common } from '../../i18n/common';
import { useFormat, useT } from '../../i18n/index';
import { Badge, Button, environmentKindWord, ErrorNotice, IconCheck, IconDanger, Panel } from '../../ui/index';
import { AuditTable } from '../interviews/AuditTable';
import { followSaved } from '../interviews/shared';
import type { T } from './translate';

/** Every audit entry of the active environment: the only place that lists entries with no interview. */
export function AuditTrailPanel({ t }: { t: T }) {
  const f = useFormat();
  const words = useT(common);
  const trail = useOmniQuery(keys.app.auditTrail(), (api) => api.app.auditTrail({}));
  const exportTrail = useOmniMutation((api, _input: void) => api.app.exportAuditTrail({}), {
    invalidate: [keys.app.auditTrail()],
    onSuccess: (saved) => followSaved(saved),
  });
  const titleId = useId();
  return (
    <Panel
      title={<span id={titleId}>{t('auditTrailTitle')}</span>}
      query={trail}
      isEmpty={(d) => d.entries.length === 0}
      empty={t('auditTrailEmpty')}
      actions={
        <Button onClick={() => exportTrail.mutate()} disabled={exportTrail.isPending || !trail.data?.entries.length}>
          {t('auditExportJson')}
        </Button>
      }
    >
      {(d) => (
        <>
          <p className="muted">
            {t('auditTrailIntro', {
              env:
                d.environment.kind === 'custom' ? d.environment.name : environmentKindWord(d.environment.kind, words),
            })}
          </p>
          <p data-testid="audit-trail-chain">
            {d.chain.ok ? (
              <Badge tone="ok" icon={<IconCheck />}>
                {t('auditChainOk')}
              </Badge>
            ) : (
              <Badge tone="danger" icon={<IconDanger />}>
                {t('auditChainBroken', { n: d.chain.brokenAt })}
              </Badge>
            )}{' '}
            <span className="muted small num">{t('auditTrailCount', { n: f.number(d.entries.length) })}</span>
          </p>
          {exportTrail.error && <ErrorNotice error={exportTrail.error.data} />}
          {exportTrail.isSuccess && exportTrail.data && (
            <p className="small" role="status">
              {exportTrail.data.savedTo ? t('auditSaved', { path: exportTrail.data.savedTo }) : t('auditExported')}
            </p>
          )}
          <AuditTable
            entries={d.entries}
            columns={[
              { key: 'seq', header: '#' },
              { key: 'time', header: t('auditColTime') },
              { key: 'action', header: t('auditColAction') },
              {
                key: 'interview',
                header: t('auditColInterview'),
                none: t('auditNoInterview'),
                team: t('auditWholeTeam'),
              },
              { key: 'detail', header: t('auditColDetail') },
            ]}
            labelledBy={titleId}
            testId="audit-trail-table"
            classPrefix="audit-trail"
          />
        </>
      )}
    </Panel>
  );
}
