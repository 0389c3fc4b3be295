import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Vault } from '../auth/vault';
import type { Logger } from '../log';
import type { RecordDatabase } from './schema';

/**
 * Session tokens shared with the team, sealed: an interview imported by one analyst can be worked by another, and the
 * team database never holds a token in clear. Each member keeps the same team key in their own vault (Settings >
 * Team database); tokens are sealed with AES-256-GCM under a key derived from it, bound to their environment and
 * interview (so a sealed token copied onto another row does not open). Without the team key a token stays on the
 * computer it was entered on, as before. docs/architecture.md says why this and not a server-side key.
 */

/** Shortest team key accepted: `openssl rand -base64 32` gives 44 characters. */
export const TEAM_KEY_MIN_LENGTH = 32;
const INFO = 'omni-reviewer session token v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** How long the list of shared ids answers `hasSessionToken` before it is read again. */
const IDS_FRESH_MS = 5_000;

function sealingKey(teamKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(teamKey, 'utf8'), Buffer.alloc(0), INFO, 32));
}

const boundTo = (environment: string, interviewId: string) => Buffer.from(`${environment}\u0000${interviewId}`, 'utf8');

export function sealToken(teamKey: string, environment: string, interviewId: string, token: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(teamKey), iv);
  cipher.setAAD(boundTo(environment, interviewId));
  const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

/** The token, or undefined when it was sealed with another team key or for another interview. */
export function unsealToken(
  teamKey: string,
  environment: string,
  interviewId: string,
  sealed: string,
): string | undefined {
  try {
    const bytes = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(teamKey), bytes.subarray(0, IV_BYTES));
    decipher.setAAD(boundTo(environment, interviewId));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** The sealed tokens' table. */
export class SharedTokenRecords {
  constructor(private readonly db: Kysely<RecordDatabase>) {}

  async put(environment: string, rows: { interviewId: string; sealed: string }[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('shared_session_tokens')
      .values(rows.map((r) => ({ environment, interview_id: r.interviewId, sealed: r.sealed })))
      .onConflict((oc) =>
        oc.columns(['environment', 'interview_id']).doUpdateSet((eb) => ({
          sealed: eb.ref('excluded.sealed'),
          // Only the one who sealed it replaces it (row-level security, migration 0006): sealed_by stays.
          sealed_at: sql<Date>`now()`,
        })),
      )
      .execute();
  }

  async get(environment: string, interviewId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('shared_session_tokens')
      .select('sealed')
      .where('environment', '=', environment)
      .where('interview_id', '=', interviewId)
      .executeTakeFirst();
    return row?.sealed;
  }

  async ids(environment: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('shared_session_tokens')
      .select('interview_id')
      .where('environment', '=', environment)
      .execute();
    return new Set(rows.map((r) => r.interview_id));
  }

  async remove(environment: string, interviewId: string): Promise<void> {
    await this.db
      .deleteFrom('shared_session_tokens')
      .where('environment', '=', environment)
      .where('interview_id', '=', interviewId)
      .execute();
  }
}

/**
 * The vault as the app uses it on a team database: a token entered here is also shared, sealed; a token this computer
 * lacks is looked up among the shared ones and kept in this vault once opened. Shared only while a team key is set.
 * Sharing is best effort: a token always lands in this vault first, and a failure to share is logged, not thrown.
 */
export interface TokenSharing {
  records: SharedTokenRecords;
  /** The team key from this analyst's vault; undefined while none is set (nothing is shared then). */
  teamKey: () => Promise<string | undefined>;
}

export function sharingVault(vault: Vault, shared: () => TokenSharing | undefined, log: Logger): Vault {
  const known = new Map<string, { ids: Set<string>; at: number }>();
  const sharing = async () => {
    const s = shared();
    const teamKey = s && (await s.teamKey());
    return s && teamKey ? { records: s.records, teamKey } : undefined;
  };
  const share = async (envId: string, tokens: readonly { interviewId: string; token: string }[]) => {
    const s = await sharing();
    if (!s) return;
    try {
      await s.records.put(
        envId,
        tokens.map((t) => ({
          interviewId: t.interviewId,
          sealed: sealToken(s.teamKey, envId, t.interviewId, t.token),
        })),
      );
      known.delete(envId);
    } catch (error) {
      log.warn('A session token could not be shared with the team; it stays on this computer', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };
  const fromTeam = async (envId: string, interviewId: string): Promise<string | undefined> => {
    const s = await sharing();
    if (!s) return undefined;
    const sealed = await s.records.get(envId, interviewId).catch(() => undefined);
    const token = sealed && unsealToken(s.teamKey, envId, interviewId, sealed);
    if (token) await vault.setSessionToken(envId, interviewId, token);
    return token;
  };
  const sharedIds = async (envId: string): Promise<Set<string>> => {
    const s = await sharing();
    if (!s) return new Set();
    const cached = known.get(envId);
    if (cached && Date.now() - cached.at < IDS_FRESH_MS) return cached.ids;
    const ids = await s.records.ids(envId).catch(() => new Set<string>());
    known.set(envId, { ids, at: Date.now() });
    return ids;
  };

  return {
    getCredential: (...a) => vault.getCredential(...a),
    setCredential: (...a) => vault.setCredential(...a),
    clearCredential: (...a) => vault.clearCredential(...a),
    credentialStatus: (...a) => vault.credentialStatus(...a),
    security: () => vault.security(),
    acceptWeakStorage: () => vault.acceptWeakStorage(),
    knownSecrets: () => vault.knownSecrets(),
    async getSessionToken(envId, interviewId) {
      return (await vault.getSessionToken(envId, interviewId)) ?? fromTeam(envId, interviewId);
    },
    async setSessionToken(envId, interviewId, token) {
      await vault.setSessionToken(envId, interviewId, token);
      await share(envId, [{ interviewId, token }]);
    },
    async setSessionTokens(envId, tokens) {
      await vault.setSessionTokens(envId, tokens);
      await share(envId, tokens);
    },
    async clearSessionToken(envId, interviewId) {
      await vault.clearSessionToken(envId, interviewId);
      const s = await sharing();
      if (s) await s.records.remove(envId, interviewId).catch(() => undefined);
      known.delete(envId);
    },
    async hasSessionToken(envId, interviewId) {
      return (await vault.hasSessionToken(envId, interviewId)) || (await sharedIds(envId)).has(interviewId);
    },
  };
}
