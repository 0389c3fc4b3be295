import { BrowserWindow, shell, type Session, type WebContents } from 'electron';
import { isAppUrl } from './ipc/router';
import { isAllowedExternalUrl } from './security-policy';

/**
 * The one window and the guards every web contents gets (Electron security checklist): isolated, sandboxed,
 * no Node, web security on, no webview, navigation only inside the app, new windows denied (allow-listed https
 * links go to the OS browser), every permission denied.
 */
export const APP_ORIGIN = 'app://omni';
export const APP_ENTRY = `${APP_ORIGIN}/index.html`;

export const WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  experimentalFeatures: false,
  navigateOnDragDrop: false,
  safeDialogs: true,
  spellcheck: false,
} as const;

export function createMainWindow(opts: { preload: string }): BrowserWindow {
  const win = new BrowserWindow({
    width: 1360,
    height: 880,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Omni Reviewer',
    backgroundColor: '#f6f7f9',
    webPreferences: { ...WEB_PREFERENCES, preload: opts.preload },
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(APP_ENTRY);
  return win;
}

/** Opens a link in the OS browser only after the allow-list check. */
export function openExternalIfAllowed(url: string): boolean {
  if (!isAllowedExternalUrl(url)) return false;
  void shell.openExternal(url);
  return true;
}

export function guardWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, APP_ORIGIN)) {
      event.preventDefault();
      openExternalIfAllowed(url);
    }
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url, APP_ORIGIN)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternalIfAllowed(url);
    return { action: 'deny' };
  });
}

/** Camera, microphone, geolocation, notifications prompts, USB/serial/HID… all denied, checks and requests alike. */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback({}));
  session.on('will-download', (event) => event.preventDefault());
}
