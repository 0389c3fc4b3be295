import { checkCurp, CURP_STATES, curpCheckDigit, normalizeCurp, type CurpCheck } from './curp';
import { checkRfc, normalizeRfc, type RfcCheck } from './rfc';

/**
 * The local RFC / CURP format checks worded for the user in English and Spanish. Pure (no Node imports): the
 * renderer runs it as the user types, the batch runs it before spending a service call.
 */

export type Bilingual = { en: string; es: string };

export type LocalCheck =
  | {
      valid: true;
      value: string;
      summary: Bilingual;
      /** Something the service decides (an RFC check digit that does not match): shown, not a verdict. */
      warning?: { message: Bilingual; position: number };
    }
  | { valid: false; value: string; reason: string; position?: number; message: Bilingual };

const RFC_PART: Record<string, Bilingual> = {
  name: { en: 'a letter (A–Z, Ñ or &)', es: 'una letra (A–Z, Ñ o &)' },
  date: { en: 'a digit of the date (YYMMDD)', es: 'un dígito de la fecha (AAMMDD)' },
  homoclave: { en: 'a letter or digit of the homoclave', es: 'una letra o dígito de la homoclave' },
  digit: { en: 'the check digit (0–9 or A)', es: 'el dígito verificador (0–9 o A)' },
};

/** SAT's generic RFCs (general public, foreign residents) are valid although they break the check-digit rule. */
export const GENERIC_RFCS: ReadonlySet<string> = new Set(['XAXX010101000', 'XEXX010101000']);

export function describeRfc(input: string): LocalCheck {
  const check: RfcCheck = checkRfc(input);
  const rfc = normalizeRfc(input);
  if (GENERIC_RFCS.has(rfc)) {
    return {
      valid: true,
      value: rfc,
      summary: {
        en: "SAT's generic RFC: valid by definition, it identifies no one in particular.",
        es: 'RFC genérico del SAT: válido por definición, no identifica a una persona en particular.',
      },
    };
  }
  if (check.valid) {
    const kind =
      check.personType === 'fisica' ? { en: 'person', es: 'persona física' } : { en: 'company', es: 'persona moral' };
    const digit = check.checkDigit;
    if (digit) {
      return {
        valid: true,
        value: check.rfc,
        summary: { en: `The format is correct (${kind.en}).`, es: `El formato es correcto (${kind.es}).` },
        warning: {
          position: digit.position,
          message: {
            en: `The check digit is "${digit.found}" where the other characters give "${digit.expected}". SAT has issued some RFCs like this; the service decides.`,
            es: `El dígito verificador es "${digit.found}" y los demás caracteres dan "${digit.expected}". El SAT ha emitido algunos RFC así; el servicio decide.`,
          },
        },
      };
    }
    return {
      valid: true,
      value: check.rfc,
      summary: {
        en: `Format and check digit are correct (${kind.en}).`,
        es: `El formato y el dígito verificador son correctos (${kind.es}).`,
      },
    };
  }
  const at = check.position;
  const nameLength = rfc.length === 12 ? 3 : 4;
  const base = {
    valid: false as const,
    value: rfc,
    reason: check.reason,
    ...(at === undefined ? {} : { position: at }),
  };
  switch (check.reason) {
    case 'empty':
      return { ...base, message: { en: 'Type an RFC.', es: 'Escribe un RFC.' } };
    case 'length':
      return {
        ...base,
        message: {
          en: `An RFC has 13 characters (person) or 12 (company); this one has ${rfc.length}.`,
          es: `Un RFC tiene 13 caracteres (persona física) o 12 (persona moral); este tiene ${rfc.length}.`,
        },
      };
    case 'characters': {
      const i = at ?? 0;
      const part =
        i < nameLength
          ? RFC_PART.name!
          : i < nameLength + 6
            ? RFC_PART.date!
            : i < rfc.length - 1
              ? RFC_PART.homoclave!
              : RFC_PART.digit!;
      return {
        ...base,
        message: {
          en: `Character ${i + 1} ("${rfc[i]}") must be ${part.en}.`,
          es: `El carácter ${i + 1} ("${rfc[i]}") debe ser ${part.es}.`,
        },
      };
    }
    case 'date': {
      const date = rfc.slice(nameLength, nameLength + 6);
      return {
        ...base,
        message: {
          en: `Characters ${nameLength + 1}–${nameLength + 6} (${date}) are not a valid date (YYMMDD).`,
          es: `Los caracteres ${nameLength + 1}–${nameLength + 6} (${date}) no son una fecha válida (AAMMDD).`,
        },
      };
    }
  }
}

const CURP_PART: Bilingual[] = [
  { en: 'a letter (first surname initial)', es: 'una letra (inicial del primer apellido)' },
  {
    en: 'a vowel (first inner vowel of the first surname) or X',
    es: 'una vocal (primera vocal interna del primer apellido) o X',
  },
  { en: 'a letter (second surname initial)', es: 'una letra (inicial del segundo apellido)' },
  { en: 'a letter (first name initial)', es: 'una letra (inicial del nombre)' },
  ...Array.from({ length: 6 }, () => ({
    en: 'a digit of the birth date (YYMMDD)',
    es: 'un dígito de la fecha de nacimiento (AAMMDD)',
  })),
  { en: 'H, M or X (sex)', es: 'H, M o X (sexo)' },
  { en: 'a letter of the state code', es: 'una letra de la clave de entidad' },
  { en: 'a letter of the state code', es: 'una letra de la clave de entidad' },
  ...Array.from({ length: 3 }, () => ({
    en: 'a consonant (inner consonants of surnames and name)',
    es: 'una consonante (consonantes internas de apellidos y nombre)',
  })),
  { en: 'a digit or letter (homonym differentiator)', es: 'un dígito o letra (diferenciador de homonimia)' },
  { en: 'a digit (check digit)', es: 'un dígito (dígito verificador)' },
];

export function describeCurp(input: string): LocalCheck {
  const check: CurpCheck = checkCurp(input);
  const curp = normalizeCurp(input);
  if (check.valid) {
    const state = CURP_STATES[check.state] ?? check.state;
    return {
      valid: true,
      value: check.curp,
      summary: {
        en: `Format and check digit are correct (born ${check.birthDate}, ${state}).`,
        es: `El formato y el dígito verificador son correctos (nacimiento ${check.birthDate}, ${state}).`,
      },
    };
  }
  const at = check.position;
  const base = {
    valid: false as const,
    value: curp,
    reason: check.reason,
    ...(at === undefined ? {} : { position: at }),
  };
  switch (check.reason) {
    case 'empty':
      return { ...base, message: { en: 'Type a CURP.', es: 'Escribe un CURP.' } };
    case 'length':
      return {
        ...base,
        message: {
          en: `A CURP has 18 characters; this one has ${curp.length}.`,
          es: `Un CURP tiene 18 caracteres; este tiene ${curp.length}.`,
        },
      };
    case 'characters': {
      const i = at ?? 0;
      const part = CURP_PART[i]!;
      return {
        ...base,
        message: {
          en: `Character ${i + 1} ("${curp[i]}") must be ${part.en}.`,
          es: `El carácter ${i + 1} ("${curp[i]}") debe ser ${part.es}.`,
        },
      };
    }
    case 'date':
      return {
        ...base,
        message: {
          en: `Characters 5–10 (${curp.slice(4, 10)}) are not a real birth date (YYMMDD; character 17 sets the century).`,
          es: `Los caracteres 5–10 (${curp.slice(4, 10)}) no son una fecha de nacimiento real (AAMMDD; el carácter 17 fija el siglo).`,
        },
      };
    case 'sex':
      return {
        ...base,
        message: {
          en: `Character 11 ("${curp[10]}") must be H, M or X.`,
          es: `El carácter 11 ("${curp[10]}") debe ser H, M o X.`,
        },
      };
    case 'state':
      return {
        ...base,
        message: {
          en: `Characters 12–13 ("${curp.slice(11, 13)}") are not a Mexican state code (NE for born abroad).`,
          es: `Los caracteres 12–13 ("${curp.slice(11, 13)}") no son una clave de entidad (NE para nacidos en el extranjero).`,
        },
      };
    default: {
      const expected = curpCheckDigit(curp.slice(0, 17));
      return {
        ...base,
        message: {
          en: `The check digit is "${curp[17]}" but the first 17 characters give "${expected}": a character was probably mistyped.`,
          es: `El dígito verificador es "${curp[17]}" pero los primeros 17 caracteres dan "${expected}": probablemente se capturó mal un carácter.`,
        },
      };
    }
  }
}
