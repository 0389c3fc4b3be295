import { keys, useOmniQuery } from '../../api/index';
import { useT } from '../../i18n/index';
import { Panel } from '../../ui/index';
import { messages } from './messages';
import { ActiveEnvironment, EnvironmentPicker } from './Environment';
import { StorageSecurity } from './Credentials';
import { PreferencesPanel } from './PreferencesPanel';
import { TeamDatabasePanel } from './TeamDatabase';
import { AuditTrailPanel } from './AuditTrailPanel';
import { ReasonCodesPanel } from '../team/ReasonCodes';
import './settings.css';

export default function SettingsScreen() {
  const t = useT(messages);
  const envs = useOmniQuery(keys.settings.environments(), (api) => api.settings.environments({}));
  const record = useOmniQuery(keys.team.status(), (api) => api.team.status({}));
  return (
    <div className="settings">
      <h1>{t('title')}</h1>
      <Panel title={t('environmentsTitle')} query={envs}>
        {(data) => <EnvironmentPicker data={data} t={t} />}
      </Panel>
      {envs.data && (
        <ActiveEnvironment
          key={envs.data.activeId}
          env={envs.data.environments.find((e) => e.id === envs.data.activeId)}
          t={t}
        />
      )}
      <StorageSecurity t={t} />
      <TeamDatabasePanel t={t} />
      {/* The team's reason codes: here on this computer's record; on a team database, the Team screen's rules. */}
      {record.data?.engine === 'embedded' && <ReasonCodesPanel />}
      <PreferencesPanel t={t} />
      <AuditTrailPanel t={t} />
    </div>
  );
}
