import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import type { Router, SenderInfo } from '../ipc/router';

/** Who sent an invoke: the frame's URL and whether it is top level. A vanished frame is nobody. */
export function senderOf(event: IpcMainInvokeEvent): SenderInfo {
  const frame = event.senderFrame;
  if (!frame) return { url: '', isMainFrame: false };
  return { url: frame.url, isMainFrame: frame.parent === null };
}

/** Electron's transport for the router: one `ipcMain.handle` per contract channel, nothing generic. */
export function registerIpc(router: Router): void {
  for (const channel of router.channels()) {
    ipcMain.handle(channel, (event, input: unknown) => router.handle(channel, input, senderOf(event)));
  }
}
