import type { CatalogEntry, CurpGroup } from './types';

/**
 * CURP validation failures (spec: Errors, CURP validation failures). Provider failures carry `codigoRespuesta`
 * (the registry was not queried); registry failures carry the pair (`tipoError`, `codigoError`) and fall in one
 * of three groups.
 */

export type CurpProviderKey = '01' | '02-svbi' | '02-monthly' | '02-minute' | '02-daily' | '03' | '05';

export interface CurpProviderEntry extends CatalogEntry {
  codigoRespuesta: '01' | '02' | '03' | '05';
  /** `descripcionRespuesta` as the spec shows it. */
  descripcion: string;
}

export const curpProviderCatalog: Record<CurpProviderKey, CurpProviderEntry> = {
  '01': {
    codigoRespuesta: '01',
    descripcion: 'SIN RESPUESTA DE RENAPO',
    en: 'RENAPO did not answer the CURP provider.',
    es: 'RENAPO no respondió al proveedor de validación de CURP.',
    adviceEn: 'Retry may help: try again in a few minutes.',
    adviceEs: 'Reintentar puede ayudar: intenta de nuevo en unos minutos.',
    retryable: true,
  },
  '02-svbi': {
    codigoRespuesta: '02',
    descripcion: 'SERVIDOR SVBI NO RESPONDE',
    en: "The CURP provider's server is not responding.",
    es: 'El servidor del proveedor de validación de CURP no responde.',
    adviceEn: 'Retry may help: try again in a few minutes.',
    adviceEs: 'Reintentar puede ayudar: intenta de nuevo en unos minutos.',
    retryable: true,
  },
  '02-monthly': {
    codigoRespuesta: '02',
    descripcion: 'monthly transaction limit reached',
    en: "The CURP provider's monthly transaction limit was reached.",
    es: 'Se alcanzó el límite mensual de transacciones del proveedor de CURP.',
    adviceEn: 'CURP validation is blocked until next month or until the limit is raised; contact your account manager.',
    adviceEs:
      'La validación de CURP queda bloqueada hasta el próximo mes o hasta que se amplíe el límite; contacta a tu ejecutivo de cuenta.',
    retryable: false,
  },
  '02-minute': {
    codigoRespuesta: '02',
    descripcion: 'per-minute transaction limit reached',
    en: "The CURP provider's per-minute transaction limit was reached.",
    es: 'Se alcanzó el límite de transacciones por minuto del proveedor de CURP.',
    adviceEn: 'Wait a minute, then try again.',
    adviceEs: 'Espera un minuto e intenta de nuevo.',
    retryable: true,
  },
  '02-daily': {
    codigoRespuesta: '02',
    descripcion: 'daily transaction limit reached',
    en: "The CURP provider's daily transaction limit was reached.",
    es: 'Se alcanzó el límite diario de transacciones del proveedor de CURP.',
    adviceEn: 'Try again tomorrow, or ask your account manager for a higher limit.',
    adviceEs: 'Intenta de nuevo mañana o pide a tu ejecutivo de cuenta un límite mayor.',
    retryable: false,
  },
  '03': {
    codigoRespuesta: '03',
    descripcion: 'LOS DATOS SON INCORRECTOS',
    en: 'The CURP provider says the data sent is incorrect.',
    es: 'El proveedor de CURP indica que los datos enviados son incorrectos.',
    adviceEn: 'Check the 18 characters of the CURP with the person and try again.',
    adviceEs: 'Revisa con la persona los 18 caracteres del CURP e intenta de nuevo.',
    retryable: false,
  },
  '05': {
    codigoRespuesta: '05',
    descripcion: 'ERROR INESPERADO',
    en: 'The CURP provider hit an unexpected error.',
    es: 'El proveedor de CURP tuvo un error inesperado.',
    adviceEn: 'Try again; if it keeps failing, contact support.',
    adviceEs: 'Intenta de nuevo; si sigue fallando, contacta a soporte.',
    retryable: true,
  },
};

/** Picks the provider entry; code 02 has four meanings told apart by `descripcionRespuesta`. */
export function curpProviderKey(codigoRespuesta: string, descripcion: string | undefined): CurpProviderKey | undefined {
  switch (codigoRespuesta) {
    case '01':
    case '03':
    case '05':
      return codigoRespuesta;
    case '02': {
      const d = (descripcion ?? '').toLowerCase();
      if (/mensual|month/.test(d)) return '02-monthly';
      if (/minut/.test(d)) return '02-minute';
      if (/diari|daily|\bd[ií]a\b/.test(d)) return '02-daily';
      return '02-svbi';
    }
    default:
      return undefined;
  }
}

export interface CurpRegistryEntry extends CatalogEntry {
  group: CurpGroup;
}

const GROUP_1: Record<string, Omit<CurpRegistryEntry, 'group' | 'retryable'>> = {
  '01-04': {
    en: 'This CURP was deactivated by RENAPO.',
    es: 'Este CURP fue dado de baja por RENAPO.',
    adviceEn: 'Ask the person for their current CURP.',
    adviceEs: 'Pide a la persona su CURP vigente.',
  },
  '01-06': {
    en: "This CURP is not in RENAPO's records.",
    es: 'Este CURP no está en los registros de RENAPO.',
    adviceEn: 'Check the 18 characters with the person.',
    adviceEs: 'Revisa los 18 caracteres con la persona.',
  },
  '01-09': {
    en: 'The CURP is badly formed.',
    es: 'El CURP está mal formado.',
    adviceEn: 'Check the 18 characters with the person: letters and digits in the order of their CURP document.',
    adviceEs: 'Revisa los 18 caracteres con la persona: letras y dígitos en el orden de su constancia de CURP.',
  },
  '01-20': {
    en: "RENAPO holds more than one CURP for this person's data.",
    es: 'RENAPO tiene más de un CURP para los datos de esta persona.',
    adviceEn: 'Ask the person which CURP they use; they may need to resolve the duplicate with RENAPO.',
    adviceEs: 'Pregunta a la persona cuál CURP usa; puede que deba aclarar el duplicado con RENAPO.',
  },
  '01-90': {
    en: "The CURP's status in RENAPO is not acceptable.",
    es: 'El estatus del CURP en RENAPO no es aceptable.',
    adviceEn: 'Ask the person to check the status of their CURP with RENAPO.',
    adviceEs: 'Pide a la persona que revise el estatus de su CURP con RENAPO.',
  },
  '03-01': {
    en: 'A field does not meet the required format.',
    es: 'Un campo no cumple con el formato requerido.',
    adviceEn: 'Check the value entered: 18 characters, capital letters and digits.',
    adviceEs: 'Revisa el valor capturado: 18 caracteres, letras mayúsculas y dígitos.',
  },
};

export const CURP_GROUP_2_PAIRS = [
  '01-13',
  '01-14',
  '01-18',
  '02-01',
  '02-02',
  '02-03',
  '04-01',
  '99-01',
  '99-02',
] as const;
export const CURP_GROUP_3_PAIRS = [
  '01-01',
  '01-02',
  '01-03',
  '01-05',
  '01-07',
  '01-08',
  '01-10',
  '01-11',
  '01-12',
  '01-15',
  '01-16',
  '01-17',
  '01-19',
  '03-02',
  '05-01',
] as const;

const GROUP_2_TEXT = {
  en: 'Connection error inside RENAPO.',
  es: 'Error de conexión dentro de RENAPO.',
  adviceEn: 'Retry may help: this is usually transient; try again in a few minutes.',
  adviceEs: 'Reintentar puede ayudar: suele ser temporal; intenta de nuevo en unos minutos.',
};

const GROUP_3_TEXT = {
  en: "Internal error in RENAPO's service; this should not happen.",
  es: 'Error interno en el servicio de RENAPO; no debería ocurrir.',
  adviceEn: 'Contact technical support and give them the error code.',
  adviceEs: 'Contacta a soporte técnico y proporciónales el código de error.',
};

/** Every registry (tipoError-codigoError) pair of groups 1-3, keyed `TT-CC`. */
export const curpRegistryCatalog: Record<string, CurpRegistryEntry> = Object.fromEntries([
  ...Object.entries(GROUP_1).map(([k, t]) => [k, { ...t, group: 1, retryable: false }] as const),
  ...CURP_GROUP_2_PAIRS.map((k) => [k, { ...GROUP_2_TEXT, group: 2, retryable: true }] as const),
  ...CURP_GROUP_3_PAIRS.map((k) => [k, { ...GROUP_3_TEXT, group: 3, retryable: false }] as const),
]);

/** Advice per group, for a pair the spec does not list. */
export const curpGroupAdvice: Record<CurpGroup, { adviceEn: string; adviceEs: string }> = {
  1: { adviceEn: 'Check the CURP entered with the person.', adviceEs: 'Revisa con la persona el CURP capturado.' },
  2: { adviceEn: GROUP_2_TEXT.adviceEn, adviceEs: GROUP_2_TEXT.adviceEs },
  3: { adviceEn: GROUP_3_TEXT.adviceEn, adviceEs: GROUP_3_TEXT.adviceEs },
};

/** No connection to the provider at all: (99, 01) with `error.message` and `result` saying the service is unavailable. */
export const curpServiceUnavailable: CurpRegistryEntry = {
  en: 'The CURP validation service is unavailable: no connection to the provider.',
  es: 'El servicio de validación de CURP no está disponible: no hay conexión con el proveedor.',
  adviceEn: 'Retry may help: try again in a few minutes; if it persists, contact support.',
  adviceEs: 'Reintentar puede ayudar: intenta de nuevo en unos minutos; si continúa, contacta a soporte.',
  retryable: true,
  group: 2,
};

/** Codes may arrive as numbers or unpadded strings; the catalog keys use two digits. */
export function twoDigits(code: unknown): string | undefined {
  if (typeof code === 'number' && Number.isInteger(code) && code >= 0) return String(code).padStart(2, '0');
  if (typeof code === 'string' && /^\d{1,2}$/.test(code.trim())) return code.trim().padStart(2, '0');
  return undefined;
}
