import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
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

/**
 * A folder the app owns through and through (the embedded record: PGlite writes its files 0666, less the umask):
 * every folder in it 0700, every file 0600. Links are not followed.
 */
export function makePrivateTree(dir: string): void {
  if (process.platform === 'win32') return;
  let info;
  try {
    info = lstatSync(dir);
  } catch {
    return;
  }
  if (info.isSymbolicLink()) return;
  if (info.isFile()) return chmodSync(dir, PRIVATE_FILE_MODE);
  if (!info.isDirectory()) return;
  chmodSync(dir, PRIVATE_DIR_MODE);
  for (const entry of readdirSync(dir)) makePrivateTree(join(dir, entry));
}

/** New files of this process are private from the start: what a later chmod would catch is never readable. */
export function privateUmask(): void {
  if (process.platform !== 'win32') process.umask(0o077);
}
