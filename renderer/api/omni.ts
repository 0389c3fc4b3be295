import type { OmniApi } from '../../common/ipc/index';

declare global {
  interface Window {
    /** Installed by preload/index.ts (Electron) or preload/web.ts (web shell). The renderer's only way out. */
    readonly omni: OmniApi;
  }
}

export function omni(): OmniApi {
  return window.omni;
}
