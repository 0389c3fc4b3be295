import { useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { keys, useOmniMutation, useOmniQuery } from '../../api/index';
import { localeFromNavigator, type Locale, useLocale } from '../../i18n/index';
import { ErrorNotice, Panel } from '../../ui/index';
import type { T } from './translate';

export function PreferencesPanel({ t }: { t: T }) {
  const { locale, setLocale } = useLocale();
  const queryClient = useQueryClient();
  const prefs = useOmniQuery(keys.settings.preferences(), (api) => api.settings.preferences({}), {
    staleTime: Infinity,
  });
  const setTheme = useOmniMutation(
    (api, theme: 'system' | 'light' | 'dark') => api.settings.setPreferences({ theme }),
    {
      onSuccess: (next) => void queryClient.setQueryData(keys.settings.preferences(), next),
    },
  );
  const setAfterDecision = useOmniMutation(
    (api, afterDecision: 'stay' | 'next') => api.settings.setPreferences({ afterDecision }),
    {
      onSuccess: (next) => void queryClient.setQueryData(keys.settings.preferences(), next),
    },
  );
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
            <select
              id={languageId}
              className="select"
              value={p.language ?? 'system'}
              onChange={(e) => setLocale(e.target.value === 'system' ? null : (e.target.value as Locale))}
            >
              <option value="system">{t('languageSystem', { current: languageName(systemLocale) })}</option>
              <option value="en" lang="en">
                English
              </option>
              <option value="es" lang="es-MX">
                Español (México)
              </option>
            </select>
          </div>
          <div className="field">
            <label htmlFor={themeId}>{t('theme')}</label>
            <select
              id={themeId}
              className="select"
              value={p.theme}
              onChange={(e) => setTheme.mutate(e.target.value as 'system' | 'light' | 'dark')}
            >
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
          <span className="visually-hidden" aria-live="polite">
            {languageName(locale)}
          </span>
        </div>
      )}
    </Panel>
  );
}
