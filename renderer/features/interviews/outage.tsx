import { useCallback, useMemo, useState, type ReactNode } from 'react';
import type { IpcErrorData } from '../../../common/ipc/define';
import { common } from '../../i18n/common';
import { useBilingual, useT } from '../../i18n/index';
import {
  Button,
  IconWarning,
  PanelFailuresContext,
  retryAfterMs,
  retryCanHelp,
  useRetryCountdown,
  type PanelFailures,
} from '../../ui/index';
import { messages } from './messages';

/**
 * One outage said once: when two or more of the workspace's calls fail with the same error (code and HTTP status, and
 * so the same words), a banner above the panels says what happened, how many panels could not load, and retries them
 * all; each of those panels says one line pointing to it instead of the whole notice. A panel failing alone keeps its
 * full notice, and so do the two panels of one call (the checks and the fraud risk): that is one call refused, not an
 * outage, and its words name what was refused.
 */

interface Failure {
  error: IpcErrorData;
  refetch: () => unknown;
}

interface Outage {
  key: string;
  /** One failure per failed panel (two panels read from one call share its error). */
  failures: Failure[];
}

/**
 * Errors alike enough to be said once: the same code for the same HTTP status, worded alike. A refusal names what was
 * refused ("…this interview's ID checks"), and one panel's words would be wrong above another's.
 */
const kindOf = (error: IpcErrorData) => JSON.stringify([error.code, error.httpStatus ?? null, error.message.en]);

/** Gathers the failures of the panels inside it and says once, above them, one that two or more calls share. */
export function PanelOutages({ children }: { children: ReactNode }) {
  const t = useT(messages);
  const [failed, setFailed] = useState<Failure[]>([]);
  const report = useCallback((failure: Failure) => {
    // A panel's own object, so two panels of one call count twice and each takes back only its own report.
    const mine = { ...failure };
    setFailed((now) => [...now, mine]);
    return () => setFailed((now) => now.filter((f) => f !== mine));
  }, []);
  const outages = useMemo(() => {
    const byKind = new Map<string, Failure[]>();
    for (const failure of failed) {
      const key = kindOf(failure.error);
      byKind.set(key, [...(byKind.get(key) ?? []), failure]);
    }
    return [...byKind]
      .filter(([, failures]) => new Set(failures.map((f) => f.error)).size >= 2)
      .map(([key, failures]): Outage => ({ key, failures }));
  }, [failed]);
  const value = useMemo((): PanelFailures => {
    const shared = new Set(outages.map((o) => o.key));
    return {
      report,
      noteFor: (error) =>
        shared.has(kindOf(error)) ? (
          <p className="panel-error-note" data-testid="panel-error-note">
            <IconWarning /> {t('outageSeeAbove')}
          </p>
        ) : undefined,
    };
  }, [outages, report, t]);
  return (
    <>
      {outages.map((outage) => (
        <OutageBanner key={outage.key} outage={outage} />
      ))}
      <PanelFailuresContext.Provider value={value}>{children}</PanelFailuresContext.Provider>
    </>
  );
}

/** What happened in the words ErrorNotice uses, how many panels it left empty, one Retry all, the code in small print. */
function OutageBanner({ outage }: { outage: Outage }) {
  const t = useT(messages);
  const tc = useT(common);
  const pick = useBilingual();
  const { failures } = outage;
  const error = failures[0]!.error;
  // The longest wait any of the calls was asked for, counted from when this error was said.
  const waits = failures.map((f) => retryAfterMs(f.error)).filter((ms) => ms !== undefined);
  const waitLeft = useRetryCountdown(waits.length > 0 ? Math.max(...waits) : undefined, error);
  const waiting = waitLeft !== undefined && waitLeft > 0;
  const said = failures.map((f) => f.error.details?.serviceMessage);
  const serviceMessage = typeof said[0] === 'string' && said.every((s) => s === said[0]) ? said[0] : undefined;
  // Each call once (a call read by two panels fails with one error), and only those a retry can help.
  const retries = [...new Map(failures.map((f) => [f.error, f])).values()].filter((f) => retryCanHelp(f.error));
  return (
    <div className="panel-error outage-banner" role="alert" data-testid="outage-banner">
      <div className="outage-words">
        <p className="what">
          {pick(error.message)} <span className="outage-count">{t('outagePanels', { n: failures.length })}</span>
        </p>
        {error.advice && !waiting && <p>{pick(error.advice)}</p>}
        {waiting && <p data-testid="retry-after">{tc('retryAfterWait', { seconds: waitLeft })}</p>}
        {serviceMessage && <p className="small muted service-said">{tc('serviceSaid', { message: serviceMessage })}</p>}
        <div className="code">
          {tc('errorCode', {
            code: [error.code, error.serviceCode, error.httpStatus].filter((x) => x !== undefined).join(' · '),
          })}
        </div>
      </div>
      {retries.length > 0 && (
        <Button onClick={() => retries.forEach((f) => void f.refetch())} disabled={waiting}>
          {t('outageRetryAll')}
        </Button>
      )}
    </div>
  );
}
