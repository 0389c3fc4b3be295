import { useCallback } from 'react';
import { keys, useOmniQuery } from '../api/index';
import { common } from '../i18n/common';
import { useT } from '../i18n/index';

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
      return env.kind === 'demo' ? t('envDemo') : env.kind === 'production' ? t('envProduction') : t('envCustom');
    },
    [list, t],
  );
}
