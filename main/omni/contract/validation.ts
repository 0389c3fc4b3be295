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

/** Provider or registry failure detail (spec: CURP validation failures). */
export const CurpError = z.looseObject({
  codigoRespuesta: z.string().optional(),
  descripcionRespuesta: z.string().optional(),
  codigoError: z.string().nullable().optional(),
  tipoError: z.string().nullable().optional(),
  referencia: z.string().nullable().optional(),
  respuestaRENAPO: z.unknown().optional(),
  message: z.string().optional(),
});
export type CurpError = z.infer<typeof CurpError>;

/** Success `{ success: true, result, renapo_valid: true }`; failures carry `error`. */
export const AddCurpResponse = z.looseObject({
  success: z.boolean(),
  result: z.string().optional(),
  renapo_valid: z.boolean().optional(),
  error: CurpError.optional(),
});
export type AddCurpResponse = z.infer<typeof AddCurpResponse>;
