import type { IpcErrorData } from '../../common/ipc/define';
import { ReviewError } from '../errors';

type Text = { en: string; es: string };

export const noSessionToken = (interviewId: string) =>
  new ReviewError(
    'NO_SESSION_TOKEN',
    {
      en: `No session token is attached to interview ${interviewId}, so notes, name and decisions cannot be sent.`,
      es: `La entrevista ${interviewId} no tiene un token de sesión, así que no se pueden enviar notas, nombre ni decisiones.`,
    },
    {
      en: 'Attach the session token in the interview header.',
      es: 'Adjunta el token de sesión en el encabezado de la entrevista.',
    },
  );

const whose = (other: string) =>
  other === '?'
    ? { en: 'another interview’s', es: 'de otra entrevista' }
    : { en: `interview ${other}’s`, es: `de la entrevista ${other}` };

/** A session token naming another interview: refused where it enters, and before anything is sent with one. */
export const tokenOfOtherInterview = (interviewId: string, other: string, when: 'attach' | 'send') =>
  new ReviewError(
    'SESSION_TOKEN_OF_OTHER_INTERVIEW',
    when === 'attach'
      ? {
          en: `This session token is ${whose(other).en}, not ${interviewId}’s: it was not attached.`,
          es: `Este token de sesión es ${whose(other).es}, no de ${interviewId}: no se adjuntó.`,
        }
      : {
          en: `The session token attached to ${interviewId} is ${whose(other).en}: nothing was recorded or sent (the service would have filed it there).`,
          es: `El token de sesión adjunto a ${interviewId} es ${whose(other).es}: no se registró ni envió nada (el servicio lo habría archivado allá).`,
        },
    {
      en: `Attach ${interviewId}’s own session token (Replace, in the interview header).`,
      es: `Adjunta el token de sesión propio de ${interviewId} (Reemplazar, en el encabezado de la entrevista).`,
    },
  );

export const sessionNotWritable = (status: 'Closed' | 'Deleted') =>
  new ReviewError(
    'SESSION_NOT_WRITABLE',
    status === 'Closed'
      ? {
          en: 'The session is closed; the service accepts no more notes or decisions for it.',
          es: 'La sesión está cerrada; el servicio ya no acepta notas ni decisiones.',
        }
      : {
          en: 'The session was deleted; nothing can be added to it.',
          es: 'La sesión fue eliminada; ya no se le puede agregar nada.',
        },
  );

export const emptyDraft = (what: Text) =>
  new ReviewError(
    'EMPTY_DRAFT',
    { en: `There is no ${what.en} to send.`, es: `No hay ${what.es} que enviar.` },
    {
      en: 'Type the text first.',
      es: 'Escribe el texto primero.',
    },
  );

/** Reads the bilingual data of any error a call threw, for keeping it with a draft. */
export function errorData(err: unknown): IpcErrorData {
  if (err && typeof err === 'object') {
    const toIpcError = (err as { toIpcError?: () => unknown }).toIpcError;
    if (typeof toIpcError === 'function') {
      const converted = toIpcError.call(err);
      if (isErrorData(converted)) return converted;
    }
  }
  // An unknown error's message may quote a secret; keep only that it failed.
  return {
    code: 'INTERNAL',
    message: { en: 'The send failed for an unexpected reason.', es: 'El envío falló por una razón inesperada.' },
    advice: { en: 'Try again; the text is kept.', es: 'Inténtalo de nuevo; el texto se conserva.' },
  };
}

function isErrorData(v: unknown): v is IpcErrorData {
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  const m = o.message as Record<string, unknown> | undefined;
  return typeof o.code === 'string' && !!m && typeof m.en === 'string' && typeof m.es === 'string';
}
