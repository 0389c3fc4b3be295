import { useId } from 'react';
import { keys, useOmniQuery } from '../../api/index';
import { usePreference } from '../../api/preferences';
import { localeFromNavigator, type Locale, useLocale } from '../../i18n/index';
import { ErrorNotice, Panel, SelectField } from '../../ui/index';
import type { T } from './translate';
import './preferences.css';

export function PreferencesPanel({ t }: { t: T }) {
  const { locale, setLocale } = useLocale();
  const prefs = useOmniQuery(keys.settings.preferences(), (api) => api.settings.preferences({}), {
    staleTime: Infinity,
  });
  const theme = usePreference('theme', 'system');
  const afterDecision = usePreference('afterDecision', 'stay');
  const technicalDetails = usePreference('technicalDetails', false);
  const technicalHintId = useId();
  const systemLocale = localeFromNavigator();
  const languageName = (l: Locale) => (l === 'es' ? 'Español (México)' : 'English');
  return (
    <Panel title={t('preferencesTitle')} query={prefs}>
      {(p) => (
        <div className="settings-grid">
          <SelectField
            label={t('language')}
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
          </SelectField>
          <SelectField
            label={t('theme')}
            value={theme.value}
            onChange={(e) => theme.set(e.target.value as 'system' | 'light' | 'dark')}
          >
            <option value="system">{t('themeSystem')}</option>
            <option value="light">{t('themeLight')}</option>
            <option value="dark">{t('themeDark')}</option>
          </SelectField>
          {/* Also offered in the decision dialog, where its effect is seen. */}
          <label className="checkbox">
            <input
              type="checkbox"
              checked={afterDecision.value === 'next'}
              onChange={(e) => afterDecision.set(e.target.checked ? 'next' : 'stay')}
              data-testid="settings-after-decision"
            />{' '}
            {t('afterDecisionNext')}
          </label>
          {/* Off unless chosen: what developers read (the service's answer as read, fields the spec does not list). */}
          <div className="settings-check">
            <label className="checkbox">
              <input
                type="checkbox"
                checked={technicalDetails.value}
                onChange={(e) => technicalDetails.set(e.target.checked)}
                aria-describedby={technicalHintId}
                data-testid="settings-technical-details"
              />{' '}
              {t('technicalDetails')}
            </label>
            <p id={technicalHintId} className="hint small muted">
              {t('technicalDetailsHint')}
            </p>
          </div>
          {theme.error && <ErrorNotice error={theme.error.data} />}
          {afterDecision.error && <ErrorNotice error={afterDecision.error.data} />}
          {technicalDetails.error && <ErrorNotice error={technicalDetails.error.data} />}
          <span className="visually-hidden" aria-live="polite">
            {languageName(locale)}
          </span>
        </div>
      )}
    </Panel>
  );
}
