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
const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'https:' || u.protocol === 'http:') && u.username === '' && u.password === '';
    } catch {
      return false;
    }
  }, 'Must be an http(s) URL without user name or password');
const headerName = z.string().trim().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'Must be a valid HTTP header name');

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
        apiVersion: z.string().trim().min(1).max(20).optional(),
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
  preferences: channel<PreferencesView>()(z.object({}).strict()),
  setPreferences: channel<PreferencesView>()(
    z
      .object({ language: z.enum(['en', 'es']).nullable().optional(), theme: z.enum(['system', 'light', 'dark']).optional(), afterDecision: z.enum(['stay', 'next']).optional() })
      .strict(),
  ),
};
