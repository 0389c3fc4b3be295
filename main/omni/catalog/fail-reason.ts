import type { FailReason } from '../../../common/omni';
import type { CatalogEntry } from './types';

/** Every ID classification `failReason` (typed by the contract's enum, so a missing one fails to compile). */
export const failReasonCatalog: Record<FailReason, CatalogEntry> = {
  UNKNOWN_DOCUMENT_TYPE: {
    en: 'The document type could not be recognized.',
    es: 'No se pudo reconocer el tipo de documento.',
    adviceEn: 'Capture the back of a supported ID again, flat and fully inside the frame.',
    adviceEs: 'Vuelve a capturar el reverso de una identificación aceptada, plana y completa dentro del encuadre.',
    retryable: false,
  },
  WRONG_DOCUMENT_SIDE: {
    en: 'The wrong side of the document was captured.',
    es: 'Se capturó el lado equivocado del documento.',
    adviceEn: 'Turn the ID over and capture the back side.',
    adviceEs: 'Voltea la identificación y captura el reverso.',
    retryable: false,
  },
  WRONG_ONE_SIDED_DOCUMENT: {
    en: 'A one-sided document was captured that does not match the expected ID.',
    es: 'Se capturó un documento de un solo lado que no corresponde a la identificación esperada.',
    adviceEn: 'Capture the same ID that was used for the front side.',
    adviceEs: 'Captura la misma identificación que se usó para el frente.',
    retryable: false,
  },
  UNFOLDED_DOCUMENT_PAGE_MISMATCH: {
    en: 'The pages of the unfolded document do not match.',
    es: 'Las páginas del documento desplegado no coinciden.',
    adviceEn: 'Capture the right page of the same document, fully unfolded.',
    adviceEs: 'Captura la página correcta del mismo documento, completamente desplegado.',
    retryable: false,
  },
  WRONG_UNFOLDED_DOCUMENT: {
    en: 'The unfolded document is not the expected one.',
    es: 'El documento desplegado no es el esperado.',
    adviceEn: 'Capture the same document used for the front side, fully unfolded.',
    adviceEs: 'Captura el mismo documento que se usó para el frente, completamente desplegado.',
    retryable: false,
  },
  DOCUMENT_NOT_READABLE: {
    en: 'The document could not be read.',
    es: 'No se pudo leer el documento.',
    adviceEn: 'Capture it again without glare or blur, with all edges visible.',
    adviceEs: 'Vuelve a capturarlo sin reflejos ni desenfoque y con todos los bordes visibles.',
    retryable: false,
  },
  UNABLE_TO_ALIGN_DOCUMENT: {
    en: 'The document could not be aligned in the image.',
    es: 'No se pudo alinear el documento en la imagen.',
    adviceEn: 'Place the ID on a flat surface of contrasting colour, all four corners in the frame, and capture again.',
    adviceEs:
      'Coloca la identificación sobre una superficie plana de color contrastante, con las cuatro esquinas dentro del encuadre, y vuelve a capturarla.',
    retryable: false,
  },
  ID_TYPE_UNACCEPTABLE: {
    en: 'This type of ID is not accepted for the issuing country.',
    es: 'Este tipo de identificación no se acepta para el país emisor.',
    adviceEn: 'Ask the person for one of the accepted documents listed.',
    adviceEs: 'Pide a la persona uno de los documentos aceptados de la lista.',
    retryable: false,
  },
  UNEXPECTED_ERROR_OCCURRED: {
    en: 'The service hit an unexpected error while processing the ID.',
    es: 'El servicio tuvo un error inesperado al procesar la identificación.',
    adviceEn: 'Try the capture again; if it keeps failing, contact support.',
    adviceEs: 'Intenta de nuevo la captura; si sigue fallando, contacta a soporte.',
    retryable: true,
  },
  DIGITAL_ID_REQUESTED_BUT_OTHER_PROVIDED: {
    en: 'A digital ID was requested but a different document was provided.',
    es: 'Se solicitó una identificación digital, pero se presentó otro documento.',
    adviceEn: 'Ask the person to present their digital ID.',
    adviceEs: 'Pide a la persona que presente su identificación digital.',
    retryable: false,
  },
};
