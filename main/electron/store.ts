import { join } from 'node:path';
import { app } from 'electron';
import Store from 'electron-store';
import { openStores, type OpenedStore } from '../json-store';
import { makePrivateDataDir, PRIVATE_FILE_MODE } from '../private-files';

/** electron-store in the app (the web shell uses conf, the library electron-store is built on), one file per name. */
export function electronJsonStore(): OpenedStore {
  // Chromium keeps its own folders in userData; only the app's files directly in it are made private.
  makePrivateDataDir(app.getPath('userData'), (name) => name.startsWith('omni-reviewer'));
  return openStores(
    (name) => new Store<Record<string, unknown>>({ name, configFileMode: PRIVATE_FILE_MODE }),
    // electron-store's default folder.
    (name) => join(app.getPath('userData'), `${name}.json`),
  );
}
