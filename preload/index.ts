import { contextBridge, ipcRenderer } from 'electron';
import type { IpcResult } from './contract/index';
import { buildOmniApi, plainIpcError } from './bridge';

/**
 * Electron preload (sandboxed): exposes exactly `window.omni`, one typed function per channel. No ipcRenderer,
 * no generic invoke, no event objects reach the page.
 */
const api = buildOmniApi((channel, input) => ipcRenderer.invoke(channel, input) as Promise<IpcResult<unknown>>, {
  reject: plainIpcError,
});

contextBridge.exposeInMainWorld('omni', api);
