import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, ipcMain, safeStorage, session } from 'electron';
import { EncryptedVault } from '../auth/vault';
import { createAppContext, type AppContextHandle } from '../app-context';
import { createDeepLinkInbox, DEEP_LINK_SCHEME, deepLinkFromArgv, parseDeepLink } from '../deep-link';
import { handlers } from '../ipc/handlers/index';
import { createRouter, isAppUrl } from '../ipc/router';
import { registerStagePathChannel } from '../capture/electron-staging';
import { captureServices } from '../capture/services';
import { log } from '../log';
import { createMediaStore } from '../media/registry';
import { APP_ORIGIN, createMainWindow, denyAllPermissions, guardWebContents, openExternalIfAllowed } from '../window';
import { dialogFiles } from './files';
import { registerIpc, senderOf } from './ipc';
import { installMenu } from './menu';
import { registerProtocolHandlers } from './protocols';
import { mediaUrlFor, registerPrivilegedSchemes } from './schemes';
import { electronJsonStore } from './store';

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
    app.quit();
    return undefined;
  }
  const deepLinks = createDeepLinkInbox();
  deepLinks.offer(deepLinkFromArgv(process.argv));
  if (!app.isDefaultProtocolClient(DEEP_LINK_SCHEME)) app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  // macOS delivers links as events; Windows and Linux start a second instance with the link in its argv.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    deepLinks.offer(parseDeepLink(url));
    mainWindow?.focus();
  });
  let mainWindow: BrowserWindow | undefined;
  app.enableSandbox();
  registerPrivilegedSchemes();
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents));

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
  denyAllPermissions(session.defaultSession);
  installMenu({ isPackaged: app.isPackaged, platform: process.platform });

  const store = electronJsonStore();
  const media = createMediaStore({ urlFor: mediaUrlFor });
  const handle = await createAppContext({
    shell: {
      kind: 'electron',
      version: app.getVersion(),
      platform: process.platform,
      openExternal: async (url) => openExternalIfAllowed(url),
      takeDeepLink: () => deepLinks.take(),
    },
    store,
    vault: new EncryptedVault(safeStorage, store),
    media,
    files: dialogFiles(() => mainWindow),
  });
  const router = createRouter({
    handlers,
    context: handle.context,
    appUrl: APP_ORIGIN,
    onUnexpectedError: (channel, error) => log.error('IPC handler failed', { channel, error }),
  });
  registerProtocolHandlers({ rendererDir: paths.rendererDir, media });
  registerIpc(router);
  // Picked files (video import) reach main by path from the preload only, never by their bytes over IPC.
  registerStagePathChannel(ipcMain, {
    staged: captureServices(handle.context).staged,
    isAppSender: (event) => {
      const sender = senderOf(event);
      return sender.isMainFrame && isAppUrl(sender.url, APP_ORIGIN);
    },
  });

  const open = () => {
    mainWindow = createMainWindow({ preload: paths.preload });
    mainWindow.on('closed', () => (mainWindow = undefined));
  };
  open();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) open();
  });
  app.on('will-quit', () => void handle.close());
  return handle;
}
