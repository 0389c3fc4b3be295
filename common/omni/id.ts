import { z } from 'zod';
import { CaptureAttemptsLimit, CaptureType, HttpUrl, openEnum, SessionStatus } from './common';

export const TypeOfId = z.enum([
  'Unknown',
  'Passport',
  'Visa',
  'DriversLicense',
  'IdentificationCard',
  'Permit',
  'Currency',
  'ResidenceDocument',
  'TravelDocument',
  'BirthCertificate',
  'VehicleRegistration',
  'Other',
  'WeaponLicense',
  'TribalIdentification',
  'VoterIdentification',
  'Military',
  'TaxIdentification',
  'FederalID',
  'MedicalCard',
]);
export type TypeOfId = z.infer<typeof TypeOfId>;

export const FailReason = z.enum([
  'UNKNOWN_DOCUMENT_TYPE',
  'WRONG_DOCUMENT_SIDE',
  'WRONG_ONE_SIDED_DOCUMENT',
  'UNFOLDED_DOCUMENT_PAGE_MISMATCH',
  'WRONG_UNFOLDED_DOCUMENT',
  'DOCUMENT_NOT_READABLE',
  'UNABLE_TO_ALIGN_DOCUMENT',
  'ID_TYPE_UNACCEPTABLE',
  'UNEXPECTED_ERROR_OCCURRED',
  'DIGITAL_ID_REQUESTED_BUT_OTHER_PROVIDED',
]);
export type FailReason = z.infer<typeof FailReason>;

/** Recapture is advised below this cropped-photo resolution. */
export const MIN_HORIZONTAL_RESOLUTION = 155;
/** Per-field readability at or above this approves the ID quality attempt. */
export const ID_QUALITY_APPROVAL_THRESHOLD = 0.38;

export const AddBackSecondIdQuery = z.object({ captureType: CaptureType.optional() });

export const AddBackSecondIdBody = z
  .object({
    base64Image: z.string().min(1).optional(),
    imageUrl: HttpUrl.optional(),
  })
  .refine((b) => Boolean(b.base64Image) !== Boolean(b.imageUrl), {
    message: 'send exactly one of base64Image or imageUrl',
    path: ['base64Image'],
  });

export const AddBackSecondIdResponse = z.looseObject({
  correctSharpness: z.boolean().optional(),
  correctGlare: z.boolean().optional(),
  horizontalResolution: z.number().int().optional(),
  shadowConfidence: z.number().optional(),
  classification: z.boolean().optional(),
  readability: z.boolean().optional(),
  typeOfId: openEnum(TypeOfId).optional(),
  issueYear: z.number().int().optional(),
  issueName: z.string().optional(),
  curpCheck: z.boolean().optional(),
  sessionStatus: SessionStatus.optional(),
  countryCode: z.string().optional(),
  state: z.string().optional(),
  failReason: openEnum(FailReason).nullable().optional(),
  skipBackIdCapture: z.boolean().optional(),
  forceFrontIdCapture: z.boolean().optional(),
  showMandatoryConsent: z.boolean().optional(),
  regulationType: z.string().nullable().optional(),
  skipGlareFront: z.boolean().optional(),
  skipGlareBack: z.boolean().optional(),
  documentIsOnTheEdge: z.boolean().optional(),
  acceptedDocuments: z.array(z.string()).optional(),
  imageRedacted: z.boolean().optional(),
  idFaceExtractionSkipped: z.boolean().optional(),
  captureAttemptsLimit: CaptureAttemptsLimit.optional(),
  idQualityAttemptApproved: z.boolean().optional(),
  isDocumentExpired: z.boolean().optional(),
  attemptId: z.string().optional(),
});
export type AddBackSecondIdResponse = z.infer<typeof AddBackSecondIdResponse>;
