import { contextBridge, ipcRenderer, webUtils } from 'electron';
import type { IpcResult } from '../common/ipc/index';
import { STAGE_PATH_CHANNEL, type FileStager, type StagedFileView } from '../common/ipc/capture';
import { buildOmniApi, plainIpcError } from './bridge';

/**
 * Electron preload (sandboxed): exposes exactly `window.omni`, one typed function per channel. No ipcRenderer,
 * no generic invoke, no event objects reach the page.
 */
const api = buildOmniApi((channel, input) => ipcRenderer.invoke(channel, input) as Promise<IpcResult<unknown>>, {
  reject: plainIpcError,
});

contextBridge.exposeInMainWorld('omni', api);

/**
 * `window.omniFiles`: a picked File reaches main by its path (webUtils), never by its bytes. Only this preload can
 * use the stage-path channel, and only with a path Electron resolved from a real File.
 */
const omniFiles: FileStager = {
  async stage(file) {
    const path = webUtils.getPathForFile(file);
    if (!path)
      throw plainIpcError({
        code: 'INVALID_INPUT',
        message: { en: 'The chosen item is not a file on disk.', es: 'El elemento elegido no es un archivo en disco.' },
        retryable: false,
      });
    const result = (await ipcRenderer.invoke(STAGE_PATH_CHANNEL, path)) as IpcResult<StagedFileView>;
    if (result.ok) return result.data;
    throw plainIpcError(result.error);
  },
};
contextBridge.exposeInMainWorld('omniFiles', omniFiles);
