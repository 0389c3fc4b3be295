import type { TeamStatusView } from '../../../common/ipc/team';
import type { TeamRole } from '../../../common/team-review';
import { useT } from '../../i18n/index';
import { messages } from './messages';

function useRoleWords() {
  const t = useT(messages);
  const words: Record<TeamRole, string> = {
    reviewer: t('roleReviewer'),
    supervisor: t('roleSupervisor'),
    admin: t('roleAdmin'),
  };
  return (roles: TeamRole[]) => roles.map((r) => words[r]).join(', ');
}

/** Which login this screen acts as, and its roles (or that the record is this computer's own). */
export function WhoAmI({ status }: { status: TeamStatusView }) {
  const t = useT(messages);
  const roleWords = useRoleWords();
  return (
    <p className="team-who" data-testid="team-who">
      {status.engine === 'embedded' ? t('embedded') : t('you', { user: status.user, roles: roleWords(status.roles) })}
    </p>
  );
}
