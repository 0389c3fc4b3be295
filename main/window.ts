import { BrowserWindow, shell, type Session, type WebContents } from 'electron';
import { isAppUrl } from './ipc/router';
import { isAllowedExternalUrl, rendererCsp, type DevRenderer } from './security-policy';

/**
 * The one window and the guards every web contents gets (Electron security checklist): isolated, sandboxed,
 * no Node, web security on, no webview, navigation only inside the app, new windows denied (allow-listed https
 * links go to the OS browser), every permission denied but the app's own notifications.
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

/** `entryUrl`: APP_ENTRY, or the dev server under `electron-vite dev` (see devRendererFrom). */
export function createMainWindow(opts: { preload: string; entryUrl?: string }): BrowserWindow {
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
  void win.loadURL(opts.entryUrl ?? APP_ENTRY);
  return win;
}

/** Opens a link in the OS browser only after the allow-list check. */
export function openExternalIfAllowed(url: string): boolean {
  if (!isAllowedExternalUrl(url)) return false;
  void shell.openExternal(url);
  return true;
}

export function guardWebContents(contents: WebContents, appOrigin: string = APP_ORIGIN): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, appOrigin)) {
      event.preventDefault();
      openExternalIfAllowed(url);
    }
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url, appOrigin)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternalIfAllowed(url);
    return { action: 'deny' };
  });
}

/**
 * Camera, microphone, geolocation, USB/serial/HID, clipboard… all denied, checks and requests alike. The one
 * exception is `notifications` asked by the app's own page: long work that finishes in the background says so.
 */
export function guardPermissions(session: Session, appOrigin: string = APP_ORIGIN): void {
  const allowed = (permission: string, url: string | undefined) =>
    permission === 'notifications' && url !== undefined && isAppUrl(url, appOrigin);
  session.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(details.isMainFrame !== false && allowed(permission, details.requestingUrl)),
  );
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => allowed(permission, requestingOrigin));
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback({}));
  session.on('will-download', (event) => event.preventDefault());
}

/**
 * `electron-vite dev` only: the dev server sends no CSP of its own (its index.html drops the meta tag in serve
 * mode), so every answer from it gets the dev CSP here.
 */
export function applyDevRendererCsp(session: Session, dev: DevRenderer, mediaSources: string[]): void {
  const csp = rendererCsp({ mediaSources, dev });
  session.webRequest.onHeadersReceived({ urls: [`${dev.origin}/*`] }, (details, callback) => {
    const headers = Object.fromEntries(
      Object.entries(details.responseHeaders ?? {}).filter(
        ([name]) => name.toLowerCase() !== 'content-security-policy',
      ),
    );
    callback({ responseHeaders: { ...headers, 'Content-Security-Policy': [csp] } });
  });
}
