import { InterviewId } from './ipc/queue';

/**
 * The interview a session token names, when it is a JWT that carries one (a session token is scoped to one interview
 * and carries its id: docs/interface-notes.md). Read, not verified: the service verifies the token; this catches one
 * attached to the wrong interview, which the service would take as its own interview's, before a note or decision goes
 * out on it. `undefined` when the token is opaque or names none (nothing can be said then).
 */
/**
 * The claims a session token may name its interview in (the demo's: `interviewId`). `sub` is not read: a service may
 * put a user or an organization there, and a refused genuine token would stop every write.
 */
const INTERVIEW_CLAIMS = ['interviewId', 'interview_id', 'interviewID', 'sessionId', 'session_id'];

export function interviewOfToken(token: string): string | undefined {
  const payload = token.split('.')[1];
  if (token.split('.').length !== 3 || !payload) return undefined;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (typeof claims !== 'object' || claims === null) return undefined;
    const named = INTERVIEW_CLAIMS.map((name) => (claims as Record<string, unknown>)[name]).filter(
      (value) => value !== undefined && value !== null,
    );
    if (named.length === 0) return undefined;
    // Two claims that disagree, or one that is no id: it names no interview this app could write to.
    const [first] = named;
    if (typeof first !== 'string' || named.some((value) => value !== first)) return '?';
    // Shown in messages: only a well-formed id is repeated, anything else is "another interview".
    return InterviewId.safeParse(first).success ? first : '?';
  } catch {
    return undefined;
  }
}

/** The interview another interview's token names, or `undefined` when the token is this one's or says nothing. */
export function otherInterviewOfToken(token: string, interviewId: string): string | undefined {
  const named = interviewOfToken(token);
  return named !== undefined && named !== interviewId ? named : undefined;
}
