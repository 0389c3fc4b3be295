import type { CatalogEntry } from './types';

/** Custom `status` codes of the face upload's 400 body (spec: Errors, face upload). */
export const FACE_STATUS_CODES = [4010, 4019, 4077, 4078] as const;
export type FaceStatusCode = (typeof FACE_STATUS_CODES)[number];

export const faceStatusCatalog: Record<FaceStatusCode, CatalogEntry> = {
  4010: {
    en: 'More than one face was detected in the selfie.',
    es: 'Se detectó más de una cara en la selfie.',
    adviceEn: 'Take a new selfie with only the person in the frame.',
    adviceEs: 'Toma una nueva selfie en la que solo aparezca la persona.',
    retryable: false,
  },
  4019: {
    en: 'No face was found in the image.',
    es: 'No se encontró ninguna cara en la imagen.',
    adviceEn: 'Take a new selfie with the face centred, well lit and fully visible.',
    adviceEs: 'Toma una nueva selfie con la cara centrada, bien iluminada y completamente visible.',
    retryable: false,
  },
  4077: {
    en: 'The selfie image quality is too low.',
    es: 'La calidad de la imagen de la selfie es demasiado baja.',
    adviceEn: 'Take a new selfie in better light, holding the camera steady.',
    adviceEs: 'Toma una nueva selfie con mejor luz y sin mover la cámara.',
    retryable: false,
  },
  4078: {
    en: 'The face in the selfie is covered or partly hidden.',
    es: 'La cara de la selfie está cubierta o parcialmente oculta.',
    adviceEn: 'Ask the person to remove glasses, mask, hat or anything covering the face, then take a new selfie.',
    adviceEs:
      'Pide a la persona que se quite lentes, cubrebocas, gorra o cualquier cosa que le cubra la cara, y toma una nueva selfie.',
    retryable: false,
  },
};

export function isFaceStatusCode(value: unknown): value is FaceStatusCode {
  return typeof value === 'number' && (FACE_STATUS_CODES as readonly number[]).includes(value);
}
