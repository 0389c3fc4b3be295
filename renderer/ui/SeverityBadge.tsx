import { common } from '../i18n/common';
import { useT } from '../i18n/index';
import { Badge } from './Badge';
import { IconDanger, IconInfo, IconMinus, IconWarning } from './icons';

/**
 * Severity with an icon and a word, never colour alone. Accepts the service's spellings as they come
 * (lower case for raw checks, upper case for fraud risk); null reads "Not rated", a value the spec does not list is
 * shown as it came, marked so.
 */
export function SeverityBadge({ severity }: { severity: string | null | undefined }) {
  const t = useT(common);
  switch (severity?.toLowerCase()) {
    case 'low':
      return (
        <Badge tone="neutral" icon={<IconInfo />}>
          {t('severityLow')}
        </Badge>
      );
    case 'medium':
      return (
        <Badge tone="warn" icon={<IconWarning />}>
          {t('severityMedium')}
        </Badge>
      );
    case 'high':
      return (
        <Badge tone="danger" icon={<IconDanger />}>
          {t('severityHigh')}
        </Badge>
      );
    default:
      // The mark goes under the badge, not inside it: a long Spanish mark in the badge widened its whole column.
      if (severity)
        return (
          <span className="severity-not-in-spec" data-testid="not-in-spec" title={t('notInSpecTitle')}>
            <Badge tone="warn" icon={<IconWarning />}>
              <span className="mono">{severity}</span>
            </Badge>{' '}
            <span className="small muted">({t('notInSpec')})</span>
          </span>
        );
      return (
        <Badge tone="neutral" icon={<IconMinus />}>
          {t('severityUnknown')}
        </Badge>
      );
  }
}
