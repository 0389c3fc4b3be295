import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { unauthorized } from './errors';
import type { DemoClock } from './clock';

const EXPIRED_MESSAGE =
  'The server token expired (it is valid 15 minutes). Request a new one from POST /v1/integration/authorize/server.';

/** Server tokens live 15 minutes on the server clock (spec: Limits). */
export const SERVER_TOKEN_TTL_S = 15 * 60;

export type TokenClaims =
  { kind: 'server'; org: string; integrationId: string } | { kind: 'session'; org: string; interviewId: string };

/**
 * HS256 JWTs under a key that lives only as long as this process, so no token outlives a restart; unless the demo's
 * signing key is shared (demoSigningKey): then demo servers of several analysts accept each other's tokens.
 */
export class TokenIssuer {
  // Imported once: jose would otherwise import a raw key on every sign and verify.
  private readonly key: Promise<CryptoKey>;
  constructor(
    private readonly clock: DemoClock,
    signingKey: Uint8Array = demoSigningKey('tokens') ?? randomBytes(32),
  ) {
    this.key = globalThis.crypto.subtle.importKey(
      'raw',
      new Uint8Array(signingKey),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
  }

  async issueServerToken(org: string, integrationId: string): Promise<string> {
    const iat = Math.floor(this.clock.now() / 1000);
    return new SignJWT({ kind: 'server', org, integrationId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + SERVER_TOKEN_TTL_S)
      .setSubject(integrationId)
      .sign(await this.key);
  }

  /** Session tokens are scoped to one interview and carry its id; they do not expire while the process runs. */
  async issueSessionToken(org: string, interviewId: string): Promise<string> {
    const iat = Math.floor(this.clock.now() / 1000);
    return new SignJWT({ kind: 'session', org, interviewId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(iat)
      .setSubject(interviewId)
      .sign(await this.key);
  }

  /** Tokens whose signature already verified, with their expiry (ms); expiry is still checked on every use. */
  private readonly verified = new Map<string, { claims: TokenClaims; expMs: number }>();

  async verify(token: string): Promise<TokenClaims> {
    const known = this.verified.get(token);
    if (known) {
      if (this.clock.now() >= known.expMs) throw unauthorized(EXPIRED_MESSAGE);
      return known.claims;
    }
    try {
      const { payload } = await jwtVerify(token, await this.key, {
        algorithms: ['HS256'],
        currentDate: new Date(this.clock.now()),
      });
      const expMs = typeof payload.exp === 'number' ? payload.exp * 1000 : Number.POSITIVE_INFINITY;
      let claims: TokenClaims | undefined;
      if (payload.kind === 'server' && typeof payload.org === 'string' && typeof payload.integrationId === 'string') {
        claims = { kind: 'server', org: payload.org, integrationId: payload.integrationId };
      } else if (
        payload.kind === 'session' &&
        typeof payload.org === 'string' &&
        typeof payload.interviewId === 'string'
      ) {
        claims = { kind: 'session', org: payload.org, interviewId: payload.interviewId };
      }
      if (claims) {
        if (this.verified.size >= 10_000) this.verified.clear();
        this.verified.set(token, { claims, expMs });
        return claims;
      }
      throw unauthorized(
        'The token is not one this server issues. Request a new server token or attach the interview session token again.',
      );
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) {
        throw unauthorized(EXPIRED_MESSAGE);
      }
      if (err instanceof joseErrors.JOSEError) {
        throw unauthorized(
          'The token is malformed or its signature does not verify. Request a new server token, or attach the interview session token again.',
        );
      }
      throw err;
    }
  }
}

/**
 * `OMNI_DEMO_SIGNING_KEY`: a key several demo servers share, so a session token or media link one of them signed is
 * good at the others (a team trying the team database on the demo, each analyst with their own embedded demo). One
 * key per purpose is derived from it. Unset: each process signs with a random key of its own.
 */
export function demoSigningKey(purpose: 'tokens' | 'links', shared = process.env.OMNI_DEMO_SIGNING_KEY) {
  return shared ? createHash('sha256').update(`${purpose}\u0000${shared}`).digest() : undefined;
}
