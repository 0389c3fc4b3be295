import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { PreferencesView } from '../../common/ipc/settings';
import { keys } from './keys';
import { useOmniMutation, useOmniQuery } from './index';

type Choice = 'theme' | 'afterDecision' | 'technicalDetails';

/**
 * One preference kept by main, as a control shows it: the control follows the click at once, main's answer then
 * confirms it (or the old value comes back with the error). Without the local choice a controlled checkbox snaps
 * back for a tick, until the mutation's pending state reaches React.
 */
export function usePreference<K extends Choice>(name: K, fallback: PreferencesView[K]) {
  const queryClient = useQueryClient();
  const prefs = useOmniQuery(keys.settings.preferences(), (api) => api.settings.preferences({}), {
    staleTime: Infinity,
  });
  const save = useOmniMutation((api, value: PreferencesView[K]) => api.settings.setPreferences({ [name]: value }), {
    onSuccess: (next: PreferencesView) => void queryClient.setQueryData(keys.settings.preferences(), next),
  });
  const [chosen, setChosen] = useState<PreferencesView[K] | null>(null);
  const set = (value: PreferencesView[K]) => {
    setChosen(value);
    save.mutate(value, { onSettled: () => setChosen(null) });
  };
  return { value: chosen ?? prefs.data?.[name] ?? fallback, set, error: save.error };
}

/**
 * Whether the screens show what developers read: the service's answer as read, the fields the spec does not list.
 * Off until chosen in Settings → Preferences; read-only, for the many panels that only follow it.
 */
export function useTechnicalDetails(): boolean {
  const prefs = useOmniQuery(keys.settings.preferences(), (api) => api.settings.preferences({}), {
    staleTime: Infinity,
  });
  return prefs.data?.technicalDetails === true;
}
