import { extname, join, normalize, sep } from 'node:path';

/**
 * Where a request path lands inside the built renderer, shared by `app://omni` (Electron) and the web shell so both
 * confine requests to the same folder and label files with the same types (they are sent with `nosniff`).
 */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.bcmap': 'application/octet-stream',
  '.pfb': 'application/octet-stream',
};

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
}

/**
 * The file a URL path names under `rootDir`: `bad-path` when it cannot be decoded, `outside` when it would escape
 * the folder. `relative` is '' for the root itself.
 */
export function resolveRendererPath(
  rootDir: string,
  urlPath: string,
): { file: string; relative: string } | 'bad-path' | 'outside' {
  let relative: string;
  try {
    relative = normalize(decodeURIComponent(urlPath)).replace(/^([/\\])+/, '');
  } catch {
    return 'bad-path';
  }
  const root = normalize(rootDir + sep);
  const file = join(root, relative);
  if (!file.startsWith(root)) return 'outside';
  return { file, relative };
}
