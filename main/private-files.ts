import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Drafts hold analysts' notes and names, and the audit trail repeats note text: the app's data is for its user
 * alone. Folders 0700 and files 0600 wherever the platform has modes (Windows ignores them; its profile folder is
 * private already).
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Creates the data folder private, or makes an existing one private, with the files directly in it (earlier
 * versions wrote them 0644). Sub-folders are left as they are: in Electron's folder they belong to Chromium.
 */
export function makePrivateDataDir(dir: string, ownFile: (name: string) => boolean = () => true): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (process.platform === 'win32') return;
  chmodSync(dir, PRIVATE_DIR_MODE);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && ownFile(entry.name)) chmodSync(join(dir, entry.name), PRIVATE_FILE_MODE);
  }
}
