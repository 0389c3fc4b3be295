/**
 * CURP (Clave Única de Registro de Población) format rules as RENAPO defines them: 18 characters — 4 letters
 * from the name, YYMMDD birth date, sex (H, M or X), a 2-letter state code, 3 internal consonants, a homonym
 * differentiator (digit before 2000, letter from 2000) and a check digit.
 * Pure functions without Node imports: the renderer reuses them for as-you-type checks.
 */
import { foldCodeText, isValidYyMmDd } from './rfc';

export type CurpFailureReason = 'empty' | 'length' | 'characters' | 'date' | 'sex' | 'state' | 'checkDigit';

export type CurpCheck =
  | { valid: true; curp: string; birthDate: string; sex: 'H' | 'M' | 'X'; state: string }
  | { valid: false; reason: CurpFailureReason; message: string; position?: number };

/** RENAPO state codes, plus NE for people born abroad. */
export const CURP_STATES: Readonly<Record<string, string>> = {
  AS: 'Aguascalientes',
  BC: 'Baja California',
  BS: 'Baja California Sur',
  CC: 'Campeche',
  CL: 'Coahuila',
  CM: 'Colima',
  CS: 'Chiapas',
  CH: 'Chihuahua',
  DF: 'Ciudad de México',
  DG: 'Durango',
  GT: 'Guanajuato',
  GR: 'Guerrero',
  HG: 'Hidalgo',
  JC: 'Jalisco',
  MC: 'Estado de México',
  MN: 'Michoacán',
  MS: 'Morelos',
  NT: 'Nayarit',
  NL: 'Nuevo León',
  OC: 'Oaxaca',
  PL: 'Puebla',
  QT: 'Querétaro',
  QR: 'Quintana Roo',
  SP: 'San Luis Potosí',
  SL: 'Sinaloa',
  SR: 'Sonora',
  TC: 'Tabasco',
  TS: 'Tamaulipas',
  TL: 'Tlaxcala',
  VZ: 'Veracruz',
  YN: 'Yucatán',
  ZS: 'Zacatecas',
  NE: 'Nacido en el extranjero',
};

const CURP_CHARSET = '0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ';

/** Upper-cases and drops the spaces, hyphens and dots people write CURPs with, and invisible characters (foldCodeText). */
export function normalizeCurp(input: string): string {
  return foldCodeText(input)
    .replace(/[\s.-]/g, '')
    .toUpperCase();
}

/** Check digit of the first 17 characters: weights 18..2, mod 10. */
export function curpCheckDigit(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Math.max(0, CURP_CHARSET.indexOf(first17[i] ?? '0')) * (18 - i);
  return String((10 - (sum % 10)) % 10);
}

const POSITION_RULES: ReadonlyArray<[RegExp, string]> = [
  [/[A-Z]/, 'a letter (first surname initial)'],
  [/[AEIOUX]/, 'a vowel (first inner vowel of the first surname) or X'],
  [/[A-Z]/, 'a letter (second surname initial)'],
  [/[A-Z]/, 'a letter (first name initial)'],
  ...Array.from({ length: 6 }, (): [RegExp, string] => [/[0-9]/, 'a digit of the birth date (YYMMDD)']),
  [/[A-Z]/, 'H, M or X (sex)'],
  [/[A-Z]/, 'a letter of the state code'],
  [/[A-Z]/, 'a letter of the state code'],
  ...Array.from({ length: 3 }, (): [RegExp, string] => [
    /[B-DF-HJ-NP-TV-ZÑ]/,
    'a consonant (inner consonants of surnames and name)',
  ]),
  [/[0-9A-Z]/, 'a digit or letter (homonym differentiator)'],
  [/[0-9]/, 'a digit (check digit)'],
];

export function checkCurp(input: string): CurpCheck {
  const curp = normalizeCurp(input);
  if (curp.length === 0) return { valid: false, reason: 'empty', message: 'The CURP is empty.' };
  if (curp.length !== 18)
    return { valid: false, reason: 'length', message: `A CURP has 18 characters; this one has ${curp.length}.` };
  for (let i = 0; i < 18; i++) {
    const [pattern, what] = POSITION_RULES[i]!;
    if (!pattern.test(curp[i]!)) {
      return {
        valid: false,
        reason: 'characters',
        message: `Character ${i + 1} ("${curp[i]}") must be ${what}.`,
        position: i,
      };
    }
  }
  const yy = Number(curp.slice(4, 6));
  const mm = Number(curp.slice(6, 8));
  const dd = Number(curp.slice(8, 10));
  if (!isValidYyMmDd(yy, mm, dd)) {
    return {
      valid: false,
      reason: 'date',
      message: `Characters 5-10 (${curp.slice(4, 10)}) are not a valid YYMMDD birth date.`,
      position: 4,
    };
  }
  const sex = curp[10]!;
  if (sex !== 'H' && sex !== 'M' && sex !== 'X') {
    return { valid: false, reason: 'sex', message: `Character 11 ("${sex}") must be H, M or X.`, position: 10 };
  }
  const state = curp.slice(11, 13);
  if (!(state in CURP_STATES)) {
    return {
      valid: false,
      reason: 'state',
      message: `Characters 12-13 ("${state}") are not a Mexican state code (or NE for born abroad).`,
      position: 11,
    };
  }
  // The differentiator is a digit for people born up to 1999 and a letter from 2000 on: it fixes the century.
  const century = /[0-9]/.test(curp[16]!) ? 1900 : 2000;
  if (dd > new Date(Date.UTC(century + yy, mm, 0)).getUTCDate()) {
    return {
      valid: false,
      reason: 'date',
      message: `${century + yy}-${curp.slice(6, 8)}-${curp.slice(8, 10)} does not exist (character 17 places the birth in the ${century === 1900 ? '1900s' : '2000s'}).`,
      position: 4,
    };
  }
  const expected = curpCheckDigit(curp.slice(0, 17));
  if (curp[17] !== expected) {
    return {
      valid: false,
      reason: 'checkDigit',
      message: `The check digit is "${curp[17]}" but the first 17 characters give "${expected}"; a character was probably mistyped.`,
      position: 17,
    };
  }
  return {
    valid: true,
    curp,
    birthDate: `${century + yy}-${curp.slice(6, 8)}-${curp.slice(8, 10)}`,
    sex,
    state,
  };
}
