import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { MediaRegistryError } from '../errors';

/**
 * Where main may fetch media from. A media link comes from the service's answer (or a redirect along it), and main
 * fetches it from the analyst's own machine: a link to this computer or its network (127.0.0.1, the cloud metadata
 * address 169.254.169.254, a printer on the LAN) would have main send requests there for whoever wrote the link. So
 * every address the link names is checked, at registration, after a refresh, and at each redirect hop (stream.ts):
 * http(s) only, and no loopback, link-local, private or unique-local address, the host name resolved, unless the link
 * is on the environment's own service origin (the embedded demo serves its media from 127.0.0.1). The connection itself
 * resolves the name through `internetOnlyLookup`, so the address checked is the address connected to.
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
  if (family === 4) return INTERNAL.check(address, 'ipv4');
  if (INTERNAL.check(address, 'ipv6')) return true;
  // An IPv6 address that carries an IPv4 one reaches it through a translator (NAT64 and DNS64 on IPv6-only networks,
  // SIIT, 6to4): `64:ff9b::a9fe:a9fe` is 169.254.169.254 there (red team 14). Judged by the IPv4 address it carries.
  const words = ipv6Words(address);
  if (!words) return true;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  if (words[0] === 0x64 && words[1] === 0xff9b && words[2] === 1) return true; // local-use NAT64 (RFC 8215)
  if (words[0] === 0x64 && words[1] === 0xff9b && zero(2, 6)) return isInternalAddress(v4(words[6]!, words[7]!));
  if (zero(0, 4) && words[4] === 0xffff && words[5] === 0) return isInternalAddress(v4(words[6]!, words[7]!));
  if (words[0] === 0x2002) return isInternalAddress(v4(words[1]!, words[2]!));
  if (words[0] === 0x2001 && words[1] === 0) return true; // Teredo: the IPv4 it carries is hidden
  return false;
}

/** The eight 16-bit words of an IPv6 address (`::` expanded, a dotted IPv4 tail as two words, a zone dropped). */
function ipv6Words(address: string): number[] | undefined {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail, extra] = text.split('::');
  if (extra !== undefined) return undefined;
  const split = (part: string | undefined) => (part ? part.split(':') : []);
  const filled = tail === undefined ? [] : Array<string>(8 - split(head).length - split(tail).length).fill('0');
  const words = [...split(head), ...filled, ...split(tail)].map((w) => Number.parseInt(w, 16));
  return words.length === 8 && words.every((w) => w >= 0 && w <= 0xffff) ? words : undefined;
}

/**
 * A `net.connect` lookup for media hosts: it resolves with `resolve` and hands the socket only addresses on the
 * internet. A host name that answers a public address to the check and 127.0.0.1 to the connection a moment later
 * (DNS rebinding) would otherwise reach this computer after the check passed.
 */
export function internetOnlyLookup(resolve: ResolveHost = resolveHost): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = addresses.filter((a) => family === undefined || isIP(a) === family);
        if (addresses.some(isInternalAddress) || usable.length === 0) {
          const error: NodeJS.ErrnoException = new MediaRegistryError(
            'Media URL names an address on this computer or its network',
          );
          error.code = usable.length === 0 ? 'ENOTFOUND' : 'EACCES';
          callback(error, '');
          return;
        }
        if (options.all)
          callback(
            null,
            usable.map((address) => ({ address, family: isIP(address) })),
          );
        else callback(null, usable[0]!, isIP(usable[0]!));
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
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
 * the service's origin (then nothing more is checked, and its connection resolves as any other).
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
 * host name resolves to must be on the internet. Throws MediaRegistryError. A link off the service must then be
 * fetched through `internetOnlyLookup` (the name may answer otherwise a moment later).
 */
export async function checkMediaUrl(
  url: string,
  serviceOrigin: string | undefined,
  resolve: ResolveHost = resolveHost,
): Promise<{ url: URL; onService: boolean }> {
  const checked = checkMediaUrlSyntax(url, serviceOrigin);
  const host = hostOf(checked.url);
  if (checked.onService || isIP(host)) return checked;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return refuse('Media host could not be resolved');
  }
  if (addresses.length === 0 || addresses.some(isInternalAddress))
    return refuse('Media URL names an address on this computer or its network');
  return checked;
}

/** The URL's host as an address or a name: IPv6 without its brackets. */
function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}
