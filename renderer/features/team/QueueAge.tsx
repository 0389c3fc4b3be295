import type { TeamOverviewView } from '../../../common/ipc/team';
import { useFormat, useT } from '../../i18n/index';
import { useAgeText } from '../interviews/team-queue';
import { messages } from './messages';

/** How many wait, the oldest, and how many are past the team's target. */
export function QueueAge({ overview }: { overview: TeamOverviewView }) {
  const t = useT(messages);
  const f = useFormat();
  const age = useAgeText();
  const { waiting, settings } = overview;
  return (
    <dl className="team-figures" data-testid="team-queue-age">
      <div>
        <dt>{t('waiting')}</dt>
        <dd>{f.number(waiting.count)}</dd>
      </div>
      <div>
        <dt>{t('oldest')}</dt>
        <dd>{waiting.oldestAddedAt ? age(waiting.oldestAddedAt) : t('none')}</dd>
      </div>
      <div className={waiting.pastTarget > 0 ? 'team-past-target' : undefined}>
        <dt>{t('pastTarget', { hours: settings.targetHours })}</dt>
        <dd data-testid="team-past-target">{f.number(waiting.pastTarget)}</dd>
      </div>
    </dl>
  );
}
