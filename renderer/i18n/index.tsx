import { createContext, useCallback, useContext, type ReactNode } from 'react';

/**
 * i18n convention: every feature keeps its own texts in `renderer/features/<x>/messages.ts`:
 *
 *   export const messages = defineMessages({ en: { title: 'Interviews', count: '{n} interviews' }, es: { ... } });
 *   const t = useT(messages);  t('count', { n: 3 })
 *
 * `defineMessages` makes tsc fail when the Spanish (es-MX) side misses a key of the English side, and `t` only
 * accepts keys that exist. Shared words live in `common.ts`. The locale follows the OS language (navigator.language)
 * until the user picks one in Settings; the choice is persisted by main (settings.setPreferences).
 */

export type Locale = 'en' | 'es';
export type Bilingual = { en: string; es: string };
export type Messages<E extends Record<string, string>> = { en: E; es: { [K in keyof E]: string } };

export function defineMessages<E extends Record<string, string>>(messages: Messages<E>): Messages<E> {
  return messages;
}

export function localeFromNavigator(
  languages: readonly string[] = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]),
): Locale {
  const first = languages.find(Boolean) ?? 'en';
  return first.toLowerCase().startsWith('es') ? 'es' : 'en';
}

/** BCP 47 tag for Intl and `<html lang>`. */
export const intlLocale = (locale: Locale): string => (locale === 'es' ? 'es-MX' : 'en-US');

/**
 * Fills a message's placeholders. A value that ends a sentence's abbreviation ("2:50 p.m.", "S.A.") before the
 * message's own full stop takes no second one: "a las 2:50 p.m.", not "p.m..".
 */
export function interpolate(template: string, vars?: Record<string, string | number>): string {
  if (!vars) return template;
  return template.replace(/\{(\w+)\}(\.?)/g, (whole, name: string, stop: string) => {
    if (!(name in vars)) return whole;
    const value = String(vars[name]);
    return value.endsWith('.') ? value : value + stop;
  });
}

interface LocaleContextValue {
  locale: Locale;
  setLocale: (locale: Locale | null) => void;
}

const LocaleContext = createContext<LocaleContextValue>({ locale: 'en', setLocale: () => undefined });

export function LocaleProvider({ value, children }: { value: LocaleContextValue; children: ReactNode }) {
  return <LocaleContext.Provider value={value}>{children}</LocaleContext.Provider>;
}

export function useLocale(): LocaleContextValue {
  return useContext(LocaleContext);
}

export type Translate<E extends Record<string, string>> = (
  key: keyof E & string,
  vars?: Record<string, string | number>,
) => string;

/** Typed translator for one feature's messages in the current locale. */
export function useT<E extends Record<string, string>>(messages: Messages<E>): Translate<E> {
  const { locale } = useLocale();
  return useCallback(
    (key, vars) => interpolate((messages[locale] as Record<string, string>)[key] ?? messages.en[key] ?? key, vars),
    [locale, messages],
  );
}

/** Picks the current language from a bilingual text (e.g. the message of an IpcErrorData). */
export function useBilingual(): (text: Bilingual) => string {
  const { locale } = useLocale();
  return useCallback((text) => text[locale], [locale]);
}

/** Number and date formatting in the current locale (tabular figures come from CSS). */
export function useFormat(): Formatters {
  return formattersFor(useLocale().locale);
}

export interface Formatters {
  number: (n: number, options?: Intl.NumberFormatOptions) => string;
  dateTime: (d: Date | string | number) => string;
  bytes: (n: number) => string;
  duration: (seconds: number) => string;
}

// One set per language for the whole app: building Intl formatters costs far more than using them.
const formatters = new Map<Locale, Formatters>();
function formattersFor(locale: Locale): Formatters {
  let found = formatters.get(locale);
  if (!found) {
    const tag = intlLocale(locale);
    const dateTime = new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'medium' });
    found = {
      number: (n, options) => numberFormat(tag, options).format(n),
      dateTime: (d) => dateTime.format(new Date(d)),
      bytes: (n) => formatBytes(n, tag),
      duration: (seconds) => formatDuration(seconds),
    };
    formatters.set(locale, found);
  }
  return found;
}

export function formatBytes(n: number, tag = 'en-US'): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${numberFormat(tag, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(tag: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = options ? `${tag} ${JSON.stringify(options)}` : tag;
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(tag, options)));
  return format;
}

export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const parts: string[] = [];
  if (h) parts.push(`${h} h`);
  if (m || h) parts.push(`${m} min`);
  parts.push(`${sec} s`);
  return parts.join(' ');
}
