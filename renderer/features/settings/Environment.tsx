import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useMemo, useState } from 'react';
import type { EnvironmentView, EnvironmentsView } from '../../../common/ipc/settings';
import type { IpcErrorData } from '../../../common/ipc/define';
import { keys, useOmniMutation, useSwitchEnvironment } from '../../api/index';
import { common } from '../../i18n/common';
import { useT } from '../../i18n/index';
import { Badge, Button, environmentKindWord, ErrorNotice, Field, IconWarning, useKeptState } from '../../ui/index';
import type { T } from './translate';
import { Credentials, TestConnection } from './Credentials';
import { DemoData } from './DemoData';

export function EnvironmentPicker({ data, t }: { data: EnvironmentsView; t: T }) {
  const words = useT(common);
  const switchEnv = useSwitchEnvironment();
  const name = useId();
  return (
    <>
      <p className="muted">{t('environmentsIntro')}</p>
      <fieldset className="env-picker" disabled={switchEnv.isPending}>
        <legend>{t('activeEnvironment')}</legend>
        {data.environments.map((env) => (
          <label key={env.id} className={`env-option env-option-${env.kind}`}>
            <input
              type="radio"
              name={name}
              value={env.id}
              checked={env.id === data.activeId}
              onChange={() => switchEnv.mutate(env.id)}
            />
            <span className="env-option-kind">{environmentKindWord(env.kind, words)}</span>
            {env.named && <span className="muted">{env.name}</span>}
          </label>
        ))}
      </fieldset>
      {switchEnv.isPending && <p role="status">{t('switching')}</p>}
      {switchEnv.error && <ErrorNotice error={switchEnv.error.data} />}
    </>
  );
}

export function ActiveEnvironment({ env, t }: { env: EnvironmentView | undefined; t: T }) {
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

export function ConnectionDetails({ env, t }: { env: EnvironmentView; t: T }) {
  const queryClient = useQueryClient();
  const original = useMemo(
    () => ({
      name: env.named ? env.name : '',
      baseUrl: env.baseUrl,
      authUrl: env.authUrl,
      apiVersion: env.apiVersion,
      tokenHeader: env.tokenHeader,
    }),
    [env.named, env.name, env.baseUrl, env.authUrl, env.apiVersion, env.tokenHeader],
  );
  // What is typed outlives the screen until the save is confirmed (the credentials, secret, are never kept here).
  const [form, setForm, forget] = useKeptState(`settings.connection.${env.id}`, original);
  const unsaved = (Object.keys(original) as (keyof typeof original)[]).some((k) => form[k] !== original[k]);
  const [saved, setSaved] = useState<false | 'saved' | 'savedCredentialsCleared'>(false);
  const [tokensCleared, setTokensCleared] = useState(0);
  const update = useOmniMutation(
    (api, input: Parameters<typeof api.settings.updateEnvironment>[0]) => api.settings.updateEnvironment(input),
    {
      invalidate: [keys.settings.environments()],
      onSuccess: async (updated) => {
        forget({ now: true });
        setSaved(updated.credentialsCleared ? 'savedCredentialsCleared' : 'saved');
        setTokensCleared(updated.sessionTokensCleared ?? 0);
        await queryClient.resetQueries({ predicate: (q) => q.queryKey[0] !== 'settings' });
      },
    },
  );
  const demo = env.kind === 'demo';
  // Field problems in the user's language (the schema's own messages are English only).
  const issueFor = (field: string) => {
    const issue = update.error?.data.issues?.find((i) => i.path === field);
    if (!issue) return undefined;
    // The schema names the refused character; the sentence around it is the screen's, in the user's language.
    const char = /character (.+?) cannot/.exec(issue.message)?.[1];
    if (field === 'apiVersion' && char) return t('invalidApiVersionChar', { char });
    return field === 'baseUrl' || field === 'authUrl'
      ? t(/\bquery\b.*\bfragment\b/.test(issue.message) ? 'invalidUrlParts' : 'invalidUrl')
      : field === 'tokenHeader'
        ? t('invalidHeader')
        : field === 'apiVersion'
          ? t('invalidApiVersion')
          : t('invalidValue');
  };
  // The service's field names (baseUrl) are the code's; the summary names the fields as the form labels them.
  const labelled = ['name', 'baseUrl', 'authUrl', 'apiVersion', 'tokenHeader'] as const;
  const withFieldLabels = (error: IpcErrorData): IpcErrorData => {
    const fields = [...new Set(error.issues?.map((i) => i.path))];
    if (error.code !== 'INVALID_INPUT' || fields.length === 0) return error;
    if (!fields.every((f) => (labelled as readonly string[]).includes(f))) return error;
    const text = t('invalidFields', { fields: fields.map((f) => t(f as (typeof labelled)[number])).join(', ') });
    return { ...error, message: { en: text, es: text } };
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    // Send only what changed, so an address left empty does not block saving another field.
    const changed = Object.fromEntries(
      Object.entries(form).filter(
        ([k, v]) => v !== original[k as keyof typeof original] && !(demo && (k === 'baseUrl' || k === 'authUrl')),
      ),
    );
    update.mutate({ id: env.id, ...changed });
  };
  const bind = (field: keyof typeof form) => ({
    value: form[field],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [field]: e.target.value }),
    error: issueFor(field),
  });
  return (
    <section className="panel">
      <h2>{t('connectionTitle')}</h2>
      <form onSubmit={onSubmit} className="settings-grid">
        {env.kind === 'custom' && <Field label={t('name')} {...bind('name')} />}
        <Field
          label={t('baseUrl')}
          mono
          type="url"
          readOnly={demo}
          hint={demo ? t('demoFixed') : undefined}
          {...bind('baseUrl')}
        />
        <Field label={t('authUrl')} mono type="url" readOnly={demo} {...bind('authUrl')} />
        <Field label={t('apiVersion')} mono {...bind('apiVersion')} />
        <Field label={t('tokenHeader')} mono hint={t('tokenHeaderHint')} {...bind('tokenHeader')} />
        <div className="form-actions">
          <Button type="submit" variant="primary" disabled={update.isPending}>
            {t('save')}
          </Button>
          {unsaved && !update.isPending && (
            <span role="status" data-testid="unsaved-changes">
              <Badge tone="warn" icon={<IconWarning />}>
                {t('connectionUnsaved')}
              </Badge>
            </span>
          )}
          {saved && !update.isPending && (
            <span role="status">
              {t(saved)}
              {tokensCleared === 1 && <> {t('savedTokenCleared')}</>}
              {tokensCleared > 1 && <> {t('savedTokensCleared', { count: tokensCleared })}</>}
            </span>
          )}
        </div>
      </form>
      {update.error && <ErrorNotice error={withFieldLabels(update.error.data)} />}
    </section>
  );
}
