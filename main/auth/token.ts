import { registerSecretSource } from '../log';

/** Spec: the server token is valid 15 minutes. Used when the token carries no readable `exp`. */
export const SERVER_TOKEN_TTL_MS = 15 * 60 * 1000;
/** Refresh this long before expiry, so a call never leaves with a token about to lapse in flight. */
export const REFRESH_MARGIN_MS = 60 * 1000;
/** After a failed early refresh, calls keep the still-valid token this long before trying again. */
export const EARLY_REFRESH_PAUSE_MS = 5 * 1000;

export interface TokenManagerOptions {
  /** Performs one authorization and returns the new server token. */
  authorize: () => Promise<string>;
  now?: () => number;
  ttlMs?: number;
  refreshMarginMs?: number;
}

interface Held {
  token: string;
  expiresAt: number;
}

/**
 * The server token: reused until shortly before it expires, with at most one authorization in flight however
 * many calls want a token at once.
 */
export class TokenManager {
  private held: Held | undefined;
  private inFlight: Promise<Held> | undefined;
  private earlyRefreshAfter = 0;
  private readonly now: () => number;
  private readonly ttlMs: number;
  private readonly marginMs: number;
  /** How many authorization requests were started (benchmarks and tests read it). */
  authorizations = 0;

  constructor(private readonly opts: TokenManagerOptions) {
    this.now = opts.now ?? Date.now;
    this.ttlMs = opts.ttlMs ?? SERVER_TOKEN_TTL_MS;
    this.marginMs = Math.min(opts.refreshMarginMs ?? REFRESH_MARGIN_MS, this.ttlMs / 2);
    registerSecretSource(this);
  }

  /** A valid token: the held one, or the result of the one authorization in flight. */
  getToken(): Promise<string> | string {
    const held = this.held;
    if (held) {
      const left = held.expiresAt - this.now();
      if (left > this.marginMs) return held.token;
      if (left > 0) {
        // Inside the refresh window: refresh in the background, keep serving the still-valid token. A failure
        // pauses early refreshes briefly, so a failing authorizer is not hit by every call.
        if (this.now() >= this.earlyRefreshAfter) void this.refresh().catch(() => undefined);
        return held.token;
      }
    }
    return this.refresh().then((h) => h.token);
  }

  /**
   * A fresh token after the service rejected `rejected`. If another caller already replaced it, that newer
   * token is used instead of authorizing again.
   */
  async renew(rejected: string): Promise<string> {
    if (this.held && this.held.token !== rejected && this.held.expiresAt - this.now() > 0) return this.held.token;
    if (this.held?.token === rejected) this.held = undefined;
    return (await this.refresh()).token;
  }

  /** Forces a new authorization (test connection); joins one already in flight. */
  async forceRefresh(): Promise<{ token: string; expiresAt: number }> {
    this.held = undefined;
    return this.refresh();
  }

  /** Drops the held token, e.g. when the environment's credentials change. */
  invalidate(): void {
    this.held = undefined;
  }

  expiresAt(): number | undefined {
    return this.held?.expiresAt;
  }

  knownSecrets(): string[] {
    return this.held ? [this.held.token] : [];
  }

  private refresh(): Promise<Held> {
    if (this.inFlight) return this.inFlight;
    this.authorizations++;
    const started = this.now();
    const flight = (async () => {
      try {
        const token = await this.opts.authorize();
        const held = { token, expiresAt: started + lifetimeOf(token, this.ttlMs, started) };
        this.held = held;
        return held;
      } catch (error) {
        this.earlyRefreshAfter = this.now() + EARLY_REFRESH_PAUSE_MS;
        throw error;
      } finally {
        this.inFlight = undefined;
      }
    })();
    this.inFlight = flight;
    return flight;
  }
}

/**
 * Lifetime from the JWT: `exp - iat` where both are present (immune to clock skew between us and the
 * service), else `exp` against our clock, never longer than the spec's 15 minutes; the default when the token
 * is opaque or its `exp` already passed by our clock (skew: the service will say 401 and we renew).
 */
export function lifetimeOf(token: string, fallbackMs: number, now: number): number {
  const claims = jwtClaims(token);
  const exp = claims?.exp;
  if (typeof exp !== 'number') return fallbackMs;
  const iat = claims?.iat;
  const ms = typeof iat === 'number' && exp > iat ? (exp - iat) * 1000 : exp * 1000 - now;
  return ms > 0 ? Math.min(ms, fallbackMs) : fallbackMs;
}

export function jwtClaims(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
