import { useCallback } from 'react';
import { keys, useOmniQuery } from '../api/index';
import { common } from '../i18n/common';
import { useT, type Translate } from '../i18n/index';
import type { EnvironmentView } from '../../common/ipc/settings';

/** An environment's kind in words ("Demo", "Production", "Custom"): the frame's bar and the trail's tables alike. */
export function environmentKindWord(kind: EnvironmentView['kind'], t: Translate<typeof common.en>): string {
  return kind === 'demo' ? t('envDemo') : kind === 'production' ? t('envProduction') : t('envCustom');
}

/**
 * An environment as people call it: the name its user gave it, else its kind in words ("Demo", "Production");
 * an id no environment here has (an entry from another computer's record) stays as written.
 */
export function useEnvironmentName(): (id: string) => string {
  const t = useT(common);
  const envs = useOmniQuery(keys.settings.environments(), (api) => api.settings.environments({}));
  const list = envs.data?.environments;
  return useCallback(
    (id: string) => {
      const env = list?.find((e) => e.id === id);
      if (!env) return id;
      if (env.named) return env.name;
      return environmentKindWord(env.kind, t);
    },
    [list, t],
  );
}
