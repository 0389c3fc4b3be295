import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, ipcMain, safeStorage, session } from 'electron';
import { EncryptedVault } from '../auth/encrypted-vault';
import { createAppContext, type AppContextHandle } from '../app-context';
import { acceptDeepLink, createDeepLinkInbox, DEEP_LINK_SCHEME, deepLinkFromArgv } from '../deep-link-inbox';
import { handlers } from '../ipc/handlers/index';
import { createRouter, isAppUrl } from '../ipc/router';
import { registerStagePathChannel } from '../capture/electron-staging';
import { captureState } from '../capture/state';
import { log } from '../log';
import { createMediaStore } from '../media/registry';
import { devRendererFrom } from '../security-policy';
import {
  APP_ENTRY,
  APP_ORIGIN,
  applyDevRendererCsp,
  createMainWindow,
  guardPermissions,
  guardWebContents,
  openExternalIfAllowed,
} from '../window';
import { dialogFiles } from './files';
import { registerIpc, senderOf } from './ipc';
import { installMenu } from './menu';
import { registerProtocolHandlers } from './protocols';
import { MEDIA_SCHEME, mediaUrlFor, registerPrivilegedSchemes } from './schemes';
import { electronJsonStore } from './store';
import { privateUmask } from '../private-files';

/**
 * Electron lifecycle: single instance, privileged schemes, hardened session and window, IPC over the shared
 * router. Holds no logic of its own; main/index.ts only calls this.
 */
export interface BootstrapPaths {
  /** Built renderer (out/renderer) and sandboxed preload (out/preload/index.cjs). */
  rendererDir: string;
  preload: string;
}

export function defaultPaths(): BootstrapPaths {
  return {
    rendererDir: fileURLToPath(new URL('../renderer', import.meta.url)),
    preload: fileURLToPath(new URL('../preload/index.cjs', import.meta.url)),
  };
}

export async function bootstrap(paths: BootstrapPaths = defaultPaths()): Promise<AppContextHandle | undefined> {
  if (!app.requestSingleInstanceLock()) {
    // One app per user data folder: the running one takes the deep link (if any) and comes to the front.
    process.stderr.write(
      'Omni Reviewer is already running; its window was brought to the front instead of starting a second one.\n',
    );
    app.quit();
    return undefined;
  }
  const deepLinks = createDeepLinkInbox();
  deepLinks.offer(deepLinkFromArgv(process.argv));
  if (!app.isDefaultProtocolClient(DEEP_LINK_SCHEME)) app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  // macOS delivers links as events; Windows and Linux start a second instance with the link in its argv.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    deepLinks.offer(acceptDeepLink(url));
    mainWindow?.focus();
  });
  let mainWindow: BrowserWindow | undefined;
  app.enableSandbox();
  registerPrivilegedSchemes();
  // `electron-vite dev` serves the renderer with hot reload; a packaged app never does, whatever its environment says.
  const dev = devRendererFrom({
    isPackaged: app.isPackaged,
    rendererUrl: process.env.ELECTRON_RENDERER_URL,
    nonce: process.env.OMNI_DEV_CSP_NONCE,
  });
  const appOrigin = dev?.origin ?? APP_ORIGIN;
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, appOrigin));

  app.on('second-instance', (_event, argv) => {
    deepLinks.offer(deepLinkFromArgv(argv));
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  await app.whenReady();
  guardPermissions(session.defaultSession, appOrigin);
  if (dev) applyDevRendererCsp(session.defaultSession, dev, [`${MEDIA_SCHEME}:`]);
  installMenu({ isPackaged: app.isPackaged, platform: process.platform });

  // Everything main writes under the data folder (settings, vault, the record's files) is for its user alone.
  privateUmask();
  const { store, path: settingsPath, setAside } = electronJsonStore();
  const media = createMediaStore({ urlFor: mediaUrlFor });
  const handle = await createAppContext({
    shell: {
      kind: 'electron',
      version: app.getVersion(),
      platform: process.platform,
      openExternal: async (url) => openExternalIfAllowed(url),
      takeDeepLink: () => deepLinks.take(),
      setAside,
    },
    store,
    dataDir: dirname(settingsPath),
    vault: new EncryptedVault(safeStorage, store),
    media,
    files: dialogFiles(() => mainWindow),
  });
  const router = createRouter({
    handlers,
    context: handle.context,
    appUrl: appOrigin,
    onUnexpectedError: (channel, error) => log.error('IPC handler failed', { channel, error }),
  });
  registerProtocolHandlers({ rendererDir: paths.rendererDir, media });
  registerIpc(router);
  // Picked files (video import) reach main by path from the preload only, never by their bytes over IPC.
  registerStagePathChannel(ipcMain, {
    staged: captureState(handle.context).staged,
    isAppSender: (event) => {
      const sender = senderOf(event);
      return sender.isMainFrame && isAppUrl(sender.url, appOrigin);
    },
  });

  const open = () => {
    mainWindow = createMainWindow({ preload: paths.preload, entryUrl: dev ? `${dev.origin}/index.html` : APP_ENTRY });
    mainWindow.on('closed', () => (mainWindow = undefined));
  };
  open();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) open();
  });
  quitAfterCleanUp(handle);
  return handle;
}

/** Staged uploads and the demo server's recordings are temp files: quit once they are removed, or after 3 s at most. */
function quitAfterCleanUp(handle: AppContextHandle) {
  let cleaning = false;
  let cleanedUp = false;
  app.on('will-quit', (event) => {
    if (cleanedUp) return;
    event.preventDefault();
    if (cleaning) return;
    cleaning = true;
    const work = handle.close().catch((error: unknown) => log.error('Clean-up before quitting failed', { error }));
    void Promise.race([work, new Promise((resolve) => setTimeout(resolve, 3000).unref())]).then(() => {
      cleanedUp = true;
      app.quit();
    });
  });
}
