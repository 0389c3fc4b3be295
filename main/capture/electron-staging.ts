import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import type { IpcResult } from '../../common/ipc/define';
import { STAGE_PATH_CHANNEL, type StagedFileView } from '../../common/ipc/capture';
import type { StagedFiles } from './staging';

/**
 * Electron only (imported by the Electron entry, never by Node code or tests without a mocked electron): the
 * preload-only channel that registers the path `webUtils.getPathForFile` gave for a File the user picked. The page
 * cannot reach this channel with a path of its choosing: preload exposes only `omniFiles.stage(file)`.
 */
export function registerStagePathChannel(
  ipcMain: IpcMain,
  opts: { staged: StagedFiles; isAppSender(event: IpcMainInvokeEvent): boolean },
): void {
  ipcMain.handle(STAGE_PATH_CHANNEL, async (event, path: unknown): Promise<IpcResult<StagedFileView>> => {
    if (!opts.isAppSender(event)) {
      return {
        ok: false,
        error: {
          code: 'FORBIDDEN_SENDER',
          message: {
            en: 'This request did not come from the app window.',
            es: 'Esta solicitud no provino de la ventana de la aplicación.',
          },
          retryable: false,
        },
      };
    }
    if (typeof path !== 'string' || path.length === 0 || path.length > 4096) {
      return {
        ok: false,
        error: {
          code: 'INVALID_INPUT',
          message: {
            en: 'The chosen item is not a file on disk.',
            es: 'El elemento elegido no es un archivo en disco.',
          },
          retryable: false,
        },
      };
    }
    try {
      const file = await opts.staged.registerPath(path);
      return { ok: true, data: { stagedFileId: file.id, name: file.name, size: file.size } };
    } catch {
      return {
        ok: false,
        error: {
          code: 'FILE_UNREADABLE',
          message: { en: 'The file could not be opened.', es: 'No se pudo abrir el archivo.' },
          advice: {
            en: 'Check that it still exists and that you can read it, then choose it again.',
            es: 'Verifica que aún exista y que puedas leerlo, y elígelo de nuevo.',
          },
          retryable: false,
        },
      };
    }
  });
}
