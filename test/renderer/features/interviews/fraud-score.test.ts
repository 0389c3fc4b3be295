import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { fraudScoreText } from '../../../../renderer/features/interviews/fraud-score';
import { FraudScore } from '../../../../renderer/features/interviews/FraudScore';
import { LocaleProvider, type Locale } from '../../../../renderer/i18n/index';
import { NotInSpec } from '../../../../renderer/ui/NotInSpec';

/** The score's markup in a language, without React's markers between text pieces. */
const rendered = (value: unknown, locale: Locale) =>
  renderToString(
    createElement(LocaleProvider, {
      value: { locale, setLocale: () => undefined },
      children: createElement(FraudScore, { value }),
    }),
  ).replaceAll('<!-- -->', '');

/** What a screen reader reads: the text, tags and all, hidden parts included. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, '').replaceAll('&quot;', '"');

describe('the fraud score as the panel shows it', () => {
  it('rounds to two decimals for reading and keeps the exact value as the service sent it', () => {
    expect(fraudScoreText(0.9731846625, 'en')).toEqual({ kind: 'number', shown: '0.97', exact: '0.9731846625' });
    expect(fraudScoreText(0.04182736451, 'es')).toEqual({ kind: 'number', shown: '0.04', exact: '0.04182736451' });
  });

  it('always shows two decimals, in the screen language', () => {
    expect(fraudScoreText(0.5, 'en')).toMatchObject({ shown: '0.50', exact: '0.5' });
    expect(fraudScoreText(1, 'es')).toMatchObject({ shown: '1.00', exact: '1' });
    expect(fraudScoreText(0, 'en')).toMatchObject({ shown: '0.00', exact: '0' });
    // es-MX writes decimals with a point, as en-US does; a score outside [0, 1] is grouped the same way.
    expect(fraudScoreText(1234.5678, 'es')).toMatchObject({ shown: '1,234.57', exact: '1234.5678' });
    expect(fraudScoreText(1234.5678, 'en')).toMatchObject({ shown: '1,234.57' });
  });

  it('rounds half away from zero at the second decimal and keeps a tiny negative from reading as -0.00', () => {
    expect(fraudScoreText(0.125, 'en')).toMatchObject({ shown: '0.13' });
    expect(fraudScoreText(0.994, 'en')).toMatchObject({ shown: '0.99' });
    // Never "1.00" or "0.00" for a score that is not quite (red team 23).
    expect(fraudScoreText(0.996, 'en')).toMatchObject({ shown: '> 0.99', exact: '0.996' });
    expect(fraudScoreText(0.99999, 'es')).toMatchObject({ shown: '> 0.99' });
    expect(fraudScoreText(0.004, 'en')).toMatchObject({ shown: '< 0.01', exact: '0.004' });
    expect(fraudScoreText(-0.001, 'en')).toMatchObject({ shown: '0.00', exact: '-0.001' });
  });

  it('keeps every digit of the exact value, in the form JavaScript reads it back to the same number', () => {
    const score = fraudScoreText(1e-7, 'en');
    expect(score).toMatchObject({ shown: '< 0.01', exact: '1e-7' });
    expect(Number(score.kind === 'number' ? score.exact : NaN)).toBe(1e-7);
  });

  it('a value that is no finite number is not rounded into one: shown as it came, to be marked not in the spec', () => {
    expect(fraudScoreText(Number.NaN, 'en')).toEqual({ kind: 'notInSpec', raw: 'NaN' });
    expect(fraudScoreText(Number.POSITIVE_INFINITY, 'es')).toEqual({ kind: 'notInSpec', raw: 'Infinity' });
    expect(fraudScoreText('0.97', 'en')).toEqual({ kind: 'notInSpec', raw: '"0.97"' });
    expect(fraudScoreText(null, 'en')).toEqual({ kind: 'notInSpec', raw: 'null' });
    expect(fraudScoreText(undefined, 'en')).toEqual({ kind: 'notInSpec', raw: 'undefined' });
    expect(fraudScoreText({ value: 0.9 }, 'en')).toEqual({ kind: 'notInSpec', raw: '{"value":0.9}' });
  });
});

describe('the fraud score on the screen', () => {
  it('shows the rounded score, the exact value in its title and read out after it', () => {
    const en = rendered(0.9731846625, 'en');
    expect(en).toContain('title="Exact value: 0.9731846625"');
    expect(en).toContain('data-value="0.9731846625"');
    expect(textOf(en)).toBe('0.97 (Exact value: 0.9731846625)');
    expect(textOf(rendered(0.9731846625, 'es'))).toBe('0.97 (Valor exacto: 0.9731846625)');
  });

  it('marks a value that is no finite number as the app marks any value it does not know, shown as it came', () => {
    const html = rendered(Number.NaN, 'en');
    expect(html).toContain('data-testid="not-in-spec"');
    expect(html).toContain('data-value="NaN"');
    // The app's own mark, whatever its words: the same as a severity the spec does not list.
    const mark = (value: string, locale: Locale) =>
      textOf(
        renderToString(
          createElement(LocaleProvider, {
            value: { locale, setLocale: () => undefined },
            children: createElement(NotInSpec, { value }),
          }),
        ).replaceAll('<!-- -->', ''),
      );
    expect(textOf(html)).toBe(mark('NaN', 'en'));
    expect(textOf(html)).toMatch(/^NaN \(.+\)$/);
    expect(textOf(rendered('high', 'es'))).toBe(mark('"high"', 'es'));
  });
});
