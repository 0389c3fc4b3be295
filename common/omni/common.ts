import { z } from 'zod';

/**
 * A point in time as ISO text. Production services also send epoch milliseconds or seconds (numbers or digit
 * strings); those are read as the ISO text of that instant, below 1e11 counted as seconds.
 */
export const Timestamp = z.union([z.string(), z.number().finite()]).transform((v) => {
  const n = typeof v === 'number' ? v : /^\d{9,13}$/.test(v) ? Number(v) : undefined;
  if (n === undefined) return v as string;
  const at = new Date(n < 1e11 ? n * 1000 : n);
  return Number.isNaN(at.getTime()) ? String(v) : at.toISOString();
});

/** Session states exactly as the service spells them. */
export const SessionStatus = z.enum(['Alive', 'Closed', 'Deleted']);
export type SessionStatus = z.infer<typeof SessionStatus>;

export const CaptureType = z.enum(['AUTO', 'MANUAL', 'NATIVE', 'UPLOAD']);
export type CaptureType = z.infer<typeof CaptureType>;

export const RecordingType = z.enum(['frontId', 'backId', 'merged', 'selfie', 'authenticationattempt']);
export type RecordingType = z.infer<typeof RecordingType>;

/** Error body returned with 400/401/413/429/500 (decisions.md §4 extends it to the statuses the spec leaves open). */
export const ErrorBody = z.looseObject({
  timestamp: Timestamp,
  status: z.number().int(),
  error: z.string(),
  message: z.string().nullish(),
  path: z.string(),
  details: z.record(z.string(), z.unknown()).nullish(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

const coord = z.number().finite();

/** FaceCoordinatesDto. `mouthX`/`mouthY` are deprecated aliases of `leftMouthX`/`leftMouthY`, still accepted. */
export const FaceCoordinates = z.object({
  leftEyeX: coord,
  leftEyeY: coord,
  rightEyeX: coord,
  rightEyeY: coord,
  mouthX: coord.optional(),
  mouthY: coord.optional(),
  leftMouthX: coord.optional(),
  leftMouthY: coord.optional(),
  rightMouthX: coord,
  rightMouthY: coord,
  noseTipX: coord,
  noseTipY: coord,
  x: coord,
  y: coord,
  width: coord.nonnegative(),
  height: coord.nonnegative(),
});
export type FaceCoordinates = z.infer<typeof FaceCoordinates>;

export const CaptureAttemptsLimit = z.looseObject({
  max: z.number().int(),
  remaining: z.number().int(),
});
export type CaptureAttemptsLimit = z.infer<typeof CaptureAttemptsLimit>;

/** `{ success, sessionStatus }`, the answer of the simple session writes. */
export const SuccessResponse = z.looseObject({
  success: z.boolean(),
  sessionStatus: SessionStatus.optional(),
});
export type SuccessResponse = z.infer<typeof SuccessResponse>;

/**
 * An enum read from the service: a value newer than the spec is kept as the text it came as, never a rejected
 * answer; the catalog's lookups still recognise the known ones.
 */
export function openEnum<E extends z.ZodEnum>(known: E) {
  return z.union([known, z.string()]);
}

/** Whether a value read through `openEnum` is one the spec lists; the screens mark the others "not in the spec". */
export function inSpec(known: z.ZodEnum, value: string): boolean {
  return (known.options as readonly string[]).includes(value);
}

/**
 * Where the tolerant reader keeps, on the nearest object, a field it could not read in the contract's shape (the
 * value exactly as it came): that field is degraded, not the answer. Array items that could not be read are kept in
 * a list under the array's name. Every response object is loose, so this key survives the parse.
 */
export const UNREAD_FIELDS = 'unreadFields';

export function unreadFieldsOf(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return {};
  const unread = (value as Record<string, unknown>)[UNREAD_FIELDS];
  return typeof unread === 'object' && unread !== null && !Array.isArray(unread)
    ? (unread as Record<string, unknown>)
    : {};
}

/** Only http(s): main fetches these URLs, and a `file:` or `javascript:` URL must never get that far. */
export const HttpUrl = z.url({ protocol: /^https?$/, message: 'must be an http or https URL' });

/** Optional interview id query of the fetch endpoints (falls back to the token's interview). */
export const InterviewIdQuery = z.object({ id: z.string().min(1).optional() });

export const NoQuery = z.object({});
export const NoBody = z.undefined();
