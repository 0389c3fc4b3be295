import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { CredentialField, EnvironmentView, EnvironmentsView } from '../../../common/ipc/settings';
import { keys, useOmniMutation, useOmniQuery, useSwitchEnvironment } from '../../api/index';
import { localeFromNavigator, useFormat, useLocale, useT, type Locale, type Translate } from '../../i18n/index';
import { Badge, Button, ErrorNotice, Field, IconCheck, IconDanger, IconLock, IconMinus, IconWarning, Panel } from '../../ui/index';
import { AuditTable } from '../interviews/AuditTable';
import { followSaved } from '../interviews/shared';
import { messages } from './messages';
import './settings.css';

type T = Translate<(typeof messages)['en']>;

export default function SettingsScreen() {
  const t = useT(messages);
  const envs = useOmniQuery(keys.settings.environments(), (api) => api.settings.environments({}));
  return (
    <div className="settings">
      <h1>{t('title')}</h1>
      <Panel title={t('environmentsTitle')} query={envs}>
        {(data) => <EnvironmentPicker data={data} t={t} />}
      </Panel>
      {envs.data && <ActiveEnvironment key={envs.data.activeId} env={envs.data.environments.find((e) => e.id === envs.data.activeId)} t={t} />}
      <StorageSecurity t={t} />
      <PreferencesPanel t={t} />
      <AuditTrailPanel t={t} />
    </div>
  );
}

function kindLabel(kind: EnvironmentView['kind'], t: T): string {
  return kind === 'demo' ? t('kindDemo') : kind === 'production' ? t('kindProduction') : t('kindCustom');
}

function EnvironmentPicker({ data, t }: { data: EnvironmentsView; t: T }) {
  const switchEnv = useSwitchEnvironment();
  const name = useId();
  return (
    <>
      <p className="muted">{t('environmentsIntro')}</p>
      <fieldset className="env-picker" disabled={switchEnv.isPending}>
        <legend>{t('activeEnvironment')}</legend>
        {data.environments.map((env) => (
          <label key={env.id} className={`env-option env-option-${env.kind}`}>
            <input type="radio" name={name} value={env.id} checked={env.id === data.activeId} onChange={() => switchEnv.mutate(env.id)} />
            <span className="env-option-kind">{kindLabel(env.kind, t)}</span>
            {env.named && <span className="muted">{env.name}</span>}
          </label>
        ))}
      </fieldset>
      {switchEnv.isPending && <p role="status">{t('switching')}</p>}
      {switchEnv.error && <ErrorNotice error={switchEnv.error.data} />}
    </>
  );
}

function ActiveEnvironment({ env, t }: { env: EnvironmentView | undefined; t: T }) {
  if (!env) return null;
  return (
    <>
      <ConnectionDetails env={env} t={t} />
      <Credentials env={env} t={t} />
      <TestConnection env={env} t={t} />
      {env.kind === 'demo' && <DemoData t={t} />}
    </>
  );
}

/** Starting the demo over: its queue, drafts and decisions are forgotten; the audit trail is kept. */
function DemoData({ t }: { t: T }) {
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
      {!confirming && <Button onClick={() => { reset.reset(); setConfirming(true); }}>{t('demoDataReset')}</Button>}
      {confirming && (
        <div className="form-actions" role="group" aria-label={t('demoDataReset')}>
          <span>{t('demoDataConfirm')}</span>
          <Button variant="danger" autoFocus disabled={reset.isPending} onClick={() => reset.mutate()}>{t('demoDataReset')}</Button>
          <Button onClick={() => setConfirming(false)}>{t('cancelEdit')}</Button>
        </div>
      )}
      {reset.data && <p role="status">{t('demoDataDone', { count: reset.data.interviews })}</p>}
      {reset.error && <ErrorNotice error={reset.error.data} />}
    </section>
  );
}

function ConnectionDetails({ env, t }: { env: EnvironmentView; t: T }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ name: env.named ? env.name : '', baseUrl: env.baseUrl, authUrl: env.authUrl, apiVersion: env.apiVersion, tokenHeader: env.tokenHeader });
  const [saved, setSaved] = useState<false | 'saved' | 'savedCredentialsCleared'>(false);
  const update = useOmniMutation((api, input: Parameters<typeof api.settings.updateEnvironment>[0]) => api.settings.updateEnvironment(input), {
    invalidate: [keys.settings.environments()],
    onSuccess: async (updated) => {
      setSaved(updated.credentialsCleared ? 'savedCredentialsCleared' : 'saved');
      await queryClient.resetQueries({ predicate: (q) => q.queryKey[0] !== 'settings' });
    },
  });
  const demo = env.kind === 'demo';
  // Field problems in the user's language (the schema's own messages are English only).
  const issueFor = (field: string) => {
    if (!update.error?.data.issues?.some((i) => i.path === field)) return undefined;
    return field === 'baseUrl' || field === 'authUrl' ? t('invalidUrl') : field === 'tokenHeader' ? t('invalidHeader') : field === 'apiVersion' ? t('invalidApiVersion') : t('invalidValue');
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    // Send only what changed, so an address left empty does not block saving another field.
    const original = { name: env.named ? env.name : '', baseUrl: env.baseUrl, authUrl: env.authUrl, apiVersion: env.apiVersion, tokenHeader: env.tokenHeader };
    const changed = Object.fromEntries(Object.entries(form).filter(([k, v]) => v !== original[k as keyof typeof original] && !(demo && (k === 'baseUrl' || k === 'authUrl'))));
    update.mutate({ id: env.id, ...changed });
  };
  const bind = (field: keyof typeof form) => ({ value: form[field], onChange: (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [field]: e.target.value }), error: issueFor(field) });
  return (
    <section className="panel">
      <h2>{t('connectionTitle')}</h2>
      <form onSubmit={onSubmit} className="settings-grid">
        {env.kind === 'custom' && <Field label={t('name')} {...bind('name')} />}
        <Field label={t('baseUrl')} mono type="url" readOnly={demo} hint={demo ? t('demoFixed') : undefined} {...bind('baseUrl')} />
        <Field label={t('authUrl')} mono type="url" readOnly={demo} {...bind('authUrl')} />
        <Field label={t('apiVersion')} mono {...bind('apiVersion')} />
        <Field label={t('tokenHeader')} mono hint={t('tokenHeaderHint')} {...bind('tokenHeader')} />
        <div className="form-actions">
          <Button type="submit" variant="primary" disabled={update.isPending}>{t('save')}</Button>
          {saved && !update.isPending && <span role="status">{t(saved)}</span>}
        </div>
      </form>
      {update.error && <ErrorNotice error={update.error.data} />}
    </section>
  );
}

const FIELDS: CredentialField[] = ['apiKey', 'integrationId', 'secret'];

function Credentials({ env, t }: { env: EnvironmentView; t: T }) {
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

function CredentialRow({ env, field, t }: { env: EnvironmentView; field: CredentialField; t: T }) {
  const [editing, setEditing] = useState(false);
  const [confirmingClear, setConfirmingClear] = useState(false);
  const [value, setValue] = useState('');
  const label = t(field);
  const state = env.credentials[field];
  const onDone = () => {
    setValue('');
    setEditing(false);
  };
  const save = useOmniMutation((api, input: { value: string }) => api.settings.setCredential({ environmentId: env.id, field, value: input.value }), {
    onSuccess: () => onDone(),
    invalidate: [keys.settings.environments()],
  });
  const clear = useOmniMutation((api, _input: void) => api.settings.clearCredential({ environmentId: env.id, field }), {
    invalidate: [keys.settings.environments()],
    onSuccess: () => setConfirmingClear(false),
  });
  const stateBadge =
    state === 'set' ? <Badge tone="ok" icon={<IconCheck />}>{t('stateSet')}</Badge>
    : state === 'unreadable' ? <Badge tone="warn" icon={<IconWarning />}>{t('stateUnreadable')}</Badge>
    : <Badge tone="neutral" icon={<IconMinus />}>{t('stateUnset')}</Badge>;
  return (
    <li className="credential-row" data-testid={`credential-${field}`}>
      <span className="credential-name">{label}</span>
      {stateBadge}
      {!editing && !confirmingClear && (
        <span className="credential-actions">
          <Button variant="link" onClick={() => setEditing(true)}>{state === 'unset' ? t('set') : t('replace')}</Button>
          {state !== 'unset' && (
            <>
              <span aria-hidden="true">·</span>
              <Button variant="link" onClick={() => setConfirmingClear(true)}>{t('clear')}</Button>
            </>
          )}
        </span>
      )}
      {confirmingClear && (
        <div className="credential-form" role="group" aria-label={t('clear')}>
          <span>{t('clearConfirm', { field: label })}</span>
          <Button variant="danger" autoFocus disabled={clear.isPending} onClick={() => clear.mutate()}>{t('clear')}</Button>
          <Button onClick={() => setConfirmingClear(false)}>{t('cancelEdit')}</Button>
        </div>
      )}
      {editing && (
        <form className="credential-form" onSubmit={(e) => { e.preventDefault(); save.mutate({ value }); }}>
          <Field label={t('newValue', { field: label })} type="password" autoComplete="off" spellCheck={false} autoFocus mono value={value} onChange={(e) => setValue(e.target.value)} error={save.error?.data.issues ? t('invalidValue') : undefined} />
          <Button type="submit" variant="primary" disabled={save.isPending || value.trim() === ''}>{t('saveCredential', { field: label })}</Button>
          <Button onClick={onDone}>{t('cancelEdit')}</Button>
        </form>
      )}
      {save.error && !save.error.data.issues && <ErrorNotice error={save.error.data} />}
      {clear.error && <ErrorNotice error={clear.error.data} />}
    </li>
  );
}

function TestConnection({ env, t }: { env: EnvironmentView; t: T }) {
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
      <Button variant="primary" onClick={() => test.mutate()} disabled={test.isPending}>{test.isPending ? t('testing') : t('testButton')}</Button>
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

function StorageSecurity({ t }: { t: T }) {
  const storage = useOmniQuery(keys.settings.storageSecurity(), (api) => api.settings.storageSecurity({}));
  const accept = useOmniMutation((api, _input: void) => api.settings.acceptWeakStorage({}), { invalidate: [keys.settings.storageSecurity()] });
  return (
    <Panel title={t('storageTitle')} query={storage}>
      {(s) => (
        <>
          {s.state === 'keychain' && <p><Badge tone="ok" icon={<IconLock />}>{t('storageKeychain')}</Badge></p>}
          {s.state === 'weak-pending' && (
            <div className="notice notice-warn">
              <p><IconWarning /> {t('storageWeakPending')}</p>
              <Button onClick={() => accept.mutate()} disabled={accept.isPending}>{t('storageAccept')}</Button>
            </div>
          )}
          {s.state === 'weak-accepted' && <p className="notice notice-warn"><IconWarning /> {t('storageWeakAccepted')}</p>}
          {s.state === 'memory-only' && <p className="notice notice-warn"><IconWarning /> {t('storageMemoryOnly')}</p>}
          {accept.error && <ErrorNotice error={accept.error.data} />}
        </>
      )}
    </Panel>
  );
}

function PreferencesPanel({ t }: { t: T }) {
  const { locale, setLocale } = useLocale();
  const queryClient = useQueryClient();
  const prefs = useOmniQuery(keys.settings.preferences(), (api) => api.settings.preferences({}), { staleTime: Infinity });
  const setTheme = useOmniMutation((api, theme: 'system' | 'light' | 'dark') => api.settings.setPreferences({ theme }), {
    onSuccess: (next) => void queryClient.setQueryData(keys.settings.preferences(), next),
  });
  const setAfterDecision = useOmniMutation((api, afterDecision: 'stay' | 'next') => api.settings.setPreferences({ afterDecision }), {
    onSuccess: (next) => void queryClient.setQueryData(keys.settings.preferences(), next),
  });
  const languageId = useId();
  const themeId = useId();
  const systemLocale = localeFromNavigator();
  const languageName = (l: Locale) => (l === 'es' ? 'Español (México)' : 'English');
  return (
    <Panel title={t('preferencesTitle')} query={prefs}>
      {(p) => (
        <div className="settings-grid">
          <div className="field">
            <label htmlFor={languageId}>{t('language')}</label>
            <select id={languageId} className="select" value={p.language ?? 'system'} onChange={(e) => setLocale(e.target.value === 'system' ? null : (e.target.value as Locale))}>
              <option value="system">{t('languageSystem', { current: languageName(systemLocale) })}</option>
              <option value="en" lang="en">English</option>
              <option value="es" lang="es-MX">Español (México)</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor={themeId}>{t('theme')}</label>
            <select id={themeId} className="select" value={p.theme} onChange={(e) => setTheme.mutate(e.target.value as 'system' | 'light' | 'dark')}>
              <option value="system">{t('themeSystem')}</option>
              <option value="light">{t('themeLight')}</option>
              <option value="dark">{t('themeDark')}</option>
            </select>
          </div>
          {/* Also offered in the decision dialog, where its effect is seen. */}
          <label className="checkbox">
            <input
              type="checkbox"
              checked={(setAfterDecision.isPending ? setAfterDecision.variables : p.afterDecision) === 'next'}
              onChange={(e) => setAfterDecision.mutate(e.target.checked ? 'next' : 'stay')}
              data-testid="settings-after-decision"
            />{' '}
            {t('afterDecisionNext')}
          </label>
          {setAfterDecision.error && <ErrorNotice error={setAfterDecision.error.data} />}
          <span className="visually-hidden" aria-live="polite">{languageName(locale)}</span>
        </div>
      )}
    </Panel>
  );
}

/** Every audit entry of the active environment: the only place that lists entries with no interview. */
function AuditTrailPanel({ t }: { t: T }) {
  const f = useFormat();
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
      actions={<Button onClick={() => exportTrail.mutate()} disabled={exportTrail.isPending || !trail.data?.entries.length}>{t('auditExportJson')}</Button>}
    >
      {(d) => (
        <>
          <p className="muted">{t('auditTrailIntro', { env: d.environment.kind === 'custom' ? d.environment.name : kindLabel(d.environment.kind, t) })}</p>
          <p data-testid="audit-trail-chain">
            {d.chain.ok ? <Badge tone="ok" icon={<IconCheck />}>{t('auditChainOk')}</Badge> : <Badge tone="danger" icon={<IconDanger />}>{t('auditChainBroken', { n: d.chain.brokenAt })}</Badge>}{' '}
            <span className="muted small num">{t('auditTrailCount', { n: f.number(d.entries.length) })}</span>
          </p>
          {exportTrail.error && <ErrorNotice error={exportTrail.error.data} />}
          {exportTrail.isSuccess && exportTrail.data && <p className="small" role="status">{exportTrail.data.savedTo ? t('auditSaved', { path: exportTrail.data.savedTo }) : t('auditExported')}</p>}
          <AuditTable
            entries={d.entries}
            columns={[
              { key: 'seq', header: '#' },
              { key: 'time', header: t('auditColTime') },
              { key: 'action', header: t('auditColAction') },
              { key: 'interview', header: t('auditColInterview'), none: t('auditNoInterview') },
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
