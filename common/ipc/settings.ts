import { z } from 'zod';
import { channel, says } from './define';

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
  /** How many session tokens a changed address dropped (bound to the old one): attach them again to work there. */
  sessionTokensCleared?: number;
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
  /**
   * Show what developers read (the service's answer as read, the fields the spec does not list, raw values) on every
   * screen. Off unless chosen: settings files written before it existed read as off.
   */
  technicalDetails: boolean;
}
export type AfterDecision = 'stay' | 'next';

const envId = z.string().trim().min(1).max(64);
/**
 * Loopback only may go without TLS: elsewhere the API key, secret and tokens would travel readable. Loopback is a
 * parsed IP literal in 127.0.0.0/8, or ::1, or exactly `localhost`; never a prefix (`127.attacker.example` is a
 * name anyone can point anywhere).
 */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost') return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) return v4.slice(1).every((o) => Number(o) <= 255 && (o === '0' || !o.startsWith('0'))) && v4[1] === '127';
  const v6 = /^\[?([0-9a-f:.]+)\]?$/.exec(host)?.[1];
  if (!v6 || !v6.includes(':')) return false;
  try {
    // The URL parser writes every spelling of an IPv6 literal one way: ::1 is [::1].
    return new URL(`http://[${v6}]/`).hostname === '[::1]';
  } catch {
    return false;
  }
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
/** The issue for a base or authorization URL with a query or a fragment; the settings form matches its words. */
const URL_PARTS_REFUSED = 'Must not contain a query (?) or a fragment (#)';
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
  }, 'Must be an https URL (http only for a loopback address) without user name or password')
  // The service's paths go after it: a query or a fragment would cut them off and let the address alone choose
  // what main requests.
  .refine((v) => !v.includes('?') && !v.includes('#'), URL_PARTS_REFUSED);
/** Sent as header values or names: CR, LF or NUL would split or end the header, so they are refused, not trimmed. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const noControlChars = (v: string) => !/[\x00-\x1f\x7f]/.test(v);
const headerName = z
  .string()
  .refine(noControlChars, 'Must not contain line breaks or control characters')
  .transform((v) => v.trim())
  .pipe(z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'Must be a valid HTTP header name'));
/** RFC 9110 `token` characters: what a header value such as api-version may hold as sent. */
const TCHAR = /^[!#$%&'*+.^_`|~0-9A-Za-z-]$/;
/** The first character that is not a token character, described for a message ("€" U+20AC); undefined if none. */
export function refusedTokenChar(value: string): string | undefined {
  for (const ch of value) {
    if (TCHAR.test(ch)) continue;
    const code = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    return /[\p{L}\p{N}\p{P}\p{S}]/u.test(ch) ? `"${ch}" (${code})` : code;
  }
  return undefined;
}
const apiVersionRefused = (refused: string) =>
  says(
    `The character ${refused} cannot be sent in the api-version header: use letters, digits and . - _ (for example 1.0)`,
    `El carácter ${refused} no se puede enviar en el encabezado api-version: usa letras, números y . - _ (por ejemplo 1.0)`,
  );
const apiVersion = z
  .string()
  // A line break would split the header: refused, not trimmed away.
  .superRefine((v, ctx) => {
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    const control = /[\x00-\x1f\x7f]/.exec(v)?.[0];
    if (control) ctx.addIssue({ code: 'custom', message: apiVersionRefused(refusedTokenChar(control)!) });
  })
  .transform((v) => v.trim())
  .pipe(
    z
      .string()
      .min(1)
      .max(20)
      .superRefine((v, ctx) => {
        const refused = refusedTokenChar(v);
        if (refused) ctx.addIssue({ code: 'custom', message: apiVersionRefused(refused) });
      }),
  );

/** Where the review record is kept: on this computer (embedded) or on the team's PostgreSQL server. */
export const RecordEngineKind = z.enum(['embedded', 'team']);
export type RecordEngineKind = z.infer<typeof RecordEngineKind>;

const hostName = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.:_[\]-]+$/, 'Must be a host name or an IP address');
const sqlName = z
  .string()
  .trim()
  .min(1)
  .max(63)
  .refine(noControlChars, 'Must not contain line breaks or control characters');

/** The team database's address and login; its password goes to the vault (write-only). */
export const TeamDatabaseInput = z
  .object({
    host: hostName,
    port: z.number().int().min(1).max(65535),
    database: sqlName,
    user: sqlName,
    /** `verify-full`: encrypted, the server's certificate checked. `disable` only for a server on this computer. */
    tls: z.enum(['verify-full', 'disable']),
    /** The PEM of the CA that signed the server's certificate, when it is not one the system trusts. */
    ca: z
      .string()
      .max(20_000)
      .refine(
        (v) => v === '' || v.includes('-----BEGIN CERTIFICATE-----'),
        says(
          'Paste the whole certificate, from its -----BEGIN CERTIFICATE----- line',
          'Pega el certificado completo, desde su línea -----BEGIN CERTIFICATE-----',
        ),
      )
      .optional(),
  })
  .strict()
  .refine((v) => v.tls !== 'disable' || isLoopbackHost(v.host), {
    message: says(
      'A server on another machine needs TLS with its certificate checked',
      'Un servidor en otra máquina necesita TLS con su certificado verificado',
    ),
    path: ['tls'],
  });
export type TeamDatabaseInput = z.infer<typeof TeamDatabaseInput>;

/** The team database's host as typed (no URL around it): the same rule as an address's. */
export function isLoopbackHost(host: string): boolean {
  return isLoopbackHostname(host);
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * The team key's 32 bytes, from the base64 `openssl rand -base64 32` prints (or hex, or base64url); undefined for
 * anything else, and for a value too regular to have been generated (fewer than 16 different bytes among 32: a
 * random key has about 30).
 */
export function teamKeyBytes(value: string): Uint8Array | undefined {
  let bytes: number[] = [];
  if (/^[0-9a-fA-F]{64}$/.test(value)) {
    for (let i = 0; i < 64; i += 2) bytes.push(parseInt(value.slice(i, i + 2), 16));
  } else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    let bits = 0;
    let acc = 0;
    for (const ch of value.replace(/=$/, '')) {
      acc = (acc << 6) | B64.indexOf(ch === '-' ? '+' : ch === '_' ? '/' : ch);
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        bytes.push((acc >> bits) & 0xff);
      }
    }
    if ((acc & ((1 << bits) - 1)) !== 0) bytes = [];
  }
  if (bytes.length !== 32 || new Set(bytes).size < 16) return undefined;
  return Uint8Array.from(bytes);
}

export interface TeamDatabaseView {
  /** Where this run keeps the record. */
  inUse: RecordEngineKind;
  /** Where the next start will keep it. */
  chosen: RecordEngineKind;
  config?: Omit<TeamDatabaseInput, 'ca'> & { caSet: boolean };
  passwordSet: boolean;
  /** Set when the saved address, login, TLS mode or CA changed and the password of the old one was dropped. */
  passwordCleared?: true;
  /** Whether this analyst's vault holds the team key that seals shared session tokens (never sent back). */
  teamKeySet: boolean;
  /** Why this run is not on the team database although it was chosen (it could not be reached at start). */
  startProblem?: { en: string; es: string };
}

export interface TeamDatabaseTestView {
  user: string;
  serverVersion: string;
}

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
    z
      .object({
        environmentId: envId,
        field: CredentialField,
        value: z
          .string()
          .trim()
          .min(1)
          .max(
            4096,
            says('A credential is at most 4,096 characters long', 'Una credencial tiene a lo más 4,096 caracteres'),
          ),
      })
      .strict(),
  ),
  clearCredential: channel<EnvironmentView>()(z.object({ environmentId: envId, field: CredentialField }).strict()),
  /** Authorizes against the environment's auth URL with its stored credentials. */
  testConnection: channel<ConnectionTestView>()(z.object({ environmentId: envId }).strict()),
  storageSecurity: channel<StorageSecurityView>()(z.object({}).strict()),
  acceptWeakStorage: channel<StorageSecurityView>()(z.object({}).strict()),
  /** Forgets the demo environment's queue (with its session tokens), drafts and decisions; the audit trail stays. */
  resetDemoData: channel<{ interviews: number }>()(z.object({}).strict()),
  teamDatabase: channel<TeamDatabaseView>()(z.object({}).strict()),
  /** Saves the address; a password given goes to the vault and is never returned. */
  saveTeamDatabase: channel<TeamDatabaseView>()(
    z
      .object({
        config: TeamDatabaseInput,
        password: z.string().min(1).max(1024).optional(),
        /** The team's shared key for session tokens: the same for every member, from the team's admin. */
        teamKey: z
          .string()
          .trim()
          .max(1024)
          .refine(
            (v) => teamKeyBytes(v) !== undefined,
            'The team key is 32 random bytes as `openssl rand -base64 32` prints them (44 characters)',
          )
          .optional(),
        /** Forgets the saved CA certificate (an empty `ca` keeps it). */
        removeCa: z.literal(true).optional(),
      })
      .strict(),
  ),
  /** Connects with the saved address and password, checks the server (PostgreSQL 14 or newer), and disconnects. */
  testTeamDatabase: channel<TeamDatabaseTestView>()(z.object({}).strict()),
  /** Where the next start keeps the record. Nothing is copied between the two. */
  chooseRecordEngine: channel<TeamDatabaseView>()(z.object({ engine: RecordEngineKind }).strict()),
  preferences: channel<PreferencesView>()(z.object({}).strict()),
  setPreferences: channel<PreferencesView>()(
    z
      .object({
        language: z.enum(['en', 'es']).nullable().optional(),
        theme: z.enum(['system', 'light', 'dark']).optional(),
        afterDecision: z.enum(['stay', 'next']).optional(),
        technicalDetails: z.boolean().optional(),
      })
      .strict(),
  ),
};
