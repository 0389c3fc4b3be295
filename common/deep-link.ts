import { InterviewId, SessionToken } from './ipc/queue';
import type { IpcErrorData } from './ipc/define';

export const DEEP_LINK_SCHEME = 'omni-reviewer';

export interface DeepLink {
  interviewId: string;
  sessionToken?: string;
}

type Text = { en: string; es: string };

/** A link that names no interview, or carries a malformed token; crosses IPC as is (see `toIpcError`). */
export class DeepLinkError extends Error {
  readonly data: IpcErrorData;
  constructor(message: Text, advice?: Text) {
    super(message.en);
    this.name = 'DeepLinkError';
    this.data = { code: 'INVALID_DEEP_LINK', message, ...(advice ? { advice } : {}) };
  }

  toIpcError(): IpcErrorData {
    return this.data;
  }
}

const badLink = () =>
  new DeepLinkError(
    { en: 'This link does not name an interview.', es: 'Este enlace no indica una entrevista.' },
    {
      en: 'Links look like omni-reviewer://interview/<id>.',
      es: 'Los enlaces tienen la forma omni-reviewer://interview/<id>.',
    },
  );

/**
 * `omni-reviewer://interview/<id>` with an optional `token` (or `sessionToken`) query parameter. Also accepts the
 * `omni-reviewer:///interview/<id>` and `omni-reviewer:interview/<id>` spellings some OSes hand over.
 */
export function parseDeepLink(url: string): DeepLink {
  const trimmed = url.trim();
  const prefix = `${DEEP_LINK_SCHEME}:`;
  if (trimmed.slice(0, prefix.length).toLowerCase() !== prefix) throw badLink();
  const rest = trimmed.slice(prefix.length).replace(/^\/+/, '');
  const [pathPart = '', queryPart = ''] = splitOnce(rest.split('#')[0] ?? '', '?');
  const segments = pathPart.split('/').filter(Boolean);
  if (segments.length !== 2 || segments[0]?.toLowerCase() !== 'interview') throw badLink();
  let decoded: string;
  try {
    decoded = decodeURIComponent(segments[1] ?? '');
  } catch {
    throw badLink();
  }
  const id = InterviewId.safeParse(decoded);
  if (!id.success) throw badLink();
  const params = new URLSearchParams(queryPart);
  const rawToken = params.get('token') ?? params.get('sessionToken');
  if (rawToken === null || rawToken === '') return { interviewId: id.data };
  const token = SessionToken.safeParse(rawToken);
  if (!token.success)
    throw new DeepLinkError(
      { en: 'The session token in this link is not valid.', es: 'El token de sesión de este enlace no es válido.' },
      {
        en: 'Ask for a new link, or open the interview and attach the token by hand.',
        es: 'Pide un enlace nuevo, o abre la entrevista y adjunta el token a mano.',
      },
    );
  return { interviewId: id.data, sessionToken: token.data };
}

function splitOnce(s: string, sep: string): [string, string] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, ''] : [s.slice(0, i), s.slice(i + 1)];
}
