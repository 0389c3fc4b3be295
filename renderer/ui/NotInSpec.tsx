import { unreadFieldsOf } from '../../common/omni/common';
import { common } from '../i18n/common';
import { useT } from '../i18n/index';

/**
 * A value the app does not know (a severity the spec does not list), shown as it came with a mark that says so. It
 * stands where the value would be, so it is shown whether or not technical details are on.
 */
export function NotInSpec({ value }: { value: string }) {
  const t = useT(common);
  return (
    <span className="not-in-spec" data-testid="not-in-spec" title={t('notInSpecTitle')}>
      <span className="mono">{value}</span> <span className="small muted">({t('notInSpec')})</span>
    </span>
  );
}

/**
 * Fields the tolerant reader set aside on `of`, each with its raw value (`only`: these fields, `except`: all but
 * these); nothing when there are none. Always in view, technical details on or off: each stands for something the
 * panel would otherwise show. The field keeps the service's own name (what support will ask for).
 */
export function UnreadFields({ of, only, except }: { of: unknown; only?: string[]; except?: string[] }) {
  const t = useT(common);
  const unread = Object.entries(unreadFieldsOf(of)).filter(
    ([field]) => (!only || only.includes(field)) && !except?.includes(field),
  );
  if (unread.length === 0) return null;
  return (
    <div className="unread-fields" data-testid="unread-fields" role="note">
      <p className="small">
        <strong>{t('unreadTitle')}</strong> {t('unreadNote')}
      </p>
      <dl className="facts small">
        {unread.map(([field, value]) => (
          <div key={field}>
            <dt className="mono">{field}</dt>
            <dd className="mono raw-value">{JSON.stringify(value)}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
