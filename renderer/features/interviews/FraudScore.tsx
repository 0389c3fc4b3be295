import { useLocale, useT } from '../../i18n/index';
import { NotInSpec } from '../../ui/NotInSpec';
import { fraudScoreText } from './fraud-score';
import { messages } from './messages';

/**
 * The fraud score rounded for reading, in the screen's language; the exact value the service sent is the title, read
 * out to screen readers, and kept in `data-value`. A value that is no finite number is shown as it came, marked.
 */
export function FraudScore({ value }: { value: unknown }) {
  const t = useT(messages);
  const { locale } = useLocale();
  const score = fraudScoreText(value, locale);
  if (score.kind === 'notInSpec')
    return (
      <span data-testid="fraud-score" data-value={score.raw}>
        <NotInSpec value={score.raw} />
      </span>
    );
  const exact = t('fraudScoreExact', { value: score.exact });
  return (
    <>
      <span className="fraud-score-value num" data-testid="fraud-score" data-value={score.exact} title={exact}>
        {score.shown}
      </span>
      <span className="visually-hidden"> ({exact})</span>
    </>
  );
}
