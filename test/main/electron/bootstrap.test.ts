import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contract } from '../../../common/ipc/index';
import { STAGE_PATH_CHANNEL } from '../../../common/ipc/capture';

/** A recording stand-in for Electron: every call the app makes is kept for the assertions below. */
const e = vi.hoisted(() => {
  type Listener = (...args: unknown[]) => unknown;
  const emitter = () => {
    const listeners = new Map<string, Listener[]>();
    return {
      listeners,
      on: vi.fn((name: string, fn: Listener) => {
        listeners.set(name, [...(listeners.get(name) ?? []), fn]);
      }),
      once: vi.fn((name: string, fn: Listener) => {
        listeners.set(name, [...(listeners.get(name) ?? []), fn]);
      }),
      emit(name: string, ...args: unknown[]) {
        return (listeners.get(name) ?? []).map((fn) => fn(...args));
      },
    };
  };
  const calls: string[] = [];
  const appEvents = emitter();
  const app = {
    ...appEvents,
    requestSingleInstanceLock: vi.fn(() => true),
    quit: vi.fn(),
    enableSandbox: vi.fn(() => calls.push('enableSandbox')),
    whenReady: vi.fn(async () => {
      calls.push('whenReady');
    }),
    getVersion: () => '0.1.0-test',
    getPath: vi.fn((_name: string) => ''),
    isDefaultProtocolClient: vi.fn(() => false),
    setAsDefaultProtocolClient: vi.fn(),
    isPackaged: false,
  };
  const windows: {
    options: Record<string, unknown>;
    loadURL: ReturnType<typeof vi.fn>;
    webContents: ReturnType<typeof emitter>;
  }[] = [];
  class BrowserWindow {
    static getAllWindows = () => windows;
    options: Record<string, unknown>;
    loadURL = vi.fn(async () => undefined);
    webContents = { ...emitter(), setWindowOpenHandler: vi.fn() };
    on = vi.fn();
    once = vi.fn();
    show = vi.fn();
    isMinimized = () => false;
    restore = vi.fn();
    focus = vi.fn();
    constructor(options: Record<string, unknown>) {
      this.options = options;
      windows.push(this as never);
    }
  }
  const session = {
    defaultSession: {
      ...emitter(),
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
      setDevicePermissionHandler: vi.fn(),
      setDisplayMediaRequestHandler: vi.fn(),
    },
  };
  const protocol = {
    registerSchemesAsPrivileged: vi.fn(() => calls.push('registerSchemesAsPrivileged')),
    handle: vi.fn(),
  };
  const ipcMain = { handle: vi.fn() };
  const shell = { openExternal: vi.fn(async () => undefined) };
  const safeStorage = {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => 'gnome_libsecret',
    encryptString: (s: string) => Buffer.from(`enc:${s}`),
    decryptString: (b: Buffer) => b.toString().slice(4),
  };
  const Menu = { setApplicationMenu: vi.fn(), buildFromTemplate: vi.fn((t: unknown) => t) };
  const dialog = { showSaveDialog: vi.fn() };
  return { app, BrowserWindow, windows, session, protocol, ipcMain, shell, safeStorage, Menu, dialog, calls, emitter };
});

vi.mock('electron', () => ({
  app: e.app,
  BrowserWindow: e.BrowserWindow,
  session: e.session,
  protocol: e.protocol,
  ipcMain: e.ipcMain,
  shell: e.shell,
  safeStorage: e.safeStorage,
  Menu: e.Menu,
  dialog: e.dialog,
}));

// electron-store needs a real Electron app; an in-memory object stands in for its whole file. Its folder is real:
// the audit trail is written beside it.
const userData = vi.hoisted(() => ({ dir: '' }));
vi.mock('electron-store', () => ({
  default: class {
    store: Record<string, unknown> = {};
    readonly path: string;
    constructor({ name }: { name: string }) {
      this.path = `${userData.dir}/${name}.json`;
    }
  },
}));

const { bootstrap } = await import('../../../main/electron/bootstrap');
const { serveAppRequest, APP_CSP } = await import('../../../main/electron/protocols');
const { WEB_PREFERENCES, applyDevRendererCsp } = await import('../../../main/window');
const { devRendererFrom, rendererCsp } = await import('../../../main/security-policy');

type Handler = (event: unknown, input: unknown) => Promise<{ ok: boolean; error?: { code: string }; data?: unknown }>;

let handle: Awaited<ReturnType<typeof bootstrap>>;
let rendererDir: string;

beforeAll(async () => {
  userData.dir = await mkdtemp(join(tmpdir(), 'omni-user-data-'));
  e.app.getPath.mockImplementation(() => userData.dir);
  rendererDir = await mkdtemp(join(tmpdir(), 'omni-renderer-'));
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
  handle = await bootstrap({ rendererDir, preload: '/app/out/preload/index.cjs' });
});

afterAll(async () => {
  await handle?.close();
  await rm(rendererDir, { recursive: true, force: true });
  await rm(userData.dir, { recursive: true, force: true });
});

function guardedContents() {
  const contents = { ...e.emitter(), setWindowOpenHandler: vi.fn() };
  e.app.emit('web-contents-created', {}, contents);
  return contents;
}

describe('Electron main process (mocked electron)', () => {
  it('locks to a single instance, enables the sandbox and registers privileged schemes before ready', () => {
    expect(e.app.requestSingleInstanceLock).toHaveBeenCalled();
    expect(e.calls.indexOf('enableSandbox')).toBeLessThan(e.calls.indexOf('whenReady'));
    expect(e.calls.indexOf('registerSchemesAsPrivileged')).toBeLessThan(e.calls.indexOf('whenReady'));
    const schemes = (e.protocol.registerSchemesAsPrivileged.mock.calls as unknown as unknown[][])[0]![0] as {
      scheme: string;
      privileges: Record<string, boolean>;
    }[];
    expect(schemes.map((s) => s.scheme).sort()).toEqual(['app', 'omni-media']);
    expect(schemes.find((s) => s.scheme === 'omni-media')!.privileges).toMatchObject({ stream: true, secure: true });
    // V8's code cache is off for custom schemes unless asked for, and works only on a standard one.
    expect(schemes.find((s) => s.scheme === 'app')!.privileges).toMatchObject({ standard: true, codeCache: true });
    expect(schemes.every((s) => !s.privileges.bypassCSP)).toBe(true);
  });

  it('creates one hardened window that loads the app from app://, not file://', () => {
    expect(e.windows).toHaveLength(1);
    const win = e.windows[0]!;
    expect(win.options.webPreferences).toEqual({ ...WEB_PREFERENCES, preload: '/app/out/preload/index.cjs' });
    expect(WEB_PREFERENCES).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(win.loadURL).toHaveBeenCalledWith('app://omni/index.html');
  });

  it('registers exactly the contract channels with ipcMain.handle', () => {
    // Plus the one preload-only channel that stages a picked file by path (main/capture/electron-staging.ts).
    const expected = [
      ...Object.entries(contract).flatMap(([d, ms]) => Object.keys(ms).map((m) => `${d}.${m}`)),
      STAGE_PATH_CHANNEL,
    ];
    const registered = e.ipcMain.handle.mock.calls.map((c) => c[0] as string);
    expect(registered.sort()).toEqual(expected.sort());
  });

  it('serves only the app’s own top-level frame', async () => {
    const info = e.ipcMain.handle.mock.calls.find((c) => c[0] === 'app.info')![1] as Handler;
    const top = { url: 'app://omni/index.html#/settings', parent: null };
    expect(await info({ senderFrame: top }, {})).toMatchObject({
      ok: true,
      data: { shell: 'electron', version: '0.1.0-test' },
    });
    for (const senderFrame of [
      { url: 'https://evil.example/', parent: null },
      { url: 'app://omni/index.html', parent: top },
      { url: 'file:///tmp/x.html', parent: null },
      null,
    ]) {
      expect(await info({ senderFrame }, {})).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    }
  });

  it('validates input on the Electron transport too', async () => {
    const setActive = e.ipcMain.handle.mock.calls.find((c) => c[0] === 'settings.setActiveEnvironment')![1] as Handler;
    expect(await setActive({ senderFrame: { url: 'app://omni/index.html', parent: null } }, { id: 42 })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
  });

  it('starts on the demo environment with its credentials already in the vault', async () => {
    const envs = e.ipcMain.handle.mock.calls.find((c) => c[0] === 'settings.environments')![1] as Handler;
    const result = await envs({ senderFrame: { url: 'app://omni/index.html', parent: null } }, {});
    expect(result).toMatchObject({ ok: true, data: { activeId: 'demo' } });
    const demo = (
      result.data as { environments: { id: string; baseUrl: string; credentials: Record<string, string> }[] }
    ).environments.find((x) => x.id === 'demo')!;
    expect(demo.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(demo.credentials).toEqual({ apiKey: 'set', integrationId: 'set', secret: 'set' });
  });

  it('keeps every web contents inside the app: navigation, redirects, new windows, webviews', () => {
    const contents = guardedContents();
    const navigate = (url: string) => {
      const event = { preventDefault: vi.fn() };
      contents.emit('will-navigate', event, url);
      return event.preventDefault.mock.calls.length > 0;
    };
    e.shell.openExternal.mockClear();
    expect(navigate('app://omni/index.html#/signing')).toBe(false);
    expect(navigate('https://evil.example/phish')).toBe(true);
    expect(navigate('file:///etc/passwd')).toBe(true);
    expect(navigate('app://other/index.html')).toBe(true);
    expect(e.shell.openExternal).not.toHaveBeenCalled();
    // An allow-listed https link still never navigates the app; it goes to the OS browser.
    expect(navigate('https://www.gob.mx/curp/')).toBe(true);
    expect(e.shell.openExternal).toHaveBeenCalledWith('https://www.gob.mx/curp/');

    const redirect = { preventDefault: vi.fn() };
    contents.emit('will-redirect', redirect, 'https://evil.example/');
    expect(redirect.preventDefault).toHaveBeenCalled();

    const webview = { preventDefault: vi.fn() };
    contents.emit('will-attach-webview', webview, {}, {});
    expect(webview.preventDefault).toHaveBeenCalled();

    const openHandler = contents.setWindowOpenHandler.mock.calls[0]![0] as (d: { url: string }) => { action: string };
    e.shell.openExternal.mockClear();
    expect(openHandler({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(openHandler({ url: 'http://www.gob.mx/' })).toEqual({ action: 'deny' });
    expect(e.shell.openExternal).not.toHaveBeenCalled();
    expect(openHandler({ url: 'https://www.sat.gob.mx/' })).toEqual({ action: 'deny' });
    expect(e.shell.openExternal).toHaveBeenCalledWith('https://www.sat.gob.mx/');
  });

  it('denies every permission but the app page’s own notifications, and device access, screen capture, downloads', () => {
    const s = e.session.defaultSession;
    const request = s.setPermissionRequestHandler.mock.calls[0]![0] as (
      wc: unknown,
      p: string,
      cb: (ok: boolean) => void,
      d: { requestingUrl: string; isMainFrame: boolean },
    ) => void;
    const ask = (permission: string, requestingUrl: string, isMainFrame = true) => {
      const callback = vi.fn();
      request({}, permission, callback, { requestingUrl, isMainFrame });
      return callback.mock.calls[0]?.[0] as boolean;
    };
    expect(ask('notifications', 'app://omni/index.html#/validation')).toBe(true);
    for (const permission of [
      'media',
      'geolocation',
      'midi',
      'clipboard-read',
      'fullscreen',
      'openExternal',
      'display-capture',
      'pointerLock',
    ]) {
      expect(ask(permission, 'app://omni/index.html')).toBe(false);
    }
    expect(ask('notifications', 'https://evil.example/')).toBe(false);
    expect(ask('notifications', 'app://other/index.html')).toBe(false);
    expect(ask('notifications', 'http://localhost:5173/')).toBe(false);
    expect(ask('notifications', 'app://omni/index.html', false)).toBe(false);
    const check = s.setPermissionCheckHandler.mock.calls[0]![0] as (...a: unknown[]) => boolean;
    expect(check({}, 'notifications', 'app://omni', {})).toBe(true);
    expect(check({}, 'media', 'app://omni', {})).toBe(false);
    expect(check({}, 'notifications', 'https://evil.example', {})).toBe(false);
    expect(check({}, 'notifications', '', {})).toBe(false);
    expect((s.setDevicePermissionHandler.mock.calls[0]![0] as () => boolean)()).toBe(false);
    const display = vi.fn();
    (s.setDisplayMediaRequestHandler.mock.calls[0]![0] as (r: unknown, cb: unknown) => void)({}, display);
    expect(display).toHaveBeenCalledWith({});
    const download = { preventDefault: vi.fn() };
    s.emit('will-download', download);
    expect(download.preventDefault).toHaveBeenCalled();
  });

  it('serves the renderer over app:// with a strict CSP and nothing outside the renderer folder', async () => {
    expect(e.protocol.handle.mock.calls.map((c) => c[0]).sort()).toEqual(['app', 'omni-media']);
    const res = await serveAppRequest(new Request('app://omni/index.html'), rendererDir);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toBe(APP_CSP);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/https?:|unsafe-inline|unsafe-eval|\*/);
    expect((await serveAppRequest(new Request('app://omni/%2e%2e%2f%2e%2e%2fetc%2fpasswd'), rendererDir)).status).toBe(
      404,
    );
    expect((await serveAppRequest(new Request('app://other/index.html'), rendererDir)).status).toBe(404);
  });

  it('installs a menu without developer tools when packaged', async () => {
    const { installMenu } = await import('../../../main/electron/menu');
    installMenu({ isPackaged: true, platform: 'linux' });
    const template = e.Menu.buildFromTemplate.mock.calls.at(-1)![0] as {
      label?: string;
      submenu?: { role?: string }[];
    }[];
    const view = template.find((m) => m.label === 'View')!;
    expect(view.submenu!.some((i) => i.role === 'toggleDevTools')).toBe(false);
  });

  it('registers omni-reviewer:// and hands a link from a second instance to the renderer once', async () => {
    expect(e.app.setAsDefaultProtocolClient).toHaveBeenCalledWith('omni-reviewer');
    e.app.emit('second-instance', {}, ['/opt/omni', 'omni-reviewer://interview/demo-fraud-high'], '/');
    const take = e.ipcMain.handle.mock.calls.find((c) => c[0] === 'app.takeDeepLink')![1] as Handler;
    const sender = { senderFrame: { url: 'app://omni/index.html', parent: null } };
    expect(await take(sender, {})).toEqual({ ok: true, data: { interviewId: 'demo-fraud-high' } });
    expect(await take(sender, {})).toEqual({ ok: true, data: null });
  });

  it('reads an OS link like a pasted one: an id with a dot, and its session token kept in main', async () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    e.app.emit('second-instance', {}, ['/opt/omni', `omni-reviewer://interview/abc.123?token=${token}`], '/');
    const handler = (channel: string) => e.ipcMain.handle.mock.calls.find((c) => c[0] === channel)![1] as Handler;
    const sender = { senderFrame: { url: 'app://omni/index.html', parent: null } };
    const taken = await handler('app.takeDeepLink')(sender, {});
    expect(taken).toEqual({ ok: true, data: { interviewId: 'abc.123' } });
    expect(JSON.stringify(taken)).not.toContain(token);
    const list = (await handler('queue.list')(sender, {})) as {
      ok: true;
      data: { interviewId: string; hasSessionToken: boolean }[];
    };
    expect(list.data.find((q) => q.interviewId === 'abc.123')).toMatchObject({ hasSessionToken: true });
  });

  it('quits only after the demo server and staged files are cleaned up', async () => {
    e.app.quit.mockClear();
    expect(handle!.demoUrl()).toBeDefined();
    const willQuit = { preventDefault: vi.fn() };
    e.app.emit('will-quit', willQuit);
    expect(willQuit.preventDefault).toHaveBeenCalled();
    expect(e.app.quit).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(e.app.quit).toHaveBeenCalledTimes(1));
    expect(handle!.demoUrl()).toBeUndefined();
    // The quit that follows goes through.
    const again = { preventDefault: vi.fn() };
    e.app.emit('will-quit', again);
    expect(again.preventDefault).not.toHaveBeenCalled();
  });

  it('a second instance quits at once, opens no window, and says why', async () => {
    e.app.requestSingleInstanceLock.mockReturnValueOnce(false);
    e.app.quit.mockClear();
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const before = e.windows.length;
    try {
      expect(await bootstrap({ rendererDir, preload: '/x' })).toBeUndefined();
      expect(stderr).toHaveBeenCalledWith(expect.stringContaining('Omni Reviewer is already running'));
    } finally {
      stderr.mockRestore();
    }
    expect(e.app.quit).toHaveBeenCalled();
    expect(e.windows.length).toBe(before);
  });
});

describe('electron-builder.yml', () => {
  const yml = readFileSync(new URL('../../../electron-builder.yml', import.meta.url), 'utf8');

  it('flips all seven fuses: no run-as-node, NODE_OPTIONS or --inspect; ASAR integrity and ASAR-only loading on; cookies encrypted; no file:// privileges', () => {
    const block = yml.match(/^electronFuses:\n((?:\s+\w+: \S+\n)+)/m)?.[1];
    const fuses = Object.fromEntries([...(block ?? '').matchAll(/^\s+(\w+): (\S+)$/gm)].map((m) => [m[1], m[2]]));
    expect(fuses).toEqual({
      runAsNode: 'false',
      enableNodeOptionsEnvironmentVariable: 'false',
      enableNodeCliInspectArguments: 'false',
      enableEmbeddedAsarIntegrityValidation: 'true',
      onlyLoadAppFromAsar: 'true',
      enableCookieEncryption: 'true',
      grantFileProtocolExtraPrivileges: 'false',
    });
    expect(yml).toMatch(/^asar: true$/m);
  });

  it('targets Linux AppImage and deb, macOS dmg, Windows nsis', () => {
    const targets = (os: string) =>
      yml
        .match(new RegExp(`^${os}:\\n\\s+target:\\n((?:\\s+- \\S+\\n)+)`, 'm'))?.[1]
        ?.match(/- (\S+)/g)
        ?.map((t) => t.slice(2));
    expect(targets('linux')).toEqual(['AppImage', 'deb']);
    expect(targets('mac')).toEqual(['dmg']);
    expect(targets('win')).toEqual(['nsis']);
  });
});

describe('electron-vite dev vs the strict CSP', () => {
  const nonce = 'AEdM2q_LDJVzYY9QVSguzzPV';

  it('a packaged app, or one not started by electron-vite dev, always gets app://omni with the strict CSP', () => {
    expect(devRendererFrom({ isPackaged: true, rendererUrl: 'http://localhost:5173', nonce })).toBeNull();
    expect(devRendererFrom({ isPackaged: false, rendererUrl: undefined, nonce })).toBeNull();
    expect(devRendererFrom({ isPackaged: false, rendererUrl: 'http://localhost:5173', nonce: undefined })).toBeNull();
    expect(
      devRendererFrom({ isPackaged: false, rendererUrl: 'http://localhost:5173', nonce: "x' 'unsafe-inline" }),
    ).toBeNull();
    expect(devRendererFrom({ isPackaged: false, rendererUrl: 'https://evil.example', nonce })).toBeNull();
    expect(devRendererFrom({ isPackaged: false, rendererUrl: 'http://192.168.1.5:5173', nonce })).toBeNull();
    expect(devRendererFrom({ isPackaged: false, rendererUrl: 'not a url', nonce })).toBeNull();
    // The test process runs unpackaged with no dev server: the window above loaded app://omni.
    expect(e.windows[0]!.loadURL).toHaveBeenCalledWith('app://omni/index.html');
    for (const csp of [APP_CSP, rendererCsp({ mediaSources: [] })]) {
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("style-src 'self';");
      expect(csp).toContain("connect-src 'self';");
      expect(csp).not.toMatch(/nonce-|sha256-|unsafe-|https?:|wss?:|localhost|\*/);
    }
  });

  it('the dev server gets the nonce for its preamble and its hot-reload socket, and nothing wider', () => {
    const dev = devRendererFrom({ isPackaged: false, rendererUrl: 'http://localhost:5173', nonce })!;
    expect(dev).toEqual({ origin: 'http://localhost:5173', nonce });
    const csp = rendererCsp({ mediaSources: ['omni-media:'], dev });
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}';`);
    expect(csp).toContain(`style-src 'self' 'nonce-${nonce}';`);
    expect(csp).toContain("connect-src 'self' ws://localhost:5173;");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/unsafe-|https:|\*/);

    const onHeadersReceived = vi.fn();
    applyDevRendererCsp({ webRequest: { onHeadersReceived } } as never, dev, ['omni-media:']);
    const [filter, listener] = onHeadersReceived.mock.calls[0] as [
      { urls: string[] },
      (d: unknown, cb: (r: { responseHeaders: Record<string, string[]> }) => void) => void,
    ];
    expect(filter.urls).toEqual(['http://localhost:5173/*']);
    const callback = vi.fn();
    listener(
      { responseHeaders: { 'content-type': ['text/html'], 'Content-Security-Policy': ['script-src *'] } },
      callback,
    );
    expect(callback.mock.calls[0]![0].responseHeaders).toEqual({
      'content-type': ['text/html'],
      'Content-Security-Policy': [csp],
    });
  });
});
