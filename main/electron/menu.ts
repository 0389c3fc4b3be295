import { Menu, type MenuItemConstructorOptions } from 'electron';

/** Standard menus only; no developer tools entry in packaged builds. */
export function installMenu(opts: { isPackaged: boolean; platform: NodeJS.Platform }): void {
  const view: MenuItemConstructorOptions[] = [
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  if (!opts.isPackaged) view.unshift({ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' });
  const template: MenuItemConstructorOptions[] = [
    ...(opts.platform === 'darwin'
      ? [{ role: 'appMenu' } as MenuItemConstructorOptions]
      : [{ role: 'fileMenu' } as MenuItemConstructorOptions]),
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
