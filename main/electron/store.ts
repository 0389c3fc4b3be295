import { join } from 'node:path';
import { app } from 'electron';
import Store from 'electron-store';
import { openStore, type OpenedStore } from '../json-store';

/** electron-store in the app (the web shell uses conf, the library electron-store is built on). */
export function electronJsonStore(): OpenedStore {
  return openStore(
    () => new Store<Record<string, unknown>>({ name: 'omni-reviewer' }),
    // electron-store's default folder.
    () => join(app.getPath('userData'), 'omni-reviewer.json'),
  );
}
