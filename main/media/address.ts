import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { MediaRegistryError } from '../errors';

/**
 * Where main may fetch media from. A media link comes from the service's answer (or a redirect along it), and main
 * fetches it from the analyst's own machine: a link to this computer or its network (127.0.0.1, the cloud metadata
 * address 169.254.169.254, a printer on the LAN) would have main send requests there for whoever wrote the link. So
 * every address the link names is checked, at registration, after a refresh, and at each redirect hop (stream.ts):
 * http(s) only, and no loopback, link-local, private or unique-local address, the host name resolved, unless the link
 * is on the environment's own service origin (the embedded demo serves its media from 127.0.0.1).
 */

/** Every address a host name resolves to (node:dns, as fetch resolves it); replaced in tests. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

export const resolveHost: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

const INTERNAL = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network": 0.0.0.0 reaches this computer
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT, VPN overlays
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3], // multicast, reserved, broadcast
] as const)
  INTERNAL.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible (IPv4-mapped ones are checked as IPv4)
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  INTERNAL.addSubnet(net, bits, 'ipv6');

/** Whether an IP address is on this computer or a network of its own rather than the internet. */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The origin (scheme, host and port) of a URL, or undefined when it is none. */
export function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

function refuse(message: string): never {
  throw new MediaRegistryError(message);
}

/**
 * What can be told of a media URL without resolving its host: a valid http(s) URL, not naming an internal address or
 * `localhost` unless it is on `serviceOrigin`. Throws MediaRegistryError; returns the parsed URL and whether it is on
 * the service's origin (then nothing more is checked).
 */
export function checkMediaUrlSyntax(url: string, serviceOrigin?: string): { url: URL; onService: boolean } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse('Media URL is not a valid URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return refuse('Media URL must be http(s)');
  if (serviceOrigin !== undefined && parsed.origin === originOf(serviceOrigin)) return { url: parsed, onService: true };
  const host = hostOf(parsed);
  if (isIP(host) ? isInternalAddress(host) : /(^|\.)localhost\.?$/i.test(host))
    return refuse('Media URL names an address on this computer or its network');
  return { url: parsed, onService: false };
}

/**
 * The full check, before each request (each redirect hop included): `checkMediaUrlSyntax`, then every address the
 * host name resolves to must be on the internet. Throws MediaRegistryError.
 */
export async function checkMediaUrl(
  url: string,
  serviceOrigin: string | undefined,
  resolve: ResolveHost = resolveHost,
): Promise<URL> {
  const { url: parsed, onService } = checkMediaUrlSyntax(url, serviceOrigin);
  const host = hostOf(parsed);
  if (onService || isIP(host)) return parsed;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return refuse('Media host could not be resolved');
  }
  if (addresses.length === 0 || addresses.some(isInternalAddress))
    return refuse('Media URL names an address on this computer or its network');
  return parsed;
}

/** The URL's host as an address or a name: IPv6 without its brackets. */
function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}
