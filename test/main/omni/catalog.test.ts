import { describe, expect, it } from 'vitest';
import {
  authErrorCatalog,
  clientErrorCatalog,
  CURP_GROUP_2_PAIRS,
  CURP_GROUP_3_PAIRS,
  curpProviderCatalog,
  curpRegistryCatalog,
  explain,
  explainCurp,
  faceStatusCatalog,
  failReasonCatalog,
  type CatalogEntry,
} from '../../../main/omni/catalog';

// The lists exactly as omni-interface.md gives them (copied, so a catalog that drifts from the spec fails here).
const SPEC_FACE = [4010, 4019, 4077, 4078];
const SPEC_FAIL_REASONS =
  'UNKNOWN_DOCUMENT_TYPE, WRONG_DOCUMENT_SIDE, WRONG_ONE_SIDED_DOCUMENT, UNFOLDED_DOCUMENT_PAGE_MISMATCH, WRONG_UNFOLDED_DOCUMENT, DOCUMENT_NOT_READABLE, UNABLE_TO_ALIGN_DOCUMENT, ID_TYPE_UNACCEPTABLE, UNEXPECTED_ERROR_OCCURRED, DIGITAL_ID_REQUESTED_BUT_OTHER_PROVIDED'.split(
    ', ',
  );
const SPEC_AUTH_NAMES =
  'INACTIVE_SESSION, NONEXISTENT_CUSTOMER, LENSES_DETECTED, FACE_MASK_DETECTED, HEAD_COVER_DETECTED, CLOSED_EYES_DETECTED, FACE_TOO_DARK, SPOOF_ATTEMPT_DETECTED, USER_IS_NOT_RECOGNIZED, SELFIE_IMAGE_LOW_QUALITY, MULTIPLE_FACES_DETECTED, HINT_NOT_PROVIDED, FACE_NOT_FOUND, FACE_CROPPING_FAILED, FACE_TOO_SMALL, FACE_TOO_BLURRY, BAD_PHOTO_QUALITY, PROCESSING_ERROR, BAD_REQUEST'.split(
    ', ',
  );
const SPEC_PROVIDER: [string, string][] = [
  ['01', 'SIN RESPUESTA DE RENAPO'],
  ['02', 'SERVIDOR SVBI NO RESPONDE'],
  ['02', 'monthly transaction limit reached'],
  ['02', 'per-minute transaction limit reached'],
  ['02', 'daily transaction limit reached'],
  ['03', 'LOS DATOS SON INCORRECTOS'],
  ['05', 'ERROR INESPERADO'],
];
const SPEC_GROUP_1 = ['01-04', '01-06', '01-09', '01-20', '01-90', '03-01'];
const SPEC_GROUP_2 = ['01-13', '01-14', '01-18', '02-01', '02-02', '02-03', '04-01', '99-01', '99-02'];
const SPEC_GROUP_3 = [
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
];

function expectBilingual(entry: CatalogEntry, label: string) {
  for (const key of ['en', 'es', 'adviceEn', 'adviceEs'] as const)
    expect(entry[key].trim().length, `${label}.${key}`).toBeGreaterThan(8);
  expect(entry.es, `${label} es differs from en`).not.toBe(entry.en);
  expect(entry.adviceEs, `${label} adviceEs differs from adviceEn`).not.toBe(entry.adviceEn);
}

describe('code catalogs are complete against the spec', () => {
  it('face upload statuses', () => {
    expect(Object.keys(faceStatusCatalog).map(Number).sort()).toEqual(SPEC_FACE);
    for (const code of SPEC_FACE) expectBilingual(explain({ faceStatus: code })!, String(code));
    expect(explain({ faceStatus: 4000 })).toBeUndefined();
  });

  it('every failReason', () => {
    expect(Object.keys(failReasonCatalog).sort()).toEqual([...SPEC_FAIL_REASONS].sort());
    for (const r of SPEC_FAIL_REASONS) expectBilingual(explain({ failReason: r })!, r);
  });

  it('every authentication error name', () => {
    expect(Object.keys(authErrorCatalog).sort()).toEqual([...SPEC_AUTH_NAMES].sort());
    for (const n of SPEC_AUTH_NAMES) expectBilingual(explain({ authError: n })!, n);
  });

  it('every CURP provider code, with code 02 told apart by its description', () => {
    const keys = new Set<string>();
    for (const [codigoRespuesta, descripcionRespuesta] of SPEC_PROVIDER) {
      const e = explainCurp({
        success: false,
        result: 'x',
        error: { codigoRespuesta, descripcionRespuesta, respuestaRENAPO: null },
      })!;
      expect(e, `${codigoRespuesta} ${descripcionRespuesta}`).toBeDefined();
      expectBilingual(e, e.code);
      keys.add(e.code);
    }
    expect(keys.size).toBe(7);
    expect(Object.keys(curpProviderCatalog)).toHaveLength(7);
    // The provider's own Spanish wording of the limits maps the same way.
    expect(
      explainCurp({
        error: { codigoRespuesta: '02', descripcionRespuesta: 'SE ALCANZÓ EL LÍMITE MENSUAL DE TRANSACCIONES' },
      })!.code,
    ).toBe('02-monthly');
    expect(
      explainCurp({ error: { codigoRespuesta: '02', descripcionRespuesta: 'LIMITE DE TRANSACCIONES POR MINUTO' } })!
        .code,
    ).toBe('02-minute');
    expect(
      explainCurp({ error: { codigoRespuesta: '02', descripcionRespuesta: 'LIMITE DIARIO ALCANZADO' } })!.code,
    ).toBe('02-daily');
  });

  it('every registry pair of groups 1-3 with its group and group advice', () => {
    expect(Object.keys(curpRegistryCatalog).sort()).toEqual([...SPEC_GROUP_1, ...SPEC_GROUP_2, ...SPEC_GROUP_3].sort());
    expect([...CURP_GROUP_2_PAIRS]).toEqual(SPEC_GROUP_2);
    expect([...CURP_GROUP_3_PAIRS]).toEqual(SPEC_GROUP_3);
    const groups: [string[], number, boolean][] = [
      [SPEC_GROUP_1, 1, false],
      [SPEC_GROUP_2, 2, true],
      [SPEC_GROUP_3, 3, false],
    ];
    for (const [pairs, group, retryable] of groups) {
      for (const pair of pairs) {
        const [tipoError, codigoError] = pair.split('-');
        const e = explainCurp({
          success: false,
          result: 'r',
          renapo_valid: false,
          error: { tipoError, codigoError, message: 'm' },
        })!;
        expect(e.code).toBe(pair);
        expect(e.group).toBe(group);
        expect(e.retryable).toBe(retryable);
        expectBilingual(e, pair);
      }
    }
  });

  it('speaks the user’s language with the next step', () => {
    const e = explainCurp({
      success: false,
      result: 'x',
      renapo_valid: false,
      error: { tipoError: '01', codigoError: '06', message: 'x' },
    })!;
    expect(`${e.es} ${e.adviceEs}`).toBe(
      'Este CURP no está en los registros de RENAPO. Revisa los 18 caracteres con la persona.',
    );
    expect(`${e.en} ${e.adviceEn}`).toBe(
      "This CURP is not in RENAPO's records. Check the 18 characters with the person.",
    );
  });

  it('the service-unavailable case: (99, 01) with message and result saying so', () => {
    const text = 'El servicio de validación de CURP no está disponible';
    const e = explainCurp({
      success: false,
      result: text,
      renapo_valid: false,
      error: { tipoError: '99', codigoError: '01', message: text },
    })!;
    expect(e.code).toBe('CURP_SERVICE_UNAVAILABLE');
    expect(e.retryable).toBe(true);
    expect(e.es).toMatch(/no está disponible/);
    expect(
      explainCurp({
        success: false,
        result: 'CURP validation service unavailable',
        error: { tipoError: 99, codigoError: 1, message: 'CURP validation service unavailable' },
      })!.code,
    ).toBe('CURP_SERVICE_UNAVAILABLE');
    // The same pair with a registry connection message is the group-2 connection error.
    const conn = 'Error de conexión con la base de datos de RENAPO.';
    expect(
      explainCurp({ success: false, result: conn, error: { tipoError: '99', codigoError: '01', message: conn } }),
    ).toMatchObject({ code: '99-01', group: 2 });
  });

  it('codes sent as numbers, unlisted pairs and non-failures', () => {
    expect(explainCurp({ error: { tipoError: 1, codigoError: 6 } })!.code).toBe('01-06');
    const unlisted = explainCurp({ error: { tipoError: '01', codigoError: '77' } })!;
    expect(unlisted).toMatchObject({ code: '01-77', group: 3 });
    expectBilingual(unlisted, 'unlisted');
    expect(explainCurp({ success: true, result: 'ok' })).toBeUndefined();
    expect(explainCurp('nonsense')).toBeUndefined();
    expect(explain({ failReason: 'NOT_A_REASON' })).toBeUndefined();
  });

  it('client-side errors and HTTP statuses are explained too', () => {
    for (const [code, entry] of Object.entries(clientErrorCatalog)) expectBilingual(entry, code);
    for (const status of [400, 401, 403, 404, 413, 429, 500, 502, 503, 504, 418, 599]) {
      const e = explain({ httpStatus: status })!;
      expectBilingual(e, String(status));
      expect(e.retryable).toBe([429, 500, 502, 503, 504, 599].includes(status));
    }
  });
});
