import { z } from 'zod';

export const ValidateRfcBody = z.object({ rfc: z.string().trim().min(1).max(20) });

export const ValidateRfcResponse = z.looseObject({
  validRFC: z.boolean(),
  status: z.string().optional(),
  message: z.string().nullable().optional(),
  rfcType: z.string().nullable().optional(),
  messageCode: z.string().nullable().optional(),
  errorMessage: z.string().nullable().optional(),
});
export type ValidateRfcResponse = z.infer<typeof ValidateRfcResponse>;

/** Request body not shown; decisions.md §10 fixes `{ curp }`. */
export const AddCurpBody = z.object({ curp: z.string().trim().min(1).max(30) });

/** Codes are two-digit strings (`01`); a number or unpadded string is normalized rather than rejected. */
const CurpCode = z.union([z.string(), z.number().int().nonnegative()]).transform((v) => {
  const s = String(v).trim();
  return /^\d$/.test(s) ? `0${s}` : s;
});

/** Provider or registry failure detail (spec: CURP validation failures). */
export const CurpError = z.looseObject({
  codigoRespuesta: CurpCode.optional(),
  descripcionRespuesta: z.string().optional(),
  codigoError: CurpCode.nullable().optional(),
  tipoError: CurpCode.nullable().optional(),
  referencia: z.string().nullable().optional(),
  respuestaRENAPO: z.unknown().optional(),
  message: z.string().nullable().optional(),
});
export type CurpError = z.infer<typeof CurpError>;

/** Success `{ success: true, result, renapo_valid: true }`; failures carry `error`. */
export const AddCurpResponse = z.looseObject({
  success: z.boolean(),
  result: z.string().optional(),
  renapo_valid: z.boolean().optional(),
  error: CurpError.nullable().optional(),
});
export type AddCurpResponse = z.infer<typeof AddCurpResponse>;
