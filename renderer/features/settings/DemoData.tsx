import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useOmniMutation } from '../../api/index';
import { Button, ErrorNotice } from '../../ui/index';
import type { T } from './translate';

/** Starting the demo over: its queue, drafts and decisions are forgotten; the audit trail is kept. */
export function DemoData({ t }: { t: T }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const reset = useOmniMutation((api, _input: void) => api.settings.resetDemoData({}), {
    onSuccess: async () => {
      setConfirming(false);
      await queryClient.resetQueries({ predicate: (q) => q.queryKey[0] !== 'settings' });
    },
  });
  return (
    <section className="panel">
      <h2>{t('demoDataTitle')}</h2>
      <p className="muted">{t('demoDataIntro')}</p>
      {!confirming && (
        <Button
          onClick={() => {
            reset.reset();
            setConfirming(true);
          }}
        >
          {t('demoDataReset')}
        </Button>
      )}
      {confirming && (
        <div className="form-actions" role="group" aria-label={t('demoDataReset')}>
          <span>{t('demoDataConfirm')}</span>
          <Button variant="danger" autoFocus disabled={reset.isPending} onClick={() => reset.mutate()}>
            {t('demoDataReset')}
          </Button>
          <Button onClick={() => setConfirming(false)}>{t('cancelEdit')}</Button>
        </div>
      )}
      {reset.data && <p role="status">{t('demoDataDone', { count: reset.data.interviews })}</p>}
      {reset.error && <ErrorNotice error={reset.error.data} />}
    </section>
  );
}
