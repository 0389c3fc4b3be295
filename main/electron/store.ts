import { join } from 'node:path';
import { app } from 'electron';
import Store from 'electron-store';
import type { JsonStore } from '../ipc/context';
import { openStoreFile, snapshotJsonStore } from '../json-store';

/** electron-store in the app (the web shell uses conf, the library electron-store is built on). */
export function electronJsonStore(): { store: JsonStore; setAsideAs?: string } {
  const { file, setAsideAs } = openStoreFile(
    () => new Store<Record<string, unknown>>({ name: 'omni-reviewer' }),
    // electron-store's default folder.
    () => join(app.getPath('userData'), 'omni-reviewer.json'),
  );
  return { store: snapshotJsonStore(file), ...(setAsideAs ? { setAsideAs } : {}) };
}
