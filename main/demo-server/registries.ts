import { curpCheckDigit } from '../../common/rules/curp';
import type { AddCurpResponse, ValidateRfcResponse } from '../../common/omni';

/**
 * The demo stand-ins for the SAT RFC registry and for RENAPO behind the CURP provider. Every documented answer
 * of the spec has one CURP here; docs/demo-server.md lists them.
 */

const SERVICE_UNAVAILABLE = 'El servicio de validación de CURP no está disponible en este momento. Intente más tarde.';

export type CurpOutcome =
  | { kind: 'valid' }
  | { kind: 'provider'; codigoRespuesta: '01' | '02' | '03' | '05'; descripcionRespuesta: string }
  | { kind: 'registry'; group: 1 | 2 | 3; tipoError: string; codigoError: string; message: string }
  | { kind: 'unavailable' };

export interface CurpCase {
  curp: string;
  outcome: CurpOutcome;
}

/** `DEMO` + YY (90 provider, 91-93 registry group, 99 unavailable) + 01 + DD (case number) + HDFMNS0 + check digit. */
function demoCurp(yy: string, dd: number): string {
  const first17 = `DEMO${yy}01${String(dd).padStart(2, '0')}HDFMNS0`;
  return first17 + curpCheckDigit(first17);
}

const providerFailures: Array<Extract<CurpOutcome, { kind: 'provider' }>> = (
  [
    ['01', 'SIN RESPUESTA DE RENAPO'],
    ['02', 'SERVIDOR SVBI NO RESPONDE'],
    ['02', 'monthly transaction limit reached'],
    ['02', 'per-minute transaction limit reached'],
    ['02', 'daily transaction limit reached'],
    ['03', 'LOS DATOS SON INCORRECTOS'],
    ['05', 'ERROR INESPERADO'],
  ] as const
).map(([codigoRespuesta, descripcionRespuesta]) => ({ kind: 'provider', codigoRespuesta, descripcionRespuesta }));

const group1: Array<[string, string, string]> = [
  ['01', '04', 'La CURP fue dada de baja anteriormente.'],
  ['01', '06', 'La CURP no se encuentra en la base de datos de RENAPO.'],
  ['01', '09', 'La clave CURP está mal formada.'],
  ['01', '20', 'Existe más de una CURP para los datos proporcionados.'],
  ['01', '90', 'El estatus de la CURP no es aceptable.'],
  ['03', '01', 'El campo CURP no cumple con el formato especificado.'],
];
const group2: Array<[string, string]> = [
  ['01', '13'],
  ['01', '14'],
  ['01', '18'],
  ['02', '01'],
  ['02', '02'],
  ['02', '03'],
  ['04', '01'],
  ['99', '01'],
  ['99', '02'],
];
const group3: Array<[string, string]> = [
  ['01', '01'],
  ['01', '02'],
  ['01', '03'],
  ['01', '05'],
  ['01', '07'],
  ['01', '08'],
  ['01', '10'],
  ['01', '11'],
  ['01', '12'],
  ['01', '15'],
  ['01', '16'],
  ['01', '17'],
  ['01', '19'],
  ['03', '02'],
  ['05', '01'],
];

export const curpCases: CurpCase[] = [
  { curp: 'HEGG560427MVZRRL04', outcome: { kind: 'valid' } },
  { curp: 'MAAR790213HMNRLF03', outcome: { kind: 'valid' } },
  { curp: demoCurp('89', 1), outcome: { kind: 'valid' } },
  ...providerFailures.map((outcome, i) => ({ curp: demoCurp('90', i + 1), outcome })),
  ...group1.map(([tipoError, codigoError, message], i) => ({
    curp: demoCurp('91', i + 1),
    outcome: { kind: 'registry' as const, group: 1 as const, tipoError, codigoError, message },
  })),
  ...group2.map(([tipoError, codigoError], i) => ({
    curp: demoCurp('92', i + 1),
    outcome: {
      kind: 'registry' as const,
      group: 2 as const,
      tipoError,
      codigoError,
      message: 'Error de conexión con la base de datos de RENAPO. Intente nuevamente.',
    },
  })),
  ...group3.map(([tipoError, codigoError], i) => ({
    curp: demoCurp('93', i + 1),
    outcome: {
      kind: 'registry' as const,
      group: 3 as const,
      tipoError,
      codigoError,
      message: 'Error interno de RENAPO. Contacte a soporte técnico.',
    },
  })),
  { curp: demoCurp('99', 1), outcome: { kind: 'unavailable' } },
];

const curpIndex = new Map(curpCases.map((c) => [c.curp, c.outcome]));

/** A well-formed CURP the demo registry does not hold is "not found" (group 1, 01/06), as RENAPO would say. */
export function lookupCurp(curp: string): CurpOutcome {
  return (
    curpIndex.get(curp) ?? { kind: 'registry', group: 1, tipoError: '01', codigoError: '06', message: group1[1]![2] }
  );
}

export function curpResponse(curp: string, outcome: CurpOutcome, folio: string): AddCurpResponse {
  switch (outcome.kind) {
    case 'valid':
      return {
        success: true,
        result: 'CURP válida: registrada y vigente en RENAPO.',
        renapo_valid: true,
        curp,
        statusCurp: 'AN',
      };
    case 'provider':
      return {
        success: false,
        result: outcome.descripcionRespuesta,
        error: {
          codigoRespuesta: outcome.codigoRespuesta,
          descripcionRespuesta: outcome.descripcionRespuesta,
          codigoError: null,
          tipoError: null,
          referencia: folio,
          respuestaRENAPO: null,
        },
      };
    case 'registry':
      return {
        success: false,
        result: outcome.message,
        renapo_valid: false,
        error: { tipoError: outcome.tipoError, codigoError: outcome.codigoError, message: outcome.message },
      };
    case 'unavailable':
      return {
        success: false,
        result: SERVICE_UNAVAILABLE,
        renapo_valid: false,
        error: { tipoError: '99', codigoError: '01', message: SERVICE_UNAVAILABLE },
      };
  }
}

export interface RfcRecord {
  rfc: string;
  rfcType: 'PERSONA_FISICA' | 'PERSONA_MORAL';
  status: string;
  message: string;
}

/** RFCs the demo SAT registry knows. The two generic SAT RFCs do not follow the check-digit rule and are accepted as such. */
export const rfcRegistry: RfcRecord[] = [
  {
    rfc: 'GODE561231GR8',
    rfcType: 'PERSONA_FISICA',
    status: 'ACTIVO',
    message: 'RFC registrado en el padrón de contribuyentes.',
  },
  {
    rfc: 'MAG041126GT8',
    rfcType: 'PERSONA_MORAL',
    status: 'ACTIVO',
    message: 'RFC registrado en el padrón de contribuyentes.',
  },
  {
    // Its check digit (0) is not the one the algorithm gives (9): SAT has issued RFCs like this, and lists them.
    rfc: 'SOTO800101110',
    rfcType: 'PERSONA_FISICA',
    status: 'ACTIVO',
    message: 'RFC registrado en el padrón de contribuyentes.',
  },
  {
    rfc: 'XAXX010101000',
    rfcType: 'PERSONA_FISICA',
    status: 'GENERICO',
    message: 'RFC genérico para operaciones con el público en general.',
  },
  {
    rfc: 'XEXX010101000',
    rfcType: 'PERSONA_FISICA',
    status: 'GENERICO',
    message: 'RFC genérico para residentes en el extranjero.',
  },
];
export const GENERIC_RFCS = new Set(['XAXX010101000', 'XEXX010101000']);

export function rfcResponse(rfc: string): ValidateRfcResponse {
  const record = rfcRegistry.find((r) => r.rfc === rfc);
  if (record) {
    return {
      validRFC: true,
      status: record.status,
      message: record.message,
      rfcType: record.rfcType,
      messageCode: 'RFC_VALIDO',
      errorMessage: null,
    };
  }
  return {
    validRFC: false,
    status: 'NO_ENCONTRADO',
    message: 'El RFC tiene un formato correcto pero no está registrado en el padrón de contribuyentes.',
    rfcType: rfc.length === 13 ? 'PERSONA_FISICA' : 'PERSONA_MORAL',
    messageCode: 'RFC_NO_ENCONTRADO',
    errorMessage: 'RFC not found in the taxpayer registry.',
  };
}
