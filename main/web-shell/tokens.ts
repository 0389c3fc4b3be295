import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Short-lived signed paths for what a browser fetches without custom headers (`<video src>`, downloads):
 * HMAC-SHA256 with the per-launch key over kind, id and expiry. Relative URLs, so the port never matters.
 */
export function signPath(key: string, kind: 'media' | 'download', id: string, expiresAt: number): string {
  const sig = createHmac('sha256', key).update(`${kind}\n${id}\n${expiresAt}`).digest('base64url');
  return `/${kind}/${encodeURIComponent(id)}?exp=${expiresAt}&sig=${sig}`;
}

export function verifyPath(
  key: string,
  kind: 'media' | 'download',
  id: string,
  exp: string | null,
  sig: string | null,
  now: number,
): boolean {
  if (!exp || !sig || !/^\d{1,15}$/.test(exp)) return false;
  const expiresAt = Number(exp);
  if (expiresAt < now) return false;
  const expected = Buffer.from(createHmac('sha256', key).update(`${kind}\n${id}\n${expiresAt}`).digest('base64url'));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
