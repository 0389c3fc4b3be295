import type { z } from 'zod';
import { spanishOf, type IpcErrorData } from '../../common/ipc/define';
import { formatBytes, intlLocale, type Bilingual, type Locale } from '../i18n/index';

/**
 * Bad input said where it enters: a field checked with the schema main checks it with, main's refusal put under the
 * field it names, and a chosen file checked before it is read.
 */

type Issue = NonNullable<IpcErrorData['issues']>[number];

/** An issue's reason in the screen's language: main's Spanish where it has one, else `fallback` (never English in es). */
export function issueReason(issue: Issue, locale: Locale, fallback: string): string {
  return locale === 'en' ? issue.message : (issue.messageEs ?? fallback);
}

/** The reason main refused the field at one of `paths` (`config.ca`, `items.0.interviewId`), or undefined. */
export function issueAt(
  error: IpcErrorData | null | undefined,
  paths: readonly string[],
  locale: Locale,
  fallback: string,
): string | undefined {
  const issue = error?.issues?.find((i) => paths.includes(i.path));
  return issue && issueReason(issue, locale, fallback);
}

/**
 * Whether the form's fields say all of the error: refused input whose every issue is at one of the form's fields. Else
 * the error notice is shown too, so an issue no field shows (a path the form does not have) is never lost.
 */
export function fieldsSayIt(error: IpcErrorData | null | undefined, paths: readonly string[]): boolean {
  const issues = error?.issues;
  return !!issues && issues.length > 0 && issues.every((i) => paths.includes(i.path));
}

/**
 * A value checked with the schema main checks it with, before it is sent: undefined when valid, else the schema's own
 * reason in the screen's language (the Spanish registered with `says()`; `fallback` for a reason without one).
 */
export function schemaReason(schema: z.ZodType, value: unknown, locale: Locale, fallback: string): string | undefined {
  const parsed = schema.safeParse(value);
  const message = parsed.success ? undefined : parsed.error.issues[0]?.message;
  if (message === undefined) return parsed.success ? undefined : fallback;
  return locale === 'en' ? message : (spanishOf(message) ?? fallback);
}

/**
 * Reading a chosen file as text for a channel that takes at most `maxChars` characters, with the checks made before
 * anything is sent: its size first (a file that cannot fit is not read at all), then its first bytes (NUL bytes or
 * bytes that are not UTF-8: an image or a spreadsheet renamed .csv), then the whole text. `accept` on a file input is
 * only a hint to the picker; these are the checks.
 */
export type TextFileProblem =
  | { kind: 'tooLarge'; name: string; size: number; maxChars: number; chars?: number }
  | { kind: 'notText'; name: string }
  | { kind: 'unreadable'; name: string };

export type TextFileRead = { ok: true; text: string } | { ok: false; problem: TextFileProblem };

/** UTF-8 takes at most 3 bytes for each UTF-16 unit a JavaScript string counts (and 3 more for a BOM). */
const MAX_BYTES_PER_CHAR = 3;
/** How much of the file's start is looked at before the whole of it is read. */
export const SNIFF_BYTES = 64 * 1024;

/** Whether these bytes can be the start of a UTF-8 text: no NUL, and valid UTF-8 (a sequence cut at the end is fine). */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** The file's text, or why it is refused; nothing is read of a file whose size alone rules it out. */
export async function readTextFile(file: File, maxChars: number): Promise<TextFileRead> {
  const name = file.name;
  if (file.size > maxChars * MAX_BYTES_PER_CHAR + 3)
    return { ok: false, problem: { kind: 'tooLarge', name, size: file.size, maxChars } };
  try {
    if (!looksLikeText(new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer())))
      return { ok: false, problem: { kind: 'notText', name } };
    const bytes = new Uint8Array(await file.arrayBuffer());
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return { ok: false, problem: { kind: 'notText', name } };
    }
    if (text.includes('\u0000')) return { ok: false, problem: { kind: 'notText', name } };
    if (text.length > maxChars)
      return { ok: false, problem: { kind: 'tooLarge', name, size: file.size, maxChars, chars: text.length } };
    return { ok: true, text };
  } catch {
    // Moved, deleted or no longer readable since it was chosen.
    return { ok: false, problem: { kind: 'unreadable', name } };
  }
}

/** What is wrong with the file, in both languages, naming the file and the limit. */
export function textFileProblemWords(problem: TextFileProblem): Bilingual {
  const words = (locale: Locale): string => {
    const number = (n: number) => new Intl.NumberFormat(intlLocale(locale)).format(n);
    const size = (n: number) => formatBytes(n, intlLocale(locale));
    const { name } = problem;
    if (problem.kind === 'tooLarge') {
      const max = number(problem.maxChars);
      if (locale === 'es')
        return problem.chars === undefined
          ? `${name} pesa ${size(problem.size)}: es demasiado grande; aquí caben hasta ${max} caracteres. No se envió nada.`
          : `${name} tiene ${number(problem.chars)} caracteres; aquí caben hasta ${max}. No se envió nada.`;
      return problem.chars === undefined
        ? `${name} is ${size(problem.size)}: too large; this takes up to ${max} characters. Nothing was sent.`
        : `${name} has ${number(problem.chars)} characters; this takes up to ${max}. Nothing was sent.`;
    }
    if (problem.kind === 'notText')
      return locale === 'es'
        ? `${name} no es un archivo de texto (¿es una imagen o una hoja de cálculo?): tiene bytes que no son texto UTF-8. No se envió nada.`
        : `${name} is not a text file (is it an image or a spreadsheet?): it holds bytes that are not UTF-8 text. Nothing was sent.`;
    return locale === 'es'
      ? `No se pudo leer ${name}. Verifica que aún exista y que puedas abrirlo, y vuelve a elegirlo.`
      : `${name} could not be read. Check that it still exists and that you can open it, then choose it again.`;
  };
  return { en: words('en'), es: words('es') };
}
