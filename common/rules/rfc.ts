/**
 * RFC (Registro Federal de Contribuyentes) format rules, as the SAT publishes them: 13 characters for a person
 * (4 letters), 12 for a company (3 letters), then a YYMMDD date, a 2-character homoclave and a check digit.
 * Pure functions without Node imports: the renderer reuses them for as-you-type checks.
 *
 * A check digit that does not match is not a format error: SAT has issued RFCs whose last character breaks the rule
 * (python-stdnum skips that test by default for this reason), so it is returned as `checkDigit` on a valid check and
 * the service decides.
 */

export type RfcFailureReason = 'empty' | 'length' | 'characters' | 'date';

export type RfcCheck =
  | {
      valid: true;
      rfc: string;
      personType: 'fisica' | 'moral';
      birthOrIncorporation: { year2: number; month: number; day: number };
      /** Set when the last character is not the computed check digit: a warning, not a verdict. */
      checkDigit?: { found: string; expected: string; position: number };
    }
  | { valid: false; reason: RfcFailureReason; message: string; position?: number };

const RFC_CHARSET = '0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ';

/**
 * Characters a paste brings along that nobody sees (zero-width space and joiner, BOM, bidi controls, soft hyphen,
 * control codes, variation selectors, fillers: every default-ignorable character): never part of a code, and left in they make "14 characters" of 13 and reach the service.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

/** The invisible characters in `input` (other than tabs and line ends), each once as U+XXXX: what the screen names. */
export function invisibleCharacters(input: string): string[] {
  const found = new Set<string>();
  for (const [ch] of input.matchAll(INVISIBLE))
    if (!/[\t\n\v\f\r]/.test(ch)) found.add(`U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
  return [...found];
}

/** A code as typed, read as written: invisible characters dropped, NFKC folding fullwidth Ａ to A and N + ◌̃ to Ñ. */
export function foldCodeText(input: string): string {
  return input.replace(INVISIBLE, '').normalize('NFKC');
}

/** Upper-cases and drops the spaces, hyphens and dots people write RFCs with; keeps Ñ and & (legal in the name part). */
export function normalizeRfc(input: string): string {
  return foldCodeText(input)
    .replace(/[\s.-]/g, '')
    .toUpperCase();
}

/** Check digit of the first 11 (company) or 12 (person) characters: weights 13..2 over a 12-char, space-padded key, mod 11. */
export function rfcCheckDigit(withoutDigit: string): string {
  const key = withoutDigit.length === 11 ? ` ${withoutDigit}` : withoutDigit;
  let sum = 0;
  for (let i = 0; i < 12; i++) {
    const value = RFC_CHARSET.indexOf(key[i] ?? ' ');
    sum += (value < 0 ? 0 : value) * (13 - i);
  }
  const rest = 11 - (sum % 11);
  if (rest === 11) return '0';
  if (rest === 10) return 'A';
  return String(rest);
}

export function isValidYyMmDd(yy: number, mm: number, dd: number): boolean {
  if (mm < 1 || mm > 12 || dd < 1) return false;
  // The century is not in the key: a date is valid if it exists in either 19yy or 20yy (matters only for 29 Feb).
  return [1900 + yy, 2000 + yy].some((year) => dd <= new Date(Date.UTC(year, mm, 0)).getUTCDate());
}

export function checkRfc(input: string): RfcCheck {
  const rfc = normalizeRfc(input);
  if (rfc.length === 0) return { valid: false, reason: 'empty', message: 'The RFC is empty.' };
  if (rfc.length !== 12 && rfc.length !== 13) {
    return {
      valid: false,
      reason: 'length',
      message: `An RFC has 13 characters (person) or 12 (company); this one has ${rfc.length}.`,
    };
  }
  // A company RFC has a digit in position 4; four leading letters mean a person's RFC that is one character short.
  if (rfc.length === 12 && /^[A-ZÑ&]{4}/.test(rfc)) {
    return {
      valid: false,
      reason: 'length',
      message: "It starts with 4 letters like a person's RFC, which has 13 characters; this one has 12.",
    };
  }
  const nameLength = rfc.length === 13 ? 4 : 3;
  for (let i = 0; i < rfc.length; i++) {
    const ch = rfc[i]!;
    const ok =
      i < nameLength
        ? /[A-ZÑ&]/.test(ch)
        : i < nameLength + 6
          ? /[0-9]/.test(ch)
          : i < rfc.length - 1
            ? /[A-Z0-9]/.test(ch)
            : /[0-9A]/.test(ch);
    if (!ok) {
      const part =
        i < nameLength
          ? 'a letter'
          : i < nameLength + 6
            ? 'a digit of the date'
            : i < rfc.length - 1
              ? 'a letter or digit of the homoclave'
              : 'the check digit (0-9 or A)';
      return {
        valid: false,
        reason: 'characters',
        message: `Character ${i + 1} ("${ch}") must be ${part}.`,
        position: i,
      };
    }
  }
  const yy = Number(rfc.slice(nameLength, nameLength + 2));
  const mm = Number(rfc.slice(nameLength + 2, nameLength + 4));
  const dd = Number(rfc.slice(nameLength + 4, nameLength + 6));
  if (!isValidYyMmDd(yy, mm, dd)) {
    return {
      valid: false,
      reason: 'date',
      message: `Characters ${nameLength + 1}-${nameLength + 6} (${rfc.slice(nameLength, nameLength + 6)}) are not a valid YYMMDD date.`,
      position: nameLength,
    };
  }
  const expected = rfcCheckDigit(rfc.slice(0, -1));
  const found = rfc.at(-1)!;
  return {
    valid: true,
    rfc,
    personType: nameLength === 4 ? 'fisica' : 'moral',
    birthOrIncorporation: { year2: yy, month: mm, day: dd },
    ...(found === expected ? {} : { checkDigit: { found, expected, position: rfc.length - 1 } }),
  };
}
