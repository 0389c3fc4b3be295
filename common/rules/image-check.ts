/**
 * Checks a photo before it is sent (selfie, back of ID, face authentication): PNG or JPEG by its bytes, not by
 * its name, and not larger than the upload limit. Pure code so the renderer runs the same check before
 * reading the file and main runs it again on what arrives.
 */

/** The service states no image size limit; a phone photo is a few MB, so this refuses mistakes early. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export type ImageKind = 'png' | 'jpeg';
export const IMAGE_MIME: Record<ImageKind, string> = { png: 'image/png', jpeg: 'image/jpeg' };

export type ImageProblem =
  | { code: 'EMPTY' }
  | { code: 'TOO_LARGE'; size: number; limit: number }
  | { code: 'NOT_AN_IMAGE'; detected?: string }
  | { code: 'TYPE_MISMATCH'; declared: string; detected: ImageKind };

export type ImageCheck = { ok: true; kind: ImageKind } | { ok: false; problem: ImageProblem };

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The kind of image the first bytes announce; undefined when neither PNG nor JPEG. */
export function sniffImage(head: Uint8Array): ImageKind | undefined {
  if (PNG_MAGIC.every((b, i) => head[i] === b)) return 'png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  return undefined;
}

/**
 * `head` is at least the first 8 bytes; `declaredType` the MIME type the browser or file name claims (may be empty).
 */
export function checkImage(head: Uint8Array, size: number, declaredType = ''): ImageCheck {
  if (size === 0) return { ok: false, problem: { code: 'EMPTY' } };
  if (size > MAX_IMAGE_BYTES) return { ok: false, problem: { code: 'TOO_LARGE', size, limit: MAX_IMAGE_BYTES } };
  const kind = sniffImage(head);
  if (!kind) return { ok: false, problem: { code: 'NOT_AN_IMAGE', detected: declaredType || undefined } };
  const declared = declaredType.toLowerCase();
  const declaredKind =
    declared === 'image/png' ? 'png' : declared === 'image/jpeg' || declared === 'image/jpg' ? 'jpeg' : undefined;
  if (declared && declaredKind !== kind)
    return { ok: false, problem: { code: 'TYPE_MISMATCH', declared: declaredType, detected: kind } };
  return { ok: true, kind };
}

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

/** What is wrong and what to do, in both languages. */
export function describeImageProblem(problem: ImageProblem): { en: string; es: string } {
  switch (problem.code) {
    case 'EMPTY':
      return { en: 'The file is empty. Choose the photo again.', es: 'El archivo está vacío. Elige la foto de nuevo.' };
    case 'TOO_LARGE':
      return {
        en: `The photo is ${megabytes(problem.size)} MB; the limit is ${megabytes(problem.limit)} MB. Export it at a smaller size and try again.`,
        es: `La foto pesa ${megabytes(problem.size)} MB; el límite es ${megabytes(problem.limit)} MB. Expórtala en un tamaño menor e inténtalo de nuevo.`,
      };
    case 'NOT_AN_IMAGE':
      return {
        en: `This file is not a PNG or JPEG photo${problem.detected ? ` (it is ${problem.detected})` : ''}. Choose a PNG or JPEG.`,
        es: `Este archivo no es una foto PNG o JPEG${problem.detected ? ` (es ${problem.detected})` : ''}. Elige un PNG o JPEG.`,
      };
    case 'TYPE_MISMATCH':
      return {
        en: `The file says it is ${problem.declared} but its content is ${problem.detected.toUpperCase()}. It may be renamed or damaged; export it again.`,
        es: `El archivo dice ser ${problem.declared} pero su contenido es ${problem.detected.toUpperCase()}. Puede estar renombrado o dañado; expórtalo de nuevo.`,
      };
  }
}
