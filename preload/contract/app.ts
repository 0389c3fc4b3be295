import { z } from 'zod';
import { channel } from './define';

/** App-level facts and actions that belong to no feature. */

export interface AppInfoView {
  name: string;
  version: string;
  /** Which shell runs the main-process code. */
  shell: 'electron' | 'web';
  platform: string;
}

export const app = {
  info: channel<AppInfoView>()(z.object({}).strict()),
  /**
   * Opens an https link in the OS browser after the allow-list check (Electron); in the web shell the page is
   * already in a browser, so main only answers whether the link is allowed.
   */
  openExternal: channel<{ opened: boolean }>()(z.object({ url: z.string().trim().url().max(2048) }).strict()),
  /** The `omni-reviewer://interview/<id>` link the OS handed the app since the last call, if any (taken once). */
  takeDeepLink: channel<{ interviewId: string } | null>()(z.object({}).strict()),
};
