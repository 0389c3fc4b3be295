import { ReviewError } from '../errors';

/** Hours and minutes in the analyst's own time zone (main runs on their computer). */
const clock = (iso: string, locale: string) =>
  new Date(iso).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });

/** Someone else holds the interview: by whom since when, and that only the holder works it. One wording for both refusals. */
export function claimedByOther(interviewId: string, holder: string, since: string): ReviewError {
  return new ReviewError(
    'CLAIMED_BY_OTHER',
    {
      en: `Held by ${holder} since ${clock(since, 'en-US')}: only whoever holds interview ${interviewId} decides it or writes to the service about it.`,
      es: `La tiene ${holder} desde las ${clock(since, 'es-MX')}: solo quien tiene la entrevista ${interviewId} la decide o escribe al servicio sobre ella.`,
    },
    {
      en: `Take the next one, or ask ${holder} to let it go, or a supervisor to release it or hand it over. Nothing was sent.`,
      es: `Toma la siguiente, o pide a ${holder} que la suelte, o a un supervisor que la libere o te la pase. No se envió nada.`,
    },
    { details: { holder, claimedAt: since } },
  );
}

/**
 * The database's refusals of work on an interview someone else holds, or nobody does (`omni_hold`, migration 0006),
 * in the analyst's words, naming the holder and since when. Anything else is left to the caller.
 */
export function refusedByClaim(error: unknown): void {
  const { constraint, detail } = (error ?? {}) as { constraint?: unknown; detail?: unknown };
  if (constraint === 'claim_held_by_other') {
    let held: { holder?: string; claimedAt?: string; interviewId?: string } = {};
    try {
      held = JSON.parse(String(detail)) as typeof held;
    } catch {
      // The words without the names still say what happened.
    }
    throw claimedByOther(
      String(held.interviewId ?? ''),
      held.holder ?? '?',
      held.claimedAt ?? new Date().toISOString(),
    );
  }
  if (constraint === 'claim_required')
    throw new ReviewError(
      'NOT_CLAIMED',
      {
        en: 'Nobody holds this interview: on a team database whoever decides it holds it first.',
        es: 'Nadie tiene esta entrevista: en una base de datos de equipo, quien la decide la toma primero.',
      },
      {
        en: 'Open the interview again (it is claimed on opening), then try again. Nothing was sent.',
        es: 'Vuelve a abrir la entrevista (se toma al abrirla) e inténtalo de nuevo. No se envió nada.',
      },
    );
}
