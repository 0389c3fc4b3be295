import { keys, useOmniQuery } from '../../api/index';
import { useT } from '../../i18n/index';
import { ErrorNotice, Panel } from '../../ui/index';
import { Holders } from './Holders';
import { messages } from './messages';
import { PerDay } from './PerDay';
import { Proposals } from './Proposals';
import { QueueAge } from './QueueAge';
import { PerCode, ReasonCodesPanel } from './ReasonCodes';
import { Rules } from './Rules';
import { TeamAudit } from './TeamAudit';
import { WhoAmI } from './WhoAmI';
import './team.css';

/** How often the screen reads the team's state again besides the live notices (ages and leases move with time). */
const REFRESH_MS = 30_000;

/** The supervisor's screen: holders, queue age, proposals, decisions per day, team rules and the team's audit trail. */
export default function TeamScreen() {
  const t = useT(messages);
  const status = useOmniQuery(keys.team.status(), (api) => api.team.status({}));
  const overview = useOmniQuery(keys.team.overview(), (api) => api.team.overview({}), { refetchInterval: REFRESH_MS });
  return (
    <div className="team">
      <h1>{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      {status.data && <WhoAmI status={status.data} />}
      {status.error && <ErrorNotice error={status.error.data} onRetry={() => void status.refetch()} />}
      {overview.error ? (
        <ErrorNotice error={overview.error.data} onRetry={() => void overview.refetch()} />
      ) : (
        <div className="team-grid">
          <Panel title={t('queueAge')} query={overview}>
            {(o) => <QueueAge overview={o} />}
          </Panel>
          <Panel
            title={t('proposals')}
            query={overview}
            isEmpty={(o) => o.proposals.length === 0}
            empty={t('proposalsEmpty')}
          >
            {(o) => <Proposals overview={o} />}
          </Panel>
          <div className="team-wide">
            <Panel
              title={t('holders')}
              query={overview}
              isEmpty={(o) => o.holders.length === 0}
              empty={t('holdersEmpty')}
            >
              {(o) => <Holders holders={o.holders} members={o.members} />}
            </Panel>
          </div>
          <div className="team-wide">
            <Panel
              title={t('perDay')}
              query={overview}
              isEmpty={(o) => o.decisionsByDay.length === 0}
              empty={t('perDayEmpty')}
            >
              {(o) => <PerDay rows={o.decisionsByDay} />}
            </Panel>
          </div>
          <div className="team-wide">
            <Panel
              title={t('perCode')}
              query={overview}
              isEmpty={(o) => o.decisionsByCode.length === 0}
              empty={t('perCodeEmpty')}
            >
              {(o) => <PerCode overview={o} />}
            </Panel>
          </div>
          <Panel title={t('settings')} query={overview}>
            {(o) => (
              <>
                <Rules settings={o.settings} />
                {status.data?.engine === 'embedded' && (
                  <p className="muted small" data-testid="reason-codes-in-settings">
                    {t('reasonCodesInSettings')}
                  </p>
                )}
              </>
            )}
          </Panel>
          {/* On a team database the codes are among the team's rules; this computer's record keeps them in Settings. */}
          {status.data?.engine === 'team' && (
            <div className="team-wide">
              <ReasonCodesPanel />
            </div>
          )}
        </div>
      )}
      {overview.data && <TeamAudit members={overview.data.members} />}
    </div>
  );
}
