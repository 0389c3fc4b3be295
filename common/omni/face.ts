import { z } from 'zod';
import { CaptureAttemptsLimit, CaptureType, HttpUrl, openEnum, FaceCoordinates, SessionStatus } from './common';

export const AddFaceQuery = z.object({
  imageType: z.string().min(1).optional(),
  captureType: CaptureType.optional(),
  externalCaptureId: z.string().min(1).optional(),
  recordingId: z.string().min(1).optional(),
});

/** Either an inline image or an allow-listed URL. */
export const AddFaceBody = z
  .object({
    base64Image: z.string().min(1).optional(),
    imageUrl: HttpUrl.optional(),
    faceCoordinates: FaceCoordinates.optional(),
  })
  .refine((b) => Boolean(b.base64Image) !== Boolean(b.imageUrl), {
    message: 'send exactly one of base64Image or imageUrl',
    path: ['base64Image'],
  });

export const AddFaceResponse = z.looseObject({
  age: z.number().int().optional(),
  isBright: z.boolean().optional(),
  confidence: z.number().optional(),
  hasLenses: z.boolean().optional(),
  hasFaceMask: z.boolean().optional(),
  hasClosedEyes: z.boolean().optional(),
  hasHeadCover: z.boolean().optional(),
  faceOccluded: z.boolean().optional(),
  sessionStatus: SessionStatus.optional(),
  captureAttemptsLimit: CaptureAttemptsLimit.optional(),
});
export type AddFaceResponse = z.infer<typeof AddFaceResponse>;

export const AuthErrorName = z.enum([
  'INACTIVE_SESSION',
  'NONEXISTENT_CUSTOMER',
  'LENSES_DETECTED',
  'FACE_MASK_DETECTED',
  'HEAD_COVER_DETECTED',
  'CLOSED_EYES_DETECTED',
  'FACE_TOO_DARK',
  'SPOOF_ATTEMPT_DETECTED',
  'USER_IS_NOT_RECOGNIZED',
  'SELFIE_IMAGE_LOW_QUALITY',
  'MULTIPLE_FACES_DETECTED',
  'HINT_NOT_PROVIDED',
  'FACE_NOT_FOUND',
  'FACE_CROPPING_FAILED',
  'FACE_TOO_SMALL',
  'FACE_TOO_BLURRY',
  'BAD_PHOTO_QUALITY',
  'PROCESSING_ERROR',
  'BAD_REQUEST',
]);
export type AuthErrorName = z.infer<typeof AuthErrorName>;

export const OnboardingAuthenticationError = z.looseObject({
  name: openEnum(AuthErrorName),
  message: z.string(),
});

export const AuthenticateBody = z.object({
  base64Image: z.string().min(1),
  faceCoordinates: FaceCoordinates.optional(),
  hint: z.string().min(1).optional(),
  recordingId: z.string().min(1).optional(),
});

export const OverallStatus = z.enum(['PASS', 'FAIL']);

export const AuthenticateResponse = z.looseObject({
  overallStatus: openEnum(OverallStatus),
  captureAttemptsLimit: CaptureAttemptsLimit.optional(),
  candidate: z.string().nullable().optional(),
  error: OnboardingAuthenticationError.nullable().optional(),
});
export type AuthenticateResponse = z.infer<typeof AuthenticateResponse>;
