import { useCallback, useMemo, useState } from 'react';
import { unreadFieldsOf } from '../../../common/omni/common';
import type { FraudRisk, RawIdvCheckResult } from '../../../common/omni/session';
import { keys, useOmniQuery } from '../../api/index';
import { useLocale, useT } from '../../i18n/index';
import { checkWord, describeFinding } from '../../../common/audit-words';
import { NotInSpec, Panel, Segmented, ServiceAnswerView, SeverityBadge, UnreadFields } from '../../ui/index';
import { FraudScore } from './FraudScore';
import { messages } from './messages';
import { useEndedSessionText } from './session-ended';

type CheckSort = 'severity' | 'name' | 'value';
type CheckFilter = 'all' | 'high' | 'mediumUp' | 'notRun';

const RANK: Record<string, number> = { high: 3, medium: 2, low: 1 };
const rank = (severity: string) => RANK[severity] ?? 0;

/** A finding an approval must acknowledge (as main words it), in the screen's language. */
export function useFindingWords(): (finding: string) => string {
  const { locale } = useLocale();
  return useCallback((finding: string) => describeFinding(finding, locale), [locale]);
}

export function useRawIdv(interviewId: string) {
  return useOmniQuery(keys.interview.rawIdv(interviewId), (api) => api.interview.rawIdv({ interviewId }));
}

/** A check the service listed without running it: no value, and none set aside as unreadable either. */
const notRun = (c: RawIdvCheckResult) => c.result === null && !('result' in unreadFieldsOf(c));

export type MissingEvidence = 'checks' | 'checksUnread' | 'fraud';

/**
 * What an approval of this interview would go without, from the checks as read: no check ran (or none could be
 * read), no fraud risk score. Empty while the checks are still being read.
 */
export function useMissingEvidence(interviewId: string): MissingEvidence[] {
  const raw = useRawIdv(interviewId);
  if (raw.error) return ['checksUnread'];
  const result = raw.data?.data.result;
  if (!result) return [];
  const missing: MissingEvidence[] = [];
  if (result.checkResults.every(notRun) && !('checkResults' in unreadFieldsOf(result))) missing.push('checks');
  if (!result.fraudRisk && !('fraudRisk' in unreadFieldsOf(result))) missing.push('fraud');
  return missing;
}

/** Raw checks as the service named them, then the fraud risk; both from the same call. */
export function ChecksPanel({ interviewId }: { interviewId: string }) {
  const t = useT(messages);
  const raw = useRawIdv(interviewId);
  const fraud = { ...raw, data: raw.data?.data };
  const ended = useEndedSessionText(interviewId);
  return (
    <>
      <Panel
        title={t('checksTitle')}
        query={raw}
        isEmpty={(d) => d.data.result.checkResults.length === 0 && !('checkResults' in unreadFieldsOf(d.data.result))}
        empty={t('idvNotRun')}
        because={ended}
        footer={(d) => <ServiceAnswerView answer={d.data.answer} except={['fraudRisk']} />}
      >
        {(d) => (
          <>
            <ChecksTable checks={d.data.result.checkResults} />
            <UnreadFields of={d.data.result} except={['fraudRisk']} />
          </>
        )}
      </Panel>
      <Panel
        title={t('fraudTitle')}
        query={fraud}
        isEmpty={(d) => d.result.fraudRisk === null && !('fraudRisk' in unreadFieldsOf(d.result))}
        empty={t('noFraudRisk')}
        because={ended}
        footer={(d) => <ServiceAnswerView answer={d.answer} part="fraudRisk" />}
      >
        {(d) =>
          d.result.fraudRisk ? (
            <FraudRiskView risk={d.result.fraudRisk} />
          ) : (
            <UnreadFields of={d.result} only={['fraudRisk']} />
          )
        }
      </Panel>
    </>
  );
}

function ChecksTable({ checks }: { checks: RawIdvCheckResult[] }) {
  const t = useT(messages);
  const { locale } = useLocale();
  const [sort, setSort] = useState<CheckSort>('severity');
  const [filter, setFilter] = useState<CheckFilter>('all');
  const rows = useMemo(() => {
    const kept = checks.filter((c) =>
      filter === 'all'
        ? true
        : filter === 'high'
          ? c.severity === 'high'
          : filter === 'mediumUp'
            ? c.severity !== 'low'
            : notRun(c),
    );
    const byName = (a: RawIdvCheckResult, b: RawIdvCheckResult) => a.name.localeCompare(b.name);
    const byValue = (a: RawIdvCheckResult, b: RawIdvCheckResult) => (b.result ?? -1) - (a.result ?? -1);
    const compare =
      sort === 'name'
        ? byName
        : sort === 'value'
          ? (a: RawIdvCheckResult, b: RawIdvCheckResult) => byValue(a, b) || byName(a, b)
          : (a: RawIdvCheckResult, b: RawIdvCheckResult) =>
              rank(b.severity) - rank(a.severity) || byValue(a, b) || byName(a, b);
    return [...kept].sort(compare);
  }, [checks, sort, filter]);
  return (
    <>
      <div className="toolbar">
        <Segmented
          label={t('sortLabel')}
          value={sort}
          onChange={setSort}
          testId="checks-sort"
          options={[
            { value: 'severity', label: t('sortSeverity') },
            { value: 'value', label: t('sortValue') },
            { value: 'name', label: t('sortName') },
          ]}
        />
        <Segmented
          label={t('filterSeverity')}
          value={filter}
          onChange={setFilter}
          testId="checks-filter"
          options={[
            { value: 'all', label: t('all') },
            { value: 'high', label: t('filterHigh') },
            { value: 'mediumUp', label: t('filterMediumUp') },
            { value: 'notRun', label: t('filterNotRun') },
          ]}
        />
      </div>
      {rows.length === 0 ? (
        <p className="panel-empty">{t('checksFiltered')}</p>
      ) : (
        <table className="table" data-testid="checks-table">
          <thead>
            <tr>
              <th scope="col">{t('colSeverity')}</th>
              <th scope="col">{t('colCheck')}</th>
              <th scope="col" className="num">
                {t('colValue')}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c, i) => (
              <tr key={`${c.name}-${i}`} className={`sev-${c.severity}`}>
                <td>
                  <SeverityBadge severity={c.severity} />
                </td>
                {/* The model version under the name: a column of its own pushed the table out of a 1024 px window. */}
                <td>
                  {/* In words; the service's own name stays beside the model version, in small print. */}
                  <CheckName name={c.name} />
                  <span className="check-version mono small muted">
                    {checkWord(c.name, locale) && <span className="check-term">{c.name} · </span>}
                    <span className="visually-hidden">{t('colVersion')}: </span>
                    {c.version}
                  </span>
                  <UnreadFields of={c} except={['result']} />
                </td>
                <td className="num">
                  {'result' in unreadFieldsOf(c) ? (
                    // A value was sent but is no number in [0, 1]: shown as it came, not as "did not run".
                    <NotInSpec value={JSON.stringify(unreadFieldsOf(c).result)} />
                  ) : c.result === null ? (
                    // A badge, not muted text: beside a "low" severity, "did not run" must not read as "checked, fine".
                    <span className="badge badge-neutral" data-testid="check-not-run">
                      {t('didNotRun')}
                    </span>
                  ) : (
                    <span className="value-cell">
                      <span className="meter" aria-hidden="true">
                        <span style={{ width: `${c.result * 100}%` }} />
                      </span>
                      <span className="mono">{String(c.result)}</span>
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function FraudRiskView({ risk }: { risk: FraudRisk }) {
  const t = useT(messages);
  return (
    <div className="fraud" data-testid="fraud-risk">
      <dl className="facts">
        <div>
          <dt>{t('colSeverity')}</dt>
          <dd>
            <SeverityBadge severity={risk.severity} />
          </dd>
        </div>
        <div>
          <dt>{t('fraudScore')}</dt>
          <dd className="fraud-score">
            <FraudScore value={risk.result} />
          </dd>
        </div>
        <div>
          <dt>{t('fraudCategory')}</dt>
          <dd>
            {/* The model's category has no words of the app's: shown as the service's term, and said to be. */}
            {risk.responseCategory ? (
              <>
                <span className="mono">{risk.responseCategory}</span>{' '}
                <span className="small muted nowrap">({t('serviceTerm')})</span>
              </>
            ) : (
              '—'
            )}
          </dd>
        </div>
        <div>
          <dt>{t('fraudVersion')}</dt>
          <dd className="mono">{risk.version}</dd>
        </div>
      </dl>
      {/* The model's own text, in whatever language it writes: said to be the service's, not the app's. */}
      {risk.responseText && (
        <figure className="service-words">
          <figcaption className="small muted">{t('serviceWords')}:</figcaption>
          <blockquote>{risk.responseText}</blockquote>
        </figure>
      )}
      <UnreadFields of={risk} />
      {/* Said once for both lists: the features and their codes are the vendor's, the spec gives them no meaning. */}
      {[risk.topNFraudFeatures, risk.topNFraudCodes, risk.topNLegitFeatures, risk.topNLegitCodes].some(
        (list) => list.length > 0,
      ) && <p className="small muted feature-note">{t('fraudSignalsNote')}</p>}
      <div className="feature-lists">
        <FeatureTable title={t('fraudFeatures')} features={risk.topNFraudFeatures} codes={risk.topNFraudCodes} />
        <FeatureTable title={t('legitFeatures')} features={risk.topNLegitFeatures} codes={risk.topNLegitCodes} />
      </div>
    </div>
  );
}

/**
 * A list of the model's top features: the service's text is each row's main text, its code under it in small print.
 * Neither is explained: the spec does not enumerate them (the note above the lists says whose words they are).
 */
function FeatureTable({ title, features, codes }: { title: string; features: string[]; codes: string[] }) {
  const t = useT(messages);
  const count = Math.max(features.length, codes.length);
  return (
    <div>
      <h3>{title}</h3>
      {count === 0 ? (
        <p className="muted small">{t('noFeatures')}</p>
      ) : (
        <table className="table feature-table">
          <thead>
            <tr>
              <th scope="col">{t('colFeature')}</th>
            </tr>
          </thead>
          <tbody>
            {Array.from({ length: count }, (_, i) => (
              <tr key={i}>
                <td>
                  <span className="feature-text">{features[i] ?? '—'}</span>
                  {codes[i] !== undefined && (
                    <span className="feature-code mono small muted">
                      <span className="visually-hidden">{t('signalCode')}: </span>
                      {codes[i]}
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** A check's name in words; one the app has no words for is shown as the service wrote it, marked as its term. */
function CheckName({ name }: { name: string }) {
  const t = useT(messages);
  const { locale } = useLocale();
  const words = checkWord(name, locale);
  if (words) return <span>{words}</span>;
  return (
    <span>
      <span className="mono">{name}</span> <span className="small muted">({t('serviceTerm')})</span>
    </span>
  );
}
