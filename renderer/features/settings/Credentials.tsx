import { useEffect, useState } from 'react';
import type { CredentialField, EnvironmentView } from '../../../common/ipc/settings';
import { keys, useOmniMutation, useOmniQuery } from '../../api/index';
import { useFormat, useLocale } from '../../i18n/index';
import {
  Badge,
  Button,
  ErrorNotice,
  Field,
  IconCheck,
  IconLock,
  IconMinus,
  IconWarning,
  issueAt,
  Panel,
} from '../../ui/index';
import type { T } from './translate';

export const FIELDS: CredentialField[] = ['apiKey', 'integrationId', 'secret'];

export function Credentials({ env, t }: { env: EnvironmentView; t: T }) {
  return (
    <section className="panel">
      <h2>{t('credentialsTitle')}</h2>
      <p className="muted">{t('credentialsIntro')}</p>
      <ul className="credential-list">
        {FIELDS.map((field) => (
          <CredentialRow key={field} env={env} field={field} t={t} />
        ))}
      </ul>
    </section>
  );
}

export function CredentialRow({ env, field, t }: { env: EnvironmentView; field: CredentialField; t: T }) {
  const [editing, setEditing] = useState(false);
  const [confirmingClear, setConfirmingClear] = useState(false);
  const [value, setValue] = useState('');
  const { locale } = useLocale();
  const label = t(field);
  const state = env.credentials[field];
  const onDone = () => {
    setValue('');
    setEditing(false);
  };
  const save = useOmniMutation(
    (api, input: { value: string }) => api.settings.setCredential({ environmentId: env.id, field, value: input.value }),
    {
      onSuccess: () => onDone(),
      invalidate: [keys.settings.environments()],
    },
  );
  const clear = useOmniMutation((api, _input: void) => api.settings.clearCredential({ environmentId: env.id, field }), {
    invalidate: [keys.settings.environments()],
    onSuccess: () => setConfirmingClear(false),
  });
  const stateBadge =
    state === 'set' ? (
      <Badge tone="ok" icon={<IconCheck />}>
        {t('stateSet')}
      </Badge>
    ) : state === 'unreadable' ? (
      <Badge tone="warn" icon={<IconWarning />}>
        {t('stateUnreadable')}
      </Badge>
    ) : (
      <Badge tone="neutral" icon={<IconMinus />}>
        {t('stateUnset')}
      </Badge>
    );
  return (
    <li className="credential-row" data-testid={`credential-${field}`}>
      <span className="credential-name">{label}</span>
      {stateBadge}
      {!editing && !confirmingClear && (
        <span className="credential-actions">
          <Button variant="link" onClick={() => setEditing(true)}>
            {state === 'unset' ? t('set') : t('replace')}
          </Button>
          {state !== 'unset' && (
            <>
              <span aria-hidden="true">·</span>
              <Button variant="link" onClick={() => setConfirmingClear(true)}>
                {t('clear')}
              </Button>
            </>
          )}
        </span>
      )}
      {confirmingClear && (
        <div className="credential-form" role="group" aria-label={t('clear')}>
          <span>{t('clearConfirm', { field: label })}</span>
          <Button variant="danger" autoFocus disabled={clear.isPending} onClick={() => clear.mutate()}>
            {t('clear')}
          </Button>
          <Button onClick={() => setConfirmingClear(false)}>{t('cancelEdit')}</Button>
        </div>
      )}
      {editing && (
        <form
          className="credential-form"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate({ value });
          }}
        >
          <Field
            label={t('newValue', { field: label })}
            type="password"
            autoComplete="off"
            spellCheck={false}
            autoFocus
            mono
            value={value}
            onChange={(e) => setValue(e.target.value)}
            // Main says why (its length, a space…) in both languages; the field shows it in the screen's.
            error={issueAt(save.error?.data, ['value'], locale, t('invalidValue'))}
          />
          <Button type="submit" variant="primary" disabled={save.isPending || value.trim() === ''}>
            {t('saveCredential', { field: label })}
          </Button>
          <Button onClick={onDone}>{t('cancelEdit')}</Button>
        </form>
      )}
      {save.error && !save.error.data.issues && <ErrorNotice error={save.error.data} />}
      {clear.error && <ErrorNotice error={clear.error.data} />}
    </li>
  );
}

export function TestConnection({ env, t }: { env: EnvironmentView; t: T }) {
  const f = useFormat();
  const test = useOmniMutation((api, _input: void) => api.settings.testConnection({ environmentId: env.id }));
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!test.data) return undefined;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [test.data]);
  const remaining = test.data ? Math.max(0, (Date.parse(test.data.expiresAt) - now) / 1000) : 0;
  return (
    <section className="panel">
      <h2>{t('testTitle')}</h2>
      <p className="muted">{t('testIntro')}</p>
      <Button variant="primary" onClick={() => test.mutate()} disabled={test.isPending}>
        {test.isPending ? t('testing') : t('testButton')}
      </Button>
      <div aria-live="polite">
        {test.data && !test.isPending && (
          <p className="notice notice-ok" data-testid="connection-ok">
            <IconCheck /> {t('testOk', { remaining: f.duration(remaining), until: f.dateTime(test.data.expiresAt) })}
          </p>
        )}
        {test.error && !test.isPending && <ErrorNotice error={test.error.data} onRetry={() => test.mutate()} />}
      </div>
    </section>
  );
}

export function StorageSecurity({ t }: { t: T }) {
  const storage = useOmniQuery(keys.settings.storageSecurity(), (api) => api.settings.storageSecurity({}));
  const accept = useOmniMutation((api, _input: void) => api.settings.acceptWeakStorage({}), {
    invalidate: [keys.settings.storageSecurity()],
  });
  return (
    <Panel title={t('storageTitle')} query={storage}>
      {(s) => (
        <>
          {s.state === 'keychain' && (
            <p>
              <Badge tone="ok" icon={<IconLock />}>
                {t('storageKeychain')}
              </Badge>
            </p>
          )}
          {s.state === 'weak-pending' && (
            <div className="notice notice-warn">
              <p>
                <IconWarning /> {t('storageWeakPending')}
              </p>
              <Button onClick={() => accept.mutate()} disabled={accept.isPending}>
                {t('storageAccept')}
              </Button>
            </div>
          )}
          {s.state === 'weak-accepted' && (
            <p className="notice notice-warn">
              <IconWarning /> {t('storageWeakAccepted')}
            </p>
          )}
          {s.state === 'memory-only' && (
            <p className="notice notice-warn">
              <IconWarning /> {t('storageMemoryOnly')}
            </p>
          )}
          {accept.error && <ErrorNotice error={accept.error.data} />}
        </>
      )}
    </Panel>
  );
}
