import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { forbidden } from './errors';
import type { DemoClock } from './clock';
import { demoSigningKey } from './tokens';

/** Pre-signed media URLs: HMAC-SHA256 over path and expiry under a per-process key (decisions.md §7). */
export class UrlSigner {
  constructor(
    private readonly clock: DemoClock,
    private readonly key: Uint8Array = demoSigningKey('links') ?? randomBytes(32),
  ) {}

  private mac(path: string, expires: number): Buffer {
    return createHmac('sha256', this.key).update(`${path}\n${expires}`).digest();
  }

  /** Returns `path?expires=…&signature=…`, valid `ttlMs` from now on the server clock. */
  sign(path: string, ttlMs: number): string {
    const expires = this.clock.now() + ttlMs;
    return `${path}?expires=${expires}&signature=${this.mac(path, expires).toString('base64url')}`;
  }

  verify(path: string, expiresParam: unknown, signatureParam: unknown): void {
    if (typeof expiresParam !== 'string' || typeof signatureParam !== 'string' || !/^\d{1,16}$/.test(expiresParam)) {
      throw forbidden('This link is not signed. Ask the service for a new temporary link.');
    }
    const expires = Number(expiresParam);
    const given = Buffer.from(signatureParam, 'base64url');
    const expected = this.mac(path, expires);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw forbidden(
        'The link signature does not match: the link was altered or comes from another server. Ask the service for a new temporary link.',
      );
    }
    if (this.clock.now() > expires) {
      throw forbidden(
        `The link expired at ${new Date(expires).toISOString()} (links are valid 1 hour). Ask the service for a new temporary link.`,
      );
    }
  }
}
