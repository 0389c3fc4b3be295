import { intlLocale, type Locale } from '../../i18n/index';

/**
 * The fraud risk's score as the panel shows it: rounded to two decimals in the screen's language for reading, the
 * exact value as the service sent it kept beside (title, screen readers, tests). A value that is no finite number is
 * not rounded into one: it is shown as it came, marked as not in the spec.
 */
export type FraudScoreText = { kind: 'number'; shown: string; exact: string } | { kind: 'notInSpec'; raw: string };

const formats = new Map<Locale, Intl.NumberFormat>();
function twoDecimals(locale: Locale): Intl.NumberFormat {
  let format = formats.get(locale);
  if (!format)
    formats.set(
      locale,
      (format = new Intl.NumberFormat(intlLocale(locale), {
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
        // A tiny negative value rounds to "0.00", not "-0.00".
        signDisplay: 'negative',
      })),
    );
  return format;
}

export function fraudScoreText(value: unknown, locale: Locale): FraudScoreText {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const format = twoDecimals(locale);
    // Rounding never makes a score read certain, or nil, when it is not (red team 23: 0.995 read "1.00").
    const hundredths = Math.round(value * 100);
    const shown =
      hundredths === 100 && value < 1
        ? `> ${format.format(0.99)}`
        : hundredths === 0 && value > 0
          ? `< ${format.format(0.01)}`
          : format.format(value);
    return { kind: 'number', shown, exact: String(value) };
  }
  return {
    kind: 'notInSpec',
    raw: typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value)),
  };
}
