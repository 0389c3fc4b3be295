import { type FormEvent, useState } from 'react';
import type { TrustedRootView } from '../../../common/ipc/nom151';
import { keys, useOmniMutation, useOmniQuery } from '../../api/index';
import { useFormat } from '../../i18n/index';
import { Button, ErrorNotice, IconCheck, Panel } from '../../ui/index';
import { type T } from './parts';

export function TrustedRoots({ t }: { t: T }) {
  const format = useFormat();
  const roots = useOmniQuery(keys.nom151.trustedRoots(), (api) => api.nom151.trustedRoots({}));
  const [pem, setPem] = useState('');
  const [touched, setTouched] = useState(false);
  const add = useOmniMutation((api, input: { pem: string }) => api.nom151.addTrustedRoot(input), {
    invalidate: [keys.nom151.trustedRoots()],
    onSuccess: () => {
      setPem('');
      setTouched(false);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (pem.trim() === '') return;
    add.mutate({ pem });
  };

  return (
    <div className="signing-roots">
      <Panel
        title={t('rootsTitle')}
        query={roots}
        isEmpty={(d: TrustedRootView[]) => d.length === 0}
        empty={t('rootsEmpty')}
      >
        {(data) => (
          <>
            <p className="muted">{t('rootsIntro')}</p>
            <table className="table">
              <thead>
                <tr>
                  <th>{t('rootSubject')}</th>
                  <th>{t('rootExpires')}</th>
                  <th>{t('rootFingerprint')}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((r) => (
                  <tr key={r.fingerprint}>
                    <td>{r.subject}</td>
                    <td>{format.dateTime(r.notAfter)}</td>
                    <td className="id hash small">{r.fingerprint}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </Panel>
      <section className="panel" aria-labelledby="nom-import-title">
        <form onSubmit={submit} noValidate>
          <div className="field">
            <label id="nom-import-title" htmlFor="nom-root-pem">
              {t('importRoot')}
            </label>
            <textarea
              id="nom-root-pem"
              className="input nom-textarea mono"
              rows={4}
              value={pem}
              onChange={(e) => setPem(e.target.value)}
              placeholder="-----BEGIN CERTIFICATE-----"
              spellCheck={false}
              aria-describedby="nom-root-pem-hint"
              aria-invalid={touched && pem.trim() === '' ? true : undefined}
            />
            <span id="nom-root-pem-hint" className="hint">
              {t('importRootHint')}
            </span>
            {touched && pem.trim() === '' && (
              <span className="field-error" role="alert">
                {t('pemEmpty')}
              </span>
            )}
          </div>
          <Button type="submit" disabled={add.isPending}>
            {add.isPending ? t('importing') : t('importButton')}
          </Button>
          {add.isSuccess && (
            <p role="status" className="nom-saved">
              <IconCheck /> {t('imported')}
            </p>
          )}
          {add.error && <ErrorNotice error={add.error.data} onRetry={() => add.mutate({ pem })} />}
        </form>
      </section>
    </div>
  );
}
