import { useEffect, useState, type ReactNode } from 'react';
import type { IpcErrorData } from '../../common/ipc/define';
import { common } from '../i18n/common';
import { useBilingual, useLocale, useT } from '../i18n/index';
import { Button } from './Button';

/**
 * Every panel has four states: loading (skeleton), empty (with the reason), error (what failed, what to do,
 * retry, code in small print) and data. Feed it a React Query result:
 *
 *   <Panel title={t('checks')} query={q} isEmpty={(d) => d.length === 0} empty={t('idvNotRun')}>{(d) => <Checks rows={d} />}</Panel>
 */
export interface PanelQuery<T> {
  data: T | undefined;
  error: { data: IpcErrorData } | null;
  isPending: boolean;
  isFetching?: boolean;
  refetch: () => unknown;
}

export function Panel<T>({
  title,
  query,
  isEmpty,
  empty,
  because,
  children,
  footer,
  actions,
  skeletonRows = 3,
  headingLevel = 2,
}: {
  title: ReactNode;
  query: PanelQuery<T>;
  isEmpty?: (data: T) => boolean;
  /** Why there is nothing to show, in the user's words. */
  empty?: ReactNode;
  /**
   * Why there may be nothing, known apart from this answer (a deleted session): said in place of `empty`, and
   * above an error so the analyst does not take it for a fault to retry.
   */
  because?: ReactNode;
  children: (data: T) => ReactNode;
  /** Shown under the data and under the empty state alike (the service's answer, which an empty one has too). */
  footer?: (data: T) => ReactNode;
  actions?: ReactNode;
  skeletonRows?: number;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  let body: ReactNode;
  if (query.error)
    body = (
      <>
        {because && <p className="panel-empty">{because}</p>}
        <ErrorNotice error={query.error.data} onRetry={() => void query.refetch()} />
      </>
    );
  else if (query.isPending || query.data === undefined) body = <Skeleton rows={skeletonRows} />;
  else if (isEmpty?.(query.data))
    body = (
      <>
        <p className="panel-empty">{because ?? empty}</p>
        {footer?.(query.data)}
      </>
    );
  else
    body = (
      <>
        {children(query.data)}
        {footer?.(query.data)}
      </>
    );
  return (
    <section className="panel" aria-busy={query.isPending || undefined}>
      <div className="panel-header">
        <Heading>{title}</Heading>
        {actions}
      </div>
      {body}
    </section>
  );
}

export function Skeleton({ rows = 3 }: { rows?: number }) {
  const t = useT(common);
  return (
    <div role="status" aria-label={t('loading')}>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton" style={{ width: `${90 - i * 12}%` }} />
      ))}
    </div>
  );
}

/** What failed, what to do next, a retry button when it can help, and the code in small print. */
export function ErrorNotice({ error, onRetry }: { error: IpcErrorData; onRetry?: () => void }) {
  const t = useT(common);
  const pick = useBilingual();
  const { locale } = useLocale();
  const waitLeft = useCountdown(
    typeof error.details?.retryAfterMs === 'number' ? error.details.retryAfterMs : undefined,
  );
  // The service's own words (e.g. which session state refused the write) complement the catalog text.
  const serviceMessage = typeof error.details?.serviceMessage === 'string' ? error.details.serviceMessage : undefined;
  return (
    <div className="panel-error" role="alert">
      <p className="what">{pick(error.message)}</p>
      {/* While the service's wait counts down, the countdown is the advice ("wait" said once, not three times). */}
      {error.advice && !(waitLeft !== undefined && waitLeft > 0) && <p>{pick(error.advice)}</p>}
      {waitLeft !== undefined && waitLeft > 0 && (
        <p data-testid="retry-after">{t('retryAfterWait', { seconds: waitLeft })}</p>
      )}
      {serviceMessage && <p className="small muted service-said">{t('serviceSaid', { message: serviceMessage })}</p>}
      {/* Each field's reason in the screen's language (main words it in Spanish where it can; else the path alone). */}
      {error.issues && error.issues.length > 0 && (
        <ul className="small">
          {error.issues.map((issue) => {
            const reason = locale === 'en' ? issue.message : issue.messageEs;
            return (
              <li key={issue.path}>
                <code>{issue.path}</code>
                {reason && <>: {reason}</>}
              </li>
            );
          })}
        </ul>
      )}
      {/* No Retry where the same call cannot help: refused as sent (400), or a write that may have gone through and
          carries no key (sending it again makes another). */}
      {onRetry && !(error.retryable === false && (error.code === 'OUTCOME_UNKNOWN' || error.httpStatus === 400)) && (
        <Button onClick={onRetry} disabled={waitLeft !== undefined && waitLeft > 0}>
          {t('retry')}
        </Button>
      )}
      <div className="code">
        {t('errorCode', {
          code: [error.code, error.serviceCode, error.httpStatus].filter((x) => x !== undefined).join(' · '),
        })}
      </div>
    </div>
  );
}

/** Whole seconds left of the service's Retry-After wait, counting down from when the error was shown. */
function useCountdown(waitMs: number | undefined): number | undefined {
  const [until] = useState(() => (waitMs === undefined ? undefined : Date.now() + waitMs));
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === undefined || now >= until) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(1000, until - now));
    return () => clearTimeout(timer);
  }, [until, now]);
  return until === undefined ? undefined : Math.max(0, Math.ceil((until - now) / 1000));
}
