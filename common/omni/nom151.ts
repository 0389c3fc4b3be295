import { z } from 'zod';
import { SessionStatus } from './common';

export const SignStringBody = z.object({ stringToSign: z.string().min(1).max(1_000_000) });

export const SignStringResponse = z.looseObject({
  /** NOM-151 evidence: the DER time-stamp token in base64. */
  signedString: z.string().min(1),
  /** Unique confirmation folio. */
  reference: z.string().min(1),
});
export type SignStringResponse = z.infer<typeof SignStringResponse>;

export const CalculateContractBody = z.object({
  signedContractId: z.string().min(1),
  includeSignedDocumentInResponse: z.boolean().optional(),
  includeCertificateDetailsInResponse: z.boolean().optional(),
});

export const CalculateContractResponse = z.looseObject({
  success: z.boolean(),
  sessionStatus: SessionStatus.optional(),
  additionalInformation: z
    .looseObject({
      signedDocumentNom151: z.string().optional(),
      signedDocumentBase64: z.string().optional(),
      signedDocumentWithNomSignatureBase64: z.string().optional(),
    })
    .nullable()
    .optional(),
});
export type CalculateContractResponse = z.infer<typeof CalculateContractResponse>;
