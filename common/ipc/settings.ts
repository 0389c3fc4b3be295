import { z } from 'zod';
import { channel } from './define';

/** Settings: environments, credentials (write-only), connection test, storage security, preferences. */

export const CredentialField = z.enum(['apiKey', 'integrationId', 'secret']);
export type CredentialField = z.infer<typeof CredentialField>;

/** What the UI may know about a credential: never its value. `unreadable`: stored but cannot be decrypted. */
export type CredentialState = 'set' | 'unset' | 'unreadable';

export interface EnvironmentView {
  id: string;
  kind: 'demo' | 'production' | 'custom';
  name: string;
  /** Whether the user gave it a name of their own (otherwise the UI shows the kind, translated). */
  named: boolean;
  baseUrl: string;
  authUrl: string;
  apiVersion: string;
  tokenHeader: string;
  credentials: Record<CredentialField, CredentialState>;
  /** Set when a changed address cleared the stored credentials: they must be entered again for the new one. */
  credentialsCleared?: true;
}

export interface EnvironmentsView {
  activeId: string;
  environments: EnvironmentView[];
}

export interface StorageSecurityView {
  /**
   * keychain: encrypted with the OS secret store. weak-pending: only weak encryption is possible; secrets stay in
   * memory until the user accepts it. weak-accepted: the user accepted; secrets persist with weak protection.
   * memory-only: no encryption at all; secrets never persist.
   */
  state: 'keychain' | 'weak-pending' | 'weak-accepted' | 'memory-only';
  /** Why the storage is weaker, in both languages, when it is. */
  reason?: { en: string; es: string };
}

export interface ConnectionTestView {
  environmentId: string;
  /** When the server token expires (ISO), and how long that is from now. */
  expiresAt: string;
  remainingSeconds: number;
}

export type Language = 'en' | 'es';
export type Theme = 'system' | 'light' | 'dark';
export interface PreferencesView {
  /** null: follow the OS language. */
  language: Language | null;
  theme: Theme;
  /** After recording a decision: stay on the interview (and offer the next one) or open the next one at once. */
  afterDecision: AfterDecision;
}
export type AfterDecision = 'stay' | 'next';

const envId = z.string().trim().min(1).max(64);
/** Loopback only may go without TLS: elsewhere the API key, secret and tokens would travel readable. */
export function isLoopbackHostname(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
/** An address that would carry credentials unencrypted to another machine (one saved before https was required). */
export function isPlainHttpToRemote(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' && !isLoopbackHostname(u.hostname);
  } catch {
    return false;
  }
}
const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => {
    try {
      const u = new URL(v);
      const secure = u.protocol === 'https:' || (u.protocol === 'http:' && isLoopbackHostname(u.hostname));
      return secure && u.username === '' && u.password === '';
    } catch {
      return false;
    }
  }, 'Must be an https URL (http only for a loopback address) without user name or password');
/** Sent as header values or names: CR, LF or NUL would split or end the header, so they are refused, not trimmed. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const noControlChars = (v: string) => !/[\x00-\x1f\x7f]/.test(v);
const headerName = z
  .string()
  .refine(noControlChars, 'Must not contain line breaks or control characters')
  .transform((v) => v.trim())
  .pipe(z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'Must be a valid HTTP header name'));
const apiVersion = z
  .string()
  .refine(noControlChars, 'Must not contain line breaks or control characters')
  .transform((v) => v.trim())
  .pipe(z.string().min(1).max(20));

export const settings = {
  environments: channel<EnvironmentsView>()(z.object({}).strict()),
  setActiveEnvironment: channel<EnvironmentsView>()(z.object({ id: envId }).strict()),
  updateEnvironment: channel<EnvironmentView>()(
    z
      .object({
        id: envId,
        name: z.string().trim().min(1).max(80).optional(),
        baseUrl: httpUrl.optional(),
        authUrl: httpUrl.optional(),
        apiVersion: apiVersion.optional(),
        tokenHeader: headerName.optional(),
      })
      .strict(),
  ),
  /** Write-only: the value goes to the vault and is never returned. */
  setCredential: channel<EnvironmentView>()(
    z.object({ environmentId: envId, field: CredentialField, value: z.string().trim().min(1).max(4096) }).strict(),
  ),
  clearCredential: channel<EnvironmentView>()(z.object({ environmentId: envId, field: CredentialField }).strict()),
  /** Authorizes against the environment's auth URL with its stored credentials. */
  testConnection: channel<ConnectionTestView>()(z.object({ environmentId: envId }).strict()),
  storageSecurity: channel<StorageSecurityView>()(z.object({}).strict()),
  acceptWeakStorage: channel<StorageSecurityView>()(z.object({}).strict()),
  /** Forgets the demo environment's queue (with its session tokens), drafts and decisions; the audit trail stays. */
  resetDemoData: channel<{ interviews: number }>()(z.object({}).strict()),
  preferences: channel<PreferencesView>()(z.object({}).strict()),
  setPreferences: channel<PreferencesView>()(
    z
      .object({
        language: z.enum(['en', 'es']).nullable().optional(),
        theme: z.enum(['system', 'light', 'dark']).optional(),
        afterDecision: z.enum(['stay', 'next']).optional(),
      })
      .strict(),
  ),
};
