import { createContext, useContext, useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
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

/**
 * Where an ancestor says once a failure several of its panels share (the interview workspace's outage banner): each
 * failed panel reports its error and how to read it again, and shows the ancestor's one-line note, when it gives one,
 * in place of its own notice. Without one, every panel says its own error in full, as before.
 */
export interface PanelFailures {
  /** Called while the panel shows `error`; returns the call that takes the report back. */
  report: (failure: { error: IpcErrorData; refetch: () => unknown }) => () => void;
  /** The line said in place of the notice, or undefined for the notice itself. */
  noteFor: (error: IpcErrorData) => ReactNode;
}
export const PanelFailuresContext = createContext<PanelFailures | null>(null);

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
  const failures = useContext(PanelFailuresContext);
  const report = failures?.report;
  const error = query.error?.data;
  const { refetch } = query;
  // Before paint, so a failure said above is not first shown here in full.
  useLayoutEffect(() => (report && error ? report({ error, refetch }) : undefined), [report, error, refetch]);
  let body: ReactNode;
  if (query.error) {
    const note = failures?.noteFor(query.error.data);
    body = (
      <>
        {because && <p className="panel-empty">{because}</p>}
        {note ?? <ErrorNotice error={query.error.data} onRetry={() => void query.refetch()} />}
      </>
    );
  } else if (query.isPending || query.data === undefined) body = <Skeleton rows={skeletonRows} />;
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
  const waitLeft = useRetryCountdown(retryAfterMs(error), error);
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
      {onRetry && retryCanHelp(error) && (
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

/** Whole seconds left of a Retry-After wait, counting down from when `since` (the error) was first shown. */
export function useRetryCountdown(waitMs: number | undefined, since: unknown): number | undefined {
  const [start, setStart] = useState(() => ({ since, until: waitMs === undefined ? undefined : Date.now() + waitMs }));
  const [now, setNow] = useState(() => Date.now());
  if (start.since !== since) {
    // A new error (the retry failed again): its own wait, from now.
    const at = Date.now();
    setStart({ since, until: waitMs === undefined ? undefined : at + waitMs });
    setNow(at);
  }
  const { until } = start;
  useEffect(() => {
    if (until === undefined || now >= until) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(1000, until - now));
    return () => clearTimeout(timer);
  }, [until, now]);
  return until === undefined ? undefined : Math.max(0, Math.ceil((until - now) / 1000));
}

/**
 * Whether the same call can help: not where it was refused as sent (400), nor for a write that may have gone
 * through and carries no key (sending it again makes another).
 */
export const retryCanHelp = (error: IpcErrorData): boolean =>
  !(error.retryable === false && (error.code === 'OUTCOME_UNKNOWN' || error.httpStatus === 400));

/** The wait the service asked for before this error's call is made again, if it said one. */
export const retryAfterMs = (error: IpcErrorData): number | undefined =>
  typeof error.details?.retryAfterMs === 'number' ? error.details.retryAfterMs : undefined;
