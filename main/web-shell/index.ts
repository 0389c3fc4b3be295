import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Conf from 'conf';
import { EncryptedVault } from '../auth/encrypted-vault';
import { serviceDestination } from '../auth/destination';
import { environmentVault } from '../auth/environment-vault';
import { NodeKeyFileCipher } from '../auth/key-file-cipher';
import { createAppContext, RECORD_FOLDER, type AppContextHandle } from '../app-context';
import { openRecord, reviewRecord } from '../record/index';
import { importLegacyFiles } from '../record/import-legacy';
import type { DemoHandle } from '../demo-server/embedded';
import { handlers } from '../ipc/handlers/index';
import { createRouter } from '../ipc/router';
import { log } from '../log';
import { createMediaStore } from '../media/registry';
import { isAllowedExternalUrl } from '../security-policy';
import { openStores, type OpenedStore } from '../json-store';
import { makePrivateDataDir, PRIVATE_FILE_MODE } from '../private-files';
import { resetDemoData } from '../settings/demo-data';
import { lockDataDir, type DataDirLock } from './data-lock';
import { createWebFiles } from './downloads';
import { startHost, type Host } from './host';
import { signPath } from './tokens';
import { captureState } from '../capture/state';
import { handleStagingUpload } from '../capture/web-staging';

/**
 * Runs the app's main-process code where Electron cannot: the same context, router and handlers behind a
 * loopback host, with the built renderer and preload/web.ts as the page.
 */
export interface WebShellOptions {
  port?: number;
  /** Where settings, the audit trail and (after consent) encrypted credentials are kept. */
  dataDir: string;
  /** Built renderer; default out/web beside the project root. */
  staticDir?: string;
  startDemo?: () => Promise<DemoHandle>;
  now?: () => number;
}

export interface WebShell {
  /** The address to open: origin plus the per-launch key in the fragment. */
  appUrl: string;
  origin: string;
  app: AppContextHandle;
  host: Host;
  close(): Promise<void>;
}

const MEDIA_LINK_TTL_MS = 30 * 60 * 1000;
const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

export function confStore(dataDir: string): OpenedStore {
  return openStores(
    (name) =>
      new Conf<Record<string, unknown>>({
        projectName: 'omni-reviewer',
        cwd: dataDir,
        configName: name,
        configFileMode: PRIVATE_FILE_MODE,
      }),
    (name) => join(dataDir, `${name}.json`),
  );
}

function appVersion(): string {
  try {
    return (
      (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0'
    );
  } catch {
    return '0.0.0';
  }
}

export async function startWebShell(opts: WebShellOptions): Promise<WebShell> {
  const now = opts.now ?? Date.now;
  const key = randomBytes(32).toString('base64url');
  makePrivateDataDir(opts.dataDir);
  const lock = lockDataDir(opts.dataDir);
  try {
    return await startLocked(opts, key, now, lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function startLocked(
  opts: WebShellOptions,
  key: string,
  now: () => number,
  lock: DataDirLock,
): Promise<WebShell> {
  const { store, vault, setAside } = openData(opts.dataDir);
  const media = createMediaStore({ urlFor: (id) => signPath(key, 'media', id, now() + MEDIA_LINK_TTL_MS) });
  const files = createWebFiles(key, now);
  const app = await createAppContext({
    shell: {
      kind: 'web',
      version: appVersion(),
      platform: process.platform,
      openExternal: async (url) => isAllowedExternalUrl(url) && openInBrowser(url),
      // The OS hands deep links to the installed app, never to a browser tab.
      takeDeepLink: () => null,
      setAside,
    },
    store,
    dataDir: opts.dataDir,
    vault,
    media,
    files,
    now,
    ...(opts.startDemo ? { startDemo: opts.startDemo } : {}),
  });
  // The router needs the origin, the host needs the router: bind through a late reference.
  const routerRef: { current?: ReturnType<typeof createRouter> } = {};
  const host = await startHost({
    router: {
      channels: () => routerRef.current?.channels() ?? [],
      handle: (c, i, s) => routerRef.current!.handle(c, i, s),
    },
    staticDir: opts.staticDir ?? join(projectRoot, 'out', 'web'),
    media,
    downloads: files,
    key,
    port: opts.port ?? 0,
    now,
    onError: (error) => log.error('web shell request failed', { error }),
    staging: (req, res) => handleStagingUpload(req, res, captureState(app.context).staged),
  });
  routerRef.current = createRouter({
    handlers,
    context: app.context,
    appUrl: host.origin,
    onUnexpectedError: (channel, error) => log.error('IPC handler failed', { channel, error }),
  });
  return {
    appUrl: `${host.origin}/#k=${key}`,
    origin: host.origin,
    app,
    host,
    async close() {
      await host.close();
      await app.close();
      lock.release();
    },
  };
}

function openData(dataDir: string) {
  const { store, setAside } = confStore(dataDir);
  return { store, setAside, vault: new EncryptedVault(new NodeKeyFileCipher(join(dataDir, 'vault.key')), store) };
}

/**
 * `--reset-demo-data`: forgets the demo environment's queue, drafts and decisions in a data folder no web shell is
 * using (main/settings/demo-data.ts).
 */
export async function resetWebShellDemoData(dataDir: string): Promise<{ interviews: number }> {
  makePrivateDataDir(dataDir);
  const lock = lockDataDir(dataDir);
  try {
    const { store, vault } = openData(dataDir);
    const record = await openRecord({ kind: 'embedded', dataDir: join(dataDir, RECORD_FOLDER) });
    try {
      // A folder last used by an earlier version: its files are brought in first, so the reset sees them.
      await importLegacyFiles(record.db, dataDir, store, log);
      const demo = serviceDestination({ id: 'demo', kind: 'demo', baseUrl: '', authUrl: '' });
      await vault.adoptUnbound(demo);
      return await resetDemoData(
        reviewRecord(record),
        environmentVault(vault, () => demo),
      );
    } finally {
      await record.close();
    }
  } finally {
    lock.release();
  }
}

/** Opens a URL in the system browser; false when there is no display or no opener. */
/**
 * Opens the app in the system browser through a file only this user reads (the data folder's `open.html`, 0600): a
 * command line (xdg-open's, the browser's) is readable by other local users, who could take a one-time code from it
 * first and have the key. Only the file's path is on the command line (as Jupyter's redirect file does).
 */
export function openThroughPrivateFile(
  dataDir: string,
  oneTimeUrl: string,
  open: (url: string) => boolean = openInBrowser,
): boolean {
  const file = openerFile(dataDir);
  rmSync(file, { force: true });
  writeFileSync(
    file,
    `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${oneTimeUrl}"><title>Omni Reviewer</title><a href="${oneTimeUrl}">Omni Reviewer</a>\n`,
    { mode: PRIVATE_FILE_MODE, flag: 'wx' },
  );
  return open(pathToFileURL(file).href);
}

export const openerFile = (dataDir: string) => join(dataDir, 'open.html');

export function openInBrowser(url: string): boolean {
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return false;
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['rundll32', ['url.dll,FileProtocolHandler', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command as string, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
