import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { keys, useOmniQuery } from '../api/index';

/**
 * What the user typed in a form, kept outside the screen until the server confirms it: the areas unmount on
 * navigation (renderer/app/lazy-area.tsx), and a form held in useState came back empty after a failed send.
 *
 * The values live in this module, so they last as long as the renderer does (this app session): they survive leaving
 * a screen and coming back, switching environment and back; a reload of the window loses them (nothing is written to
 * disk or to storage, which is also why nothing secret may be kept here: no credential, password, team key, session
 * token or photo — a photo is picked again, and the form says so).
 *
 * Keys are namespaced per form, and per environment or interview when the form is about one:
 * `validation.rfc`, `settings.connection.<environmentId>`.
 */

interface Kept {
  value: unknown;
  /** The server confirmed this value: it stays on the screen showing it, and is dropped when that screen closes. */
  forgotten?: true;
}

const store = new Map<string, Kept>();
/** How many mounted hooks show each key (a forgotten value is dropped when the last of them unmounts). */
const mounted = new Map<string, number>();
const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether a value is kept under `key` (one the server confirmed counts until its screen closes). */
export function isKept(key: string): boolean {
  return store.has(key);
}

/** The value kept under `key`, or undefined. */
export function keptValue<T>(key: string): T | undefined {
  return store.get(key)?.value as T | undefined;
}

/** Keeps `value` under `key` (a new draft: one forgotten before is kept again). */
export function keep<T>(key: string, value: T): void {
  store.set(key, { value });
  changed();
}

/** How `forget` drops a value. */
export interface ForgetOptions {
  /**
   * Drop it at once, so the screen shows `initial` again: for a form whose `initial` is what the server saved (its
   * rules, its settings), read again by then. Without it the value stays on the screen showing it.
   */
  now?: boolean;
}

/**
 * The server confirmed what `key` holds: drop it. While a screen shows it, it stays there (the field does not empty
 * under the user's eyes) and is dropped when that screen closes, so the form starts fresh next time; an edit made in
 * between is a new draft and is kept. With `now`, it is dropped at once.
 */
export function forgetKept(key: string, { now = false }: ForgetOptions = {}): void {
  const entry = store.get(key);
  if (!entry || (entry.forgotten && !now)) return;
  if (!now && (mounted.get(key) ?? 0) > 0) store.set(key, { value: entry.value, forgotten: true });
  else store.delete(key);
  changed();
}

/** Drops everything (tests). */
export function forgetAllKept(): void {
  store.clear();
  changed();
}

/**
 * useState whose value outlives the screen: `[value, setValue, forget]`. `initial` is shown while nothing is kept
 * (it may change, e.g. the saved settings once they load); `setValue` keeps the new value under `key`; call `forget`
 * when the server confirmed it (the mutation's onSuccess; `forget({ now: true })` to show `initial` again at once). A
 * new `key` shows what that key keeps.
 */
export function useKeptState<T>(
  key: string,
  initial: T,
): [value: T, setValue: (next: T | ((previous: T) => T)) => void, forget: (options?: ForgetOptions) => void] {
  const entry = useSyncExternalStore(
    subscribe,
    () => store.get(key),
    () => store.get(key),
  );
  const value = entry ? (entry.value as T) : initial;

  useEffect(() => {
    mounted.set(key, (mounted.get(key) ?? 0) + 1);
    return () => {
      const left = (mounted.get(key) ?? 1) - 1;
      if (left > 0) {
        mounted.set(key, left);
        return;
      }
      mounted.delete(key);
      if (store.get(key)?.forgotten) store.delete(key);
    };
  }, [key]);

  const setValue = useCallback(
    (next: T | ((previous: T) => T)) => {
      const current = store.has(key) ? (store.get(key)!.value as T) : initial;
      keep(key, typeof next === 'function' ? (next as (previous: T) => T)(current) : next);
    },
    [key, initial],
  );
  const forget = useCallback((options?: ForgetOptions) => forgetKept(key, options), [key]);
  return [value, setValue, forget];
}

/**
 * The active environment's id, for the key of a form that is about the environment (its connection, its keys, its
 * interviews): what is typed for one is not shown for another. Empty until the environments are read (the frame
 * reads them at start, so in practice they are there).
 */
export function useEnvironmentScope(): string {
  const envs = useOmniQuery(keys.settings.environments(), (api) => api.settings.environments({}));
  return envs.data?.activeId ?? '';
}
