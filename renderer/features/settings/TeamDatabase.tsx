import { type FormEvent, useEffect, useState } from 'react';
import type { TeamDatabaseView } from '../../../common/ipc/settings';
import { keys, useOmniMutation, useOmniQuery } from '../../api/index';
import { useLocale } from '../../i18n/index';
import {
  Button,
  ErrorNotice,
  Field,
  fieldsSayIt,
  IconCheck,
  IconWarning,
  issueAt,
  Panel,
  Segmented,
  TextAreaField,
} from '../../ui/index';
import type { T } from './translate';

/** Where the review record is kept: this computer, or the team's PostgreSQL server (from the next start). */
export function TeamDatabasePanel({ t }: { t: T }) {
  const team = useOmniQuery(keys.settings.teamDatabase(), (api) => api.settings.teamDatabase({}));
  return (
    <Panel title={t('teamTitle')} query={team}>
      {(view) => (
        <div className="team-database" data-testid="team-database">
          <p className="muted">{t('teamIntro')}</p>
          <RecordPlace view={view} t={t} />
          <TeamAddress view={view} t={t} />
          {view.config && <TeamTest t={t} />}
        </div>
      )}
    </Panel>
  );
}

function RecordPlace({ view, t }: { view: TeamDatabaseView; t: T }) {
  const { locale } = useLocale();
  const choose = useOmniMutation((api, engine: 'embedded' | 'team') => api.settings.chooseRecordEngine({ engine }), {
    invalidate: [keys.settings.teamDatabase()],
  });
  // The radio follows the click at once and keeps it until main's view agrees (or the error brings the old one
  // back); a pending state alone reaches React a tick late and the radio snaps back.
  const [clicked, setClicked] = useState<'embedded' | 'team' | null>(null);
  useEffect(() => {
    if (clicked === view.chosen || choose.isError) setClicked(null);
  }, [clicked, view.chosen, choose.isError]);
  const shown = clicked ?? view.chosen;
  const place = (engine: 'embedded' | 'team') => (engine === 'team' ? t('whereTeam') : t('whereEmbedded'));
  return (
    <>
      <p data-testid="record-in-use">
        {t('inUse', { place: place(view.inUse) })}
        {view.chosen !== view.inUse && <> {t('nextStart', { place: place(view.chosen) })}</>}
      </p>
      {view.startProblem && (
        <div className="notice notice-warn" role="alert">
          <IconWarning /> {t('teamAway')}{' '}
          <span className="small">{t('teamAwayWhy', { why: view.startProblem[locale] })}</span>
        </div>
      )}
      <Segmented
        label={t('placeLabel')}
        value={shown}
        options={[
          { value: 'embedded', label: t('placeEmbedded') },
          ...(view.config ? [{ value: 'team' as const, label: t('placeTeam') }] : []),
        ]}
        onChange={(engine) => {
          setClicked(engine);
          choose.mutate(engine);
        }}
        testId="record-place"
      />
      <p className="small muted">{t('placeHint')}</p>
      {choose.error && <ErrorNotice error={choose.error.data} />}
    </>
  );
}

/** The form's fields, and main's paths for each. */
const TEAM_FIELDS = ['host', 'port', 'database', 'user', 'tls', 'ca', 'password', 'teamKey'] as const;
type TeamField = (typeof TEAM_FIELDS)[number];
const pathsOf = (field: TeamField) => [`config.${field}`, field];
const FORM_PATHS = TEAM_FIELDS.flatMap(pathsOf);

function TeamAddress({ view, t }: { view: TeamDatabaseView; t: T }) {
  const { locale } = useLocale();
  const [form, setForm] = useState({
    host: view.config?.host ?? '',
    port: String(view.config?.port ?? 5432),
    database: view.config?.database ?? '',
    user: view.config?.user ?? '',
    tls: view.config?.tls ?? ('verify-full' as 'verify-full' | 'disable'),
    ca: '',
    password: '',
    teamKey: '',
    removeCa: false,
  });
  const [saved, setSaved] = useState<false | 'saved' | 'teamPasswordCleared'>(false);
  const save = useOmniMutation(
    (api, input: Parameters<typeof api.settings.saveTeamDatabase>[0]) => api.settings.saveTeamDatabase(input),
    {
      invalidate: [keys.settings.teamDatabase()],
      // The password and CA went to main; the fields empty again, and say that one is kept.
      onSuccess: (next) => {
        setForm((f) => ({ ...f, password: '', ca: '', teamKey: '', removeCa: false }));
        setSaved(next.passwordCleared ? 'teamPasswordCleared' : 'saved');
      },
    },
  );
  // Each field's refusal under it, in the screen's language: main's reason (in Spanish where main has it), or the
  // form's own words for the team key and TLS.
  const issue = (field: TeamField) => {
    const reason = issueAt(save.error?.data, pathsOf(field), locale, t('invalidValue'));
    if (reason === undefined) return undefined;
    return field === 'tls' ? t('teamTlsRequired') : field === 'teamKey' ? t('teamKeyInvalid') : reason;
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const { password, ca, port, teamKey, removeCa, ...rest } = form;
    save.mutate({
      config: { ...rest, port: Number(port), ...(ca.trim() ? { ca: ca.trim() } : {}) },
      ...(removeCa && !ca.trim() ? { removeCa: true as const } : {}),
      ...(password ? { password } : {}),
      ...(teamKey.trim() ? { teamKey: teamKey.trim() } : {}),
    });
  };
  const bind = (field: 'host' | 'port' | 'database' | 'user' | 'password' | 'teamKey') => ({
    value: form[field],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [field]: e.target.value }),
    error: issue(field),
  });
  return (
    <form onSubmit={onSubmit} className="settings-grid" aria-label={t('teamAddress')}>
      <Field label={t('teamHost')} mono autoComplete="off" {...bind('host')} />
      <Field label={t('teamPort')} mono inputMode="numeric" {...bind('port')} />
      <Field label={t('teamDatabaseName')} mono autoComplete="off" {...bind('database')} />
      <Field label={t('teamUser')} mono autoComplete="off" {...bind('user')} />
      <Field
        label={t('teamPassword')}
        type="password"
        autoComplete="new-password"
        hint={view.passwordSet ? t('teamPasswordKept') : t('teamPasswordNone')}
        {...bind('password')}
      />
      <Field
        label={t('teamKey')}
        type="password"
        autoComplete="off"
        hint={view.teamKeySet ? t('teamKeyKept') : t('teamKeyNone')}
        {...bind('teamKey')}
      />
      <div className="settings-wide">
        <Segmented
          label={t('teamTls')}
          value={form.tls}
          options={[
            { value: 'verify-full', label: t('teamTlsVerify') },
            { value: 'disable', label: t('teamTlsOff') },
          ]}
          onChange={(tls) => setForm({ ...form, tls })}
        />
        {issue('tls') && (
          <p className="field-error" role="alert">
            {issue('tls')}
          </p>
        )}
      </div>
      <TextAreaField
        id="team-ca"
        frameClassName="settings-wide"
        label={t('teamCa')}
        mono
        rows={3}
        value={form.ca}
        placeholder={view.config?.caSet ? t('teamCaKept') : '-----BEGIN CERTIFICATE-----'}
        onChange={(e) => setForm({ ...form, ca: e.target.value })}
        error={issue('ca')}
      />
      {view.config?.caSet && (
        <label className="small settings-wide">
          <input
            type="checkbox"
            checked={form.removeCa}
            onChange={(e) => setForm({ ...form, removeCa: e.target.checked })}
          />{' '}
          {t('teamCaRemove')}
        </label>
      )}
      <div className="form-actions">
        <Button type="submit" variant="primary" disabled={save.isPending}>
          {t('teamSave')}
        </Button>
        {saved && !save.isPending && <span role="status">{t(saved)}</span>}
      </div>
      {/* Unless the fields say all of it: an issue no field shows is never lost. */}
      {save.error && !fieldsSayIt(save.error.data, FORM_PATHS) && <ErrorNotice error={save.error.data} />}
    </form>
  );
}

function TeamTest({ t }: { t: T }) {
  const test = useOmniMutation((api, _input: void) => api.settings.testTeamDatabase({}));
  return (
    <div className="team-test">
      <Button onClick={() => test.mutate()} disabled={test.isPending}>
        {test.isPending ? t('testing') : t('teamTest')}
      </Button>
      {test.data && (
        <p className="notice notice-ok" role="status" data-testid="team-test-ok">
          <IconCheck /> {t('teamTestOk', { user: test.data.user, version: test.data.serverVersion })}
        </p>
      )}
      {test.error && <ErrorNotice error={test.error.data} />}
    </div>
  );
}
