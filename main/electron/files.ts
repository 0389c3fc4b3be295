import { writeFile } from 'node:fs/promises';
import { dialog, type BrowserWindow } from 'electron';
import type { FileService } from '../ports';

/** Saving asks the user where, with the OS dialog; cancelling returns null. */
export function dialogFiles(window: () => BrowserWindow | undefined): FileService {
  return {
    async save({ suggestedName, data }) {
      const win = window();
      const options = { defaultPath: suggestedName.replace(/[/\\]/g, '_') };
      const result = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
      if (result.canceled || !result.filePath) return null;
      await writeFile(result.filePath, data);
      return { savedTo: result.filePath };
    },
  };
}
