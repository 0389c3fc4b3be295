/**
 * What the renderer may load and which links may leave the app. Shared by the Electron window and the web shell
 * so both enforce the same rules.
 */

/** Strict CSP: only the app's own scripts; no remote origins at all. `mediaSources` adds the media scheme. */
export function rendererCsp(opts: { mediaSources: string[]; frameAncestors?: boolean }): string {
  const media = ["'self'", 'blob:', ...opts.mediaSources].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob: ${opts.mediaSources.join(' ')}`.trim(),
    `media-src ${media}`,
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
    ...(opts.frameAncestors === false ? [] : ["frame-ancestors 'none'"]),
  ].join('; ');
}

/** Hosts whose pages may open in the OS browser (documentation of the service and the Mexican registries). */
export const EXTERNAL_LINK_HOSTS = ['incode.com', 'developer.incode.com', 'www.gob.mx', 'www.dof.gob.mx', 'www.sat.gob.mx', 'consultas.curp.gob.mx'];

export function isAllowedExternalUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return false;
  return EXTERNAL_LINK_HOSTS.includes(url.hostname);
}
