import Store from 'electron-store';
import type { JsonStore } from '../ipc/context';

/** electron-store in the app (the web shell uses conf, the library electron-store is built on). */
export function electronJsonStore(): JsonStore {
  const store = new Store<Record<string, unknown>>({ name: 'omni-reviewer' });
  return {
    get: <T>(key: string) => store.get(key) as T | undefined,
    set: <T>(key: string, value: T) => store.set(key, value as unknown),
    delete: (key: string) => store.delete(key),
  };
}
