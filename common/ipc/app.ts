import { z } from 'zod';
import type { AuditEntry, EnvironmentKind, SetAsideFile } from '../views';
import { channel } from './define';
import type { SavedFile } from './interview';
import type { DeepLinkOpened } from './queue';

/** App-level facts and actions that belong to no feature. */

export interface AppInfoView {
  name: string;
  version: string;
  /** Which shell runs the main-process code. */
  shell: 'electron' | 'web';
  platform: string;
  /** Store files that could not be read at this start: which, and where each was moved (kept for recovery). */
  setAside: SetAsideFile[];
}

/** Every audit entry of the active environment, newest first, with the whole trail's chain check. */
export interface AuditTrailView {
  environment: { id: string; name: string; kind: EnvironmentKind };
  entries: AuditEntry[];
  chain: { ok: true } | { ok: false; brokenAt: number; rewritten?: true };
}

/**
 * Whether the review record's team database can be reached. While it cannot, writes wait on this computer
 * (`pendingWrites`) and go through once, oldest first, when it is back; the embedded record is never away.
 */
export type RecordLinkView = (
  | { away: false; pendingWrites: number }
  | { away: true; since: string; pendingWrites: number; /** The driver's words, for small print. */ reason?: string }
) & {
  /** Set once the audit trail no longer verifies; `rewritten`: its history no longer extends what this app saw. */
  trail?: { ok: false; brokenAt: number; rewritten?: true };
};

export const app = {
  info: channel<AppInfoView>()(z.object({}).strict()),
  /**
   * Opens an https link in the OS browser after the allow-list check (Electron); in the web shell the page is
   * already in a browser, so main only answers whether the link is allowed.
   */
  openExternal: channel<{ opened: boolean }>()(z.object({ url: z.string().trim().url().max(2048) }).strict()),
  /** The `omni-reviewer://interview/<id>` link the OS handed the app since the last call, if any (taken once). */
  takeDeepLink: channel<DeepLinkOpened | null>()(z.object({}).strict()),
  /** The audit trail across interviews (entries with no interview, such as a trusted NOM-151 root, included). */
  auditTrail: channel<AuditTrailView>()(z.object({}).strict()),
  /** Saves that trail as JSON (hashes kept, so the chain can be checked elsewhere); `null` when the user cancelled. */
  exportAuditTrail: channel<SavedFile | null>()(z.object({}).strict()),
  /** Asked every few seconds on a team database: the banner that says it is away, and what waits. */
  recordLink: channel<RecordLinkView & { engine: 'embedded' | 'team' }>()(z.object({}).strict()),
};
