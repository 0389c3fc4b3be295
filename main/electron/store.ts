import { join } from 'node:path';
import { app } from 'electron';
import Store from 'electron-store';
import { openStores, type OpenedStore } from '../json-store';

/** electron-store in the app (the web shell uses conf, the library electron-store is built on), one file per name. */
export function electronJsonStore(): OpenedStore {
  return openStores(
    (name) => new Store<Record<string, unknown>>({ name }),
    // electron-store's default folder.
    (name) => join(app.getPath('userData'), `${name}.json`),
  );
}
