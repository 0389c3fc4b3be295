/**
 * What the renderer may load and which links may leave the app. Shared by the Electron window and the web shell
 * so both enforce the same rules.
 */

/**
 * The electron-vite dev server the renderer is loaded from during `electron-vite dev`; `nonce` is the per-run value
 * Vite puts on the scripts and styles it injects (React's refresh preamble is an inline script).
 */
export interface DevRenderer {
  origin: string;
  nonce: string;
}

/** Strict CSP: only the app's own scripts; no remote origins at all. `mediaSources` adds the media scheme. */
export function rendererCsp(opts: { mediaSources: string[]; frameAncestors?: boolean; dev?: DevRenderer }): string {
  const media = ["'self'", 'blob:', ...opts.mediaSources].join(' ');
  // Dev only: the nonce admits Vite's inline preamble and injected styles; the socket is its hot-reload channel.
  const nonce = opts.dev ? ` 'nonce-${opts.dev.nonce}'` : '';
  const hotReload = opts.dev ? ` ${opts.dev.origin.replace(/^http/, 'ws')}` : '';
  return [
    "default-src 'self'",
    `script-src 'self'${nonce}`,
    `style-src 'self'${nonce}`,
    `img-src 'self' data: blob: ${opts.mediaSources.join(' ')}`.trim(),
    `media-src ${media}`,
    `connect-src 'self'${hotReload}`,
    "worker-src 'self' blob:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
    ...(opts.frameAncestors === false ? [] : ["frame-ancestors 'none'"]),
  ].join('; ');
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The dev server, only for an unpackaged app started by `electron-vite dev` (which sets ELECTRON_RENDERER_URL) on a
 * loopback http address with a well-formed nonce. Anything else, and every packaged build, gets `null`: app://omni
 * with the strict CSP.
 */
export function devRendererFrom(opts: {
  isPackaged: boolean;
  rendererUrl: string | undefined;
  nonce: string | undefined;
}): DevRenderer | null {
  if (opts.isPackaged || !opts.rendererUrl || !opts.nonce || !/^[A-Za-z0-9+/_-]{22,}={0,2}$/.test(opts.nonce))
    return null;
  let url: URL;
  try {
    url = new URL(opts.rendererUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname) || url.username || url.password) return null;
  return { origin: url.origin, nonce: opts.nonce };
}

/** Hosts whose pages may open in the OS browser (documentation of the service and the Mexican registries). */
export const EXTERNAL_LINK_HOSTS = [
  'incode.com',
  'developer.incode.com',
  'www.gob.mx',
  'www.dof.gob.mx',
  'www.sat.gob.mx',
  'consultas.curp.gob.mx',
];

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
