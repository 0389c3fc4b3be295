import Store from 'electron-store';
import type { JsonStore } from '../ipc/context';
import { snapshotJsonStore } from '../json-store';

/** electron-store in the app (the web shell uses conf, the library electron-store is built on). */
export function electronJsonStore(): JsonStore {
  return snapshotJsonStore(new Store<Record<string, unknown>>({ name: 'omni-reviewer' }));
}
