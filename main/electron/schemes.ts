import { protocol } from 'electron';

/** Custom schemes: `app://omni/…` serves the renderer, `omni-media://media/<id>` streams registered media. */
export const APP_SCHEME = 'app';
export const MEDIA_SCHEME = 'omni-media';

/** Must run before the app is ready. */
export function registerPrivilegedSchemes(): void {
  protocol.registerSchemesAsPrivileged([
    // codeCache: Electron keeps V8's compiled code only for http(s) unless a standard scheme asks for it, so every start
    // compiled the whole renderer again, and the first interview opened waited for its panels' code to compile.
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, codeCache: true },
    },
    // stream: true lets <video> seek with Range requests through the handler.
    { scheme: MEDIA_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
  ]);
}

export const mediaUrlFor = (id: string): string => `${MEDIA_SCHEME}://media/${encodeURIComponent(id)}`;
