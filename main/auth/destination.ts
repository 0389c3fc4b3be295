import { createHash } from 'node:crypto';

/**
 * Where a stored secret may be sent. Every secret is stored under the destination it was entered for and looked up
 * by one, so a secret cannot be used anywhere else: a changed address is another destination, under which nothing
 * is stored. Only the functions below make one.
 *
 * The string is `<scope>\0@<address>`: the scope (an environment's id, the team database) lets the secrets of an
 * old address be found and dropped; the address is what the secret is bound to.
 */
export type Destination = string & { readonly __destination: unique symbol };

const make = (scope: string, address: string) => `${scope}\u0000@${address}` as Destination;

/** The scope of a destination (an environment's id, `team-database`): for messages and pruning, never for lookup. */
export function scopeOf(to: Destination): string {
  const end = to.indexOf('\u0000');
  return end < 0 ? to : to.slice(0, end);
}

/** The part of a destination after its scope: what it is bound to. */
export function addressOf(to: Destination): string {
  const end = to.indexOf('\u0000');
  return end < 0 ? '' : to.slice(end + 2);
}

function origin(url: string): string {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : `invalid:${url}`;
  } catch {
    return `invalid:${url}`;
  }
}

/**
 * An environment's credentials and session tokens go to its service's two origins (base and authorization). The
 * embedded demo listens on a new port each run, and its address cannot be changed by anyone, so it is one
 * destination of its own.
 */
export function serviceDestination(env: { id: string; kind?: string; baseUrl: string; authUrl: string }): Destination {
  if (env.kind === 'demo') return make(env.id, 'embedded-demo');
  return make(env.id, `${origin(env.baseUrl)} ${origin(env.authUrl)}`);
}

/** The team database's password goes to one host, port, database and user, over one TLS mode with one CA. */
export function databaseDestination(
  scope: string,
  c: { host: string; port: number; database: string; user: string; tls: string; ca?: string | undefined },
): Destination {
  const ca = c.ca ? createHash('sha256').update(c.ca).digest('hex').slice(0, 32) : 'system';
  const host = c.host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  // JSON, not URL encoding: any string is written one way, and none throws.
  return make(scope, JSON.stringify(['postgresql', host, c.port, c.database, c.user, c.tls, ca]));
}

/** A secret that never leaves this computer (the team key seals and opens, it is not sent). */
export function localDestination(scope: string): Destination {
  return make(scope, 'this-computer');
}
