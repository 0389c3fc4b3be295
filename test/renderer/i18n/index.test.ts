import { readdirSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { common } from '../../../renderer/i18n/common';
import { formatBytes, interpolate, localeFromNavigator } from '../../../renderer/i18n/index';

const featuresDir = new URL('../../../renderer/features/', import.meta.url);
/** Each feature's messages.ts, and the catalogs of its parts beside it (`bulk-messages.ts`). */
const featureMessages = readdirSync(featuresDir)
  .filter((name) => existsSync(new URL(`${name}/`, featuresDir)))
  .flatMap((name) =>
    readdirSync(new URL(`${name}/`, featuresDir))
      .filter((file) => file === 'messages.ts' || file.endsWith('-messages.ts'))
      .map((file) => [name, file.slice(0, -'.ts'.length)] as const),
  );

describe('i18n', () => {
  it('follows the OS language: any Spanish variant is es-MX, anything else English', () => {
    expect(localeFromNavigator(['es-MX'])).toBe('es');
    expect(localeFromNavigator(['es'])).toBe('es');
    expect(localeFromNavigator(['ES-ar', 'en'])).toBe('es');
    expect(localeFromNavigator(['en-US', 'es-MX'])).toBe('en');
    expect(localeFromNavigator(['fr-FR'])).toBe('en');
    expect(localeFromNavigator([])).toBe('en');
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(interpolate('{done} de {total}', { done: 3, total: 10 })).toBe('3 de 10');
    expect(interpolate('Hola {name}', {})).toBe('Hola {name}');
    // A time that ends in "p.m." closes the sentence itself: no "p.m..".
    expect(interpolate('Decisión registrada a las {time}.', { time: '2:50 p.m.' })).toBe(
      'Decisión registrada a las 2:50 p.m.',
    );
    expect(interpolate('Enviada {time}.', { time: '14:50' })).toBe('Enviada 14:50.');
    expect(interpolate('{a}.{b}', { a: 'x.', b: 'y' })).toBe('x.y');
  });

  it('formats byte sizes in the locale', () => {
    expect(formatBytes(1536, 'en-US')).toBe('1.5 KB');
    expect(formatBytes(1536, 'es-MX')).toBe('1.5 KB');
    expect(formatBytes(12, 'en-US')).toBe('12 B');
  });

  it.each([['common', common] as const])(
    '%s: every English text has a Spanish one with the same placeholders',
    (_name, messages) => {
      checkPair(messages as { en: Record<string, string>; es: Record<string, string> });
    },
  );

  it.each(featureMessages)(
    'features/%s/%s.ts: both languages, same keys, same placeholders, nothing empty',
    async (feature, catalog) => {
      const mod = (await import(`../../../renderer/features/${feature}/${catalog}.ts`)) as Record<string, unknown>;
      const pairs = Object.values(mod).filter(
        (v): v is { en: Record<string, string>; es: Record<string, string> } =>
          typeof v === 'object' && v !== null && 'en' in v && 'es' in v,
      );
      expect(pairs.length).toBeGreaterThan(0);
      for (const pair of pairs) checkPair(pair);
    },
  );
});

function checkPair(pair: { en: Record<string, unknown>; es: Record<string, unknown> }) {
  expect(Object.keys(pair.es).sort()).toEqual(Object.keys(pair.en).sort());
  const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const key of Object.keys(pair.en)) {
    const en = pair.en[key];
    const es = pair.es[key];
    // Some features keep functions or nested objects beside texts; only strings are compared.
    if (typeof en !== 'string' || typeof es !== 'string') continue;
    expect(en.trim(), `en.${key}`).not.toBe('');
    expect(es.trim(), `es.${key}`).not.toBe('');
    expect(placeholders(es), `placeholders of ${key}`).toEqual(placeholders(en));
  }
}
