import type { AuthErrorName } from '../../../common/omni';
import type { CatalogEntry } from './types';

const recapture = (en: string, es: string, adviceEn: string, adviceEs: string): CatalogEntry => ({
  en,
  es,
  adviceEn,
  adviceEs,
  retryable: false,
});

/** Every face-authentication `error.name` (typed by the contract's enum, so a missing one fails to compile). */
export const authErrorCatalog: Record<AuthErrorName, CatalogEntry> = {
  INACTIVE_SESSION: recapture(
    'The session is no longer active.',
    'La sesión ya no está activa.',
    'Start a new session for the person and try again.',
    'Inicia una nueva sesión para la persona e intenta de nuevo.',
  ),
  NONEXISTENT_CUSTOMER: recapture(
    'No onboarded customer matches the hint.',
    'Ningún cliente registrado coincide con la pista (hint).',
    'Check the hint (customer id, email or phone number) and try again.',
    'Revisa la pista (ID de cliente, correo o teléfono) e intenta de nuevo.',
  ),
  LENSES_DETECTED: recapture(
    'Glasses were detected on the face.',
    'Se detectaron lentes en la cara.',
    'Ask the person to take off their glasses, then capture again.',
    'Pide a la persona que se quite los lentes y vuelve a capturar.',
  ),
  FACE_MASK_DETECTED: recapture(
    'A face mask was detected.',
    'Se detectó un cubrebocas.',
    'Ask the person to remove the mask, then capture again.',
    'Pide a la persona que se quite el cubrebocas y vuelve a capturar.',
  ),
  HEAD_COVER_DETECTED: recapture(
    'A head cover was detected.',
    'Se detectó algo que cubre la cabeza.',
    'Ask the person to remove the hat or head cover, then capture again.',
    'Pide a la persona que se quite la gorra o lo que le cubra la cabeza y vuelve a capturar.',
  ),
  CLOSED_EYES_DETECTED: recapture(
    'The eyes are closed.',
    'Los ojos están cerrados.',
    'Ask the person to keep their eyes open, then capture again.',
    'Pide a la persona que mantenga los ojos abiertos y vuelve a capturar.',
  ),
  FACE_TOO_DARK: recapture(
    'The face is too dark.',
    'La cara está demasiado oscura.',
    'Capture again in better, even light facing the person.',
    'Vuelve a capturar con mejor iluminación, pareja y de frente a la persona.',
  ),
  SPOOF_ATTEMPT_DETECTED: recapture(
    'A spoof attempt was detected: the face may not be live.',
    'Se detectó un intento de suplantación: la cara podría no ser real.',
    'Do not approve. Ask for a new live capture and escalate the case if it happens again.',
    'No apruebes. Solicita una nueva captura en vivo y escala el caso si vuelve a ocurrir.',
  ),
  USER_IS_NOT_RECOGNIZED: recapture(
    "The face does not match the customer's stored face.",
    'La cara no coincide con la cara registrada del cliente.',
    'Confirm you are authenticating the right person; do not approve on this result.',
    'Confirma que estás autenticando a la persona correcta; no apruebes con este resultado.',
  ),
  SELFIE_IMAGE_LOW_QUALITY: recapture(
    'The selfie image quality is too low.',
    'La calidad de la imagen de la selfie es demasiado baja.',
    'Capture again in better light, holding the camera steady.',
    'Vuelve a capturar con mejor luz y sin mover la cámara.',
  ),
  MULTIPLE_FACES_DETECTED: recapture(
    'More than one face was detected.',
    'Se detectó más de una cara.',
    'Capture again with only the person in the frame.',
    'Vuelve a capturar con solo la persona dentro del encuadre.',
  ),
  HINT_NOT_PROVIDED: recapture(
    'One-to-one authentication needs a hint and none was sent.',
    'La autenticación uno a uno necesita una pista (hint) y no se envió.',
    "Enter the customer's id, email or phone number as the hint.",
    'Escribe el ID de cliente, correo o teléfono de la persona como pista.',
  ),
  FACE_NOT_FOUND: recapture(
    'No face was found in the image.',
    'No se encontró ninguna cara en la imagen.',
    'Capture again with the face centred and fully visible.',
    'Vuelve a capturar con la cara centrada y completamente visible.',
  ),
  FACE_CROPPING_FAILED: recapture(
    'The face could not be cropped from the image.',
    'No se pudo recortar la cara de la imagen.',
    'Capture again with the whole face inside the frame and some margin around it.',
    'Vuelve a capturar con toda la cara dentro del encuadre y algo de margen alrededor.',
  ),
  FACE_TOO_SMALL: recapture(
    'The face is too small in the image.',
    'La cara se ve demasiado pequeña en la imagen.',
    'Move the camera closer so the face fills more of the frame.',
    'Acerca la cámara para que la cara ocupe más del encuadre.',
  ),
  FACE_TOO_BLURRY: recapture(
    'The face is blurry.',
    'La cara está borrosa.',
    'Hold the camera steady and capture again.',
    'Mantén la cámara firme y vuelve a capturar.',
  ),
  BAD_PHOTO_QUALITY: recapture(
    'The photo quality is too poor to compare faces.',
    'La calidad de la foto es demasiado baja para comparar caras.',
    'Capture again in good light and without blur.',
    'Vuelve a capturar con buena luz y sin desenfoque.',
  ),
  PROCESSING_ERROR: {
    en: 'The service could not process the authentication.',
    es: 'El servicio no pudo procesar la autenticación.',
    adviceEn: 'Try again in a moment; if it keeps failing, contact support.',
    adviceEs: 'Intenta de nuevo en un momento; si sigue fallando, contacta a soporte.',
    retryable: true,
  },
  BAD_REQUEST: recapture(
    'The service rejected the authentication request as malformed.',
    'El servicio rechazó la solicitud de autenticación por estar mal formada.',
    'Check the image and the fields sent; if they look right, contact support.',
    'Revisa la imagen y los campos enviados; si se ven bien, contacta a soporte.',
  ),
};
