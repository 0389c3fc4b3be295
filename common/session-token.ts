import { InterviewId } from './ipc/queue';

/**
 * The interview a session token names, when it is a JWT that carries one (a session token is scoped to one interview
 * and carries its id: docs/interface-notes.md). Read, not verified: the service verifies the token; this catches one
 * attached to the wrong interview, which the service would take as its own interview's, before a note or decision goes
 * out on it. `undefined` when the token is opaque or names none (nothing can be said then).
 */
export function interviewOfToken(token: string): string | undefined {
  const payload = token.split('.')[1];
  if (token.split('.').length !== 3 || !payload) return undefined;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (typeof claims !== 'object' || claims === null) return undefined;
    const named = (claims as Record<string, unknown>).interviewId ?? (claims as Record<string, unknown>).interview_id;
    if (typeof named !== 'string') return undefined;
    // Shown in messages: only a well-formed id is repeated, anything else is "another interview".
    return InterviewId.safeParse(named).success ? named : '?';
  } catch {
    return undefined;
  }
}

/** The interview another interview's token names, or `undefined` when the token is this one's or says nothing. */
export function otherInterviewOfToken(token: string, interviewId: string): string | undefined {
  const named = interviewOfToken(token);
  return named !== undefined && named !== interviewId ? named : undefined;
}
