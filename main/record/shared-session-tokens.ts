import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { teamKeyBytes } from '../../common/ipc/settings';
import { type Destination, scopeOf } from '../auth/destination';
import { otherInterviewOfToken } from '../../common/session-token';
import type { SecretStore } from '../auth/vault';
import type { Logger } from '../log';
import type { RecordDatabase } from './schema';

/**
 * Session tokens shared with the team, sealed: an interview imported by one analyst can be worked by another, and the
 * team database never holds a token in clear. Each member keeps the same team key in their own vault (Settings >
 * Team database); tokens are sealed with AES-256-GCM under a key derived from it with a fresh salt, bound to the
 * destination they were entered for (the environment's service origins) and their interview, so a sealed token
 * copied onto another row, or opened for an environment pointed elsewhere, does not open. Without the team key a
 * token stays on the computer it was entered on. docs/architecture.md says why this and not a server-side key.
 */

/** v2: salted, bound to the destination. v1 (no salt, bound to the environment id alone) is no longer opened. */
const VERSION = 'v2:';
const INFO = 'omni-reviewer session token v2';
const SALT_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** How long the list of shared ids answers `hasSessionToken` before it is read again. */
const IDS_FRESH_MS = 5_000;
/** Sealed tokens of one interview tried at most: one per member who shared it, newest first past these. */
const CANDIDATES_TRIED = 20;

function sealingKey(teamKey: string, salt: Buffer): Buffer | undefined {
  const bytes = teamKeyBytes(teamKey);
  return bytes && Buffer.from(hkdfSync('sha256', bytes, salt, INFO, 32));
}

const boundTo = (to: Destination | string, interviewId: string) => Buffer.from(`${to}\u0000${interviewId}`, 'utf8');

/** Sealed for one destination and interview; throws when the team key is not a generated 32-byte key. */
export function sealToken(teamKey: string, to: Destination | string, interviewId: string, token: string): string {
  const salt = randomBytes(SALT_BYTES);
  const key = sealingKey(teamKey, salt);
  if (!key) throw new Error('the team key is not a 32-byte key');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(boundTo(to, interviewId));
  const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return VERSION + Buffer.concat([salt, iv, cipher.getAuthTag(), sealed]).toString('base64');
}

/** The token, or undefined when it was sealed with another team key, for another destination or interview. */
export function unsealToken(
  teamKey: string,
  to: Destination | string,
  interviewId: string,
  sealed: string,
): string | undefined {
  try {
    if (!sealed.startsWith(VERSION)) return undefined;
    const bytes = Buffer.from(sealed.slice(VERSION.length), 'base64');
    const key = sealingKey(teamKey, bytes.subarray(0, SALT_BYTES));
    if (!key) return undefined;
    const ivAt = SALT_BYTES;
    const tagAt = ivAt + IV_BYTES;
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(ivAt, tagAt));
    decipher.setAAD(boundTo(to, interviewId));
    decipher.setAuthTag(bytes.subarray(tagAt, tagAt + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(tagAt + TAG_BYTES)), decipher.final()]).toString('utf8');
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
        // One row per sealer (migration 0017): sealed_by is the database's current_user, so this replaces only ours.
        oc.columns(['environment', 'interview_id', 'sealed_by']).doUpdateSet((eb) => ({
          sealed: eb.ref('excluded.sealed'),
          sealed_at: sql<Date>`now()`,
        })),
      )
      .execute();
  }

  /**
   * The interview's sealed tokens to try, best first: this login's own, then that of whoever put the interview in the
   * queue, then the newest. Another member's junk (or a stale token) is tried last, never in place of these.
   */
  async candidates(environment: string, interviewId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('shared_session_tokens as t')
      .select('t.sealed')
      .where('t.environment', '=', environment)
      .where('t.interview_id', '=', interviewId)
      .orderBy(sql`t.sealed_by = current_user`, 'desc')
      .orderBy(
        sql`exists (select from queue_entries q where q.environment = t.environment
          and q.interview_id = t.interview_id and q.added_by = t.sealed_by)`,
        'desc',
      )
      .orderBy('t.sealed_at', 'desc')
      .limit(CANDIDATES_TRIED)
      .execute();
    return rows.map((r) => r.sealed);
  }

  async ids(environment: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('shared_session_tokens')
      .select('interview_id')
      .where('environment', '=', environment)
      .execute();
    return new Set(rows.map((r) => r.interview_id));
  }

  /** This login's own sealed token for the interview (a supervisor's power to remove others' is not used here). */
  async remove(environment: string, interviewId: string): Promise<void> {
    await this.db
      .deleteFrom('shared_session_tokens')
      .where('environment', '=', environment)
      .where('interview_id', '=', interviewId)
      .where('sealed_by', '=', sql<string>`current_user`)
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

export function sharingVault(vault: SecretStore, shared: () => TokenSharing | undefined, log: Logger): SecretStore {
  const known = new Map<string, { ids: Set<string>; at: number }>();
  const sharing = async () => {
    const s = shared();
    const teamKey = s && (await s.teamKey());
    // A key saved before keys had to be generated 32-byte values shares nothing (Settings asks for a new one).
    return s && teamKey && teamKeyBytes(teamKey) ? { records: s.records, teamKey } : undefined;
  };
  const share = async (to: Destination, tokens: readonly { interviewId: string; token: string }[]) => {
    const s = await sharing();
    if (!s) return;
    const envId = scopeOf(to);
    try {
      await s.records.put(
        envId,
        tokens.map((t) => ({
          interviewId: t.interviewId,
          sealed: sealToken(s.teamKey, to, t.interviewId, t.token),
        })),
      );
      known.delete(envId);
    } catch (error) {
      log.warn('A session token could not be shared with the team; it stays on this computer', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };
  const fromTeam = async (to: Destination, interviewId: string): Promise<string | undefined> => {
    const s = await sharing();
    if (!s) return undefined;
    const candidates = await s.records.candidates(scopeOf(to), interviewId).catch(() => []);
    for (const sealed of candidates) {
      const token = unsealToken(s.teamKey, to, interviewId, sealed);
      // A member holds the team key, so a token sealed for this interview may be another's (red team 20): one that
      // names another interview is passed over, never kept.
      if (!token || otherInterviewOfToken(token, interviewId) !== undefined) continue;
      await vault.setSessionToken(to, interviewId, token);
      return token;
    }
    return undefined;
  };
  const sharedIds = async (to: Destination): Promise<Set<string>> => {
    const s = await sharing();
    if (!s) return new Set();
    const envId = scopeOf(to);
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
    forgetAllBut: (to) => vault.forgetAllBut(to),
    adoptUnbound: (to) => vault.adoptUnbound(to),
    async getSessionToken(to, interviewId) {
      return (await vault.getSessionToken(to, interviewId)) ?? fromTeam(to, interviewId);
    },
    async setSessionToken(to, interviewId, token) {
      await vault.setSessionToken(to, interviewId, token);
      await share(to, [{ interviewId, token }]);
    },
    async setSessionTokens(to, tokens) {
      await vault.setSessionTokens(to, tokens);
      await share(to, tokens);
    },
    async clearSessionToken(to, interviewId) {
      await vault.clearSessionToken(to, interviewId);
      const s = await sharing();
      if (s) await s.records.remove(scopeOf(to), interviewId).catch(() => undefined);
      known.delete(scopeOf(to));
    },
    async hasSessionToken(to, interviewId) {
      return (await vault.hasSessionToken(to, interviewId)) || (await sharedIds(to)).has(interviewId);
    },
  };
}
