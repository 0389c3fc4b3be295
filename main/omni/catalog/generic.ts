import type { CatalogEntry } from './types';

/** Errors that arise in the app itself rather than in a service code (codes as in IpcErrorData). */
export type ClientErrorCode =
  | 'INVALID_INPUT'
  | 'NETWORK'
  | 'TIMEOUT'
  | 'ABORTED'
  | 'SCHEMA_MISMATCH'
  | 'NO_CREDENTIALS'
  | 'NO_SESSION_TOKEN'
  | 'SESSION_TOKEN_OF_OTHER_INTERVIEW'
  | 'CREDENTIAL_UNDECRYPTABLE'
  | 'INVALID_ENVIRONMENT'
  | 'RETRY_AFTER_TOO_LONG'
  | 'SESSION_TOKEN_REJECTED'
  | 'NOT_THE_SERVICE'
  | 'REDIRECTED'
  | 'WRITE_ANSWER_UNREADABLE'
  | 'ANSWER_TOO_LARGE'
  | 'SERVICE_NOT_ANSWERING'
  | 'OUTCOME_UNKNOWN'
  | 'OUTCOME_UNKNOWN_UNKEYED';

export const clientErrorCatalog: Record<ClientErrorCode, CatalogEntry> = {
  INVALID_INPUT: {
    en: 'Some of the data entered is not valid.',
    es: 'Algunos de los datos capturados no son válidos.',
    adviceEn: 'Correct the fields listed and try again.',
    adviceEs: 'Corrige los campos indicados e intenta de nuevo.',
    retryable: false,
  },
  NETWORK: {
    en: 'The service could not be reached.',
    es: 'No se pudo conectar con el servicio.',
    adviceEn: "Check the network connection and the environment's addresses in Settings, then try again.",
    adviceEs: 'Revisa la conexión de red y las direcciones del entorno en Configuración, e intenta de nuevo.',
    retryable: true,
  },
  TIMEOUT: {
    en: 'The service took too long to answer.',
    es: 'El servicio tardó demasiado en responder.',
    adviceEn: 'Try again in a moment.',
    adviceEs: 'Intenta de nuevo en un momento.',
    retryable: true,
  },
  ABORTED: {
    en: 'The request was cancelled.',
    es: 'La solicitud se canceló.',
    adviceEn: 'Start it again when you are ready.',
    adviceEs: 'Vuelve a iniciarla cuando estés listo.',
    retryable: true,
  },
  SCHEMA_MISMATCH: {
    en: 'The service answered in a shape the app does not expect.',
    es: 'El servicio respondió con una estructura que la aplicación no espera.',
    adviceEn: 'The app and the service may be out of step; contact support with the error details.',
    adviceEs:
      'La aplicación y el servicio podrían no estar sincronizados; contacta a soporte con los detalles del error.',
    retryable: false,
  },
  NO_CREDENTIALS: {
    en: 'Credentials for this environment are missing.',
    es: 'Faltan las credenciales de este entorno.',
    adviceEn: 'Enter the API key, integration id and secret in Settings.',
    adviceEs: 'Captura la clave de API, el ID de integración y el secreto en Configuración.',
    retryable: false,
  },
  NO_SESSION_TOKEN: {
    en: 'This interview has no session token, so this action is not available.',
    es: 'Esta entrevista no tiene token de sesión, así que esta acción no está disponible.',
    adviceEn: "Attach the interview's session token (paste it, open a deep link or import a CSV) and try again.",
    adviceEs:
      'Adjunta el token de sesión de la entrevista (pégalo, abre un enlace profundo o importa un CSV) e intenta de nuevo.',
    retryable: false,
  },
  SESSION_TOKEN_OF_OTHER_INTERVIEW: {
    en: "The session token attached to this interview is another interview's, so nothing was sent (the service would have filed it there).",
    es: 'El token de sesión adjunto a esta entrevista es de otra entrevista, así que no se envió nada (el servicio lo habría archivado allá).',
    adviceEn: "Attach this interview's own session token (Replace, in the interview header) and try again.",
    adviceEs:
      'Adjunta el token de sesión propio de esta entrevista (Reemplazar, en el encabezado de la entrevista) e intenta de nuevo.',
    retryable: false,
  },
  CREDENTIAL_UNDECRYPTABLE: {
    en: "A stored credential can no longer be decrypted (the system's key store changed).",
    es: 'Una credencial guardada ya no se puede descifrar (cambió el almacén de claves del sistema).',
    adviceEn: 'Enter the credential again in Settings.',
    adviceEs: 'Vuelve a capturar la credencial en Configuración.',
    retryable: false,
  },
  INVALID_ENVIRONMENT: {
    en: "The environment's settings are not valid.",
    es: 'La configuración del entorno no es válida.',
    adviceEn: 'Check the base URL, auth URL, api-version and token header in Settings.',
    adviceEs: 'Revisa la URL base, la URL de autorización, la api-version y el encabezado del token en Configuración.',
    retryable: false,
  },
  SESSION_TOKEN_REJECTED: {
    en: "The service did not accept this call: either the interview's session token expired or is not valid, or the API key is wrong.",
    es: 'El servicio no aceptó esta llamada: o el token de sesión de la entrevista venció o no es válido, o la clave de API es incorrecta.',
    adviceEn:
      'Test the connection in Settings: if it fails, fix the API key; if it passes, attach a new session token to the interview and try again.',
    adviceEs:
      'Prueba la conexión en Configuración: si falla, corrige la clave de API; si funciona, adjunta un nuevo token de sesión a la entrevista e intenta de nuevo.',
    retryable: false,
  },
  NOT_THE_SERVICE: {
    en: 'The address answered with a web page or a cut-off answer, not the service.',
    es: 'La dirección respondió con una página web o una respuesta incompleta, no con el servicio.',
    adviceEn:
      "Check the environment's address in Settings, the proxy, or sign in to the network's captive portal, then try again.",
    adviceEs:
      'Revisa la dirección del entorno en Configuración, el proxy, o inicia sesión en el portal cautivo de la red, e intenta de nuevo.',
    retryable: true,
  },
  REDIRECTED: {
    en: 'The address sent the request on to another address, so it was not sent there: your credentials go only to the addresses you entered.',
    es: 'La dirección envió la solicitud a otra dirección, así que no se envió allí: tus credenciales solo van a las direcciones que capturaste.',
    adviceEn:
      'If the service has moved, enter its new address in Settings (its credentials are asked for again); otherwise tell your administrator that the address redirects.',
    adviceEs:
      'Si el servicio cambió de dirección, captura la nueva en Configuración (se te pedirán de nuevo sus credenciales); si no, avisa a tu administrador que la dirección redirige.',
    retryable: false,
  },
  WRITE_ANSWER_UNREADABLE: {
    en: 'The service may have stored it, but its answer could not be read.',
    es: 'Es posible que el servicio lo haya guardado, pero no se pudo leer su respuesta.',
    adviceEn:
      'Reload the interview to see whether it is there. A note or name sent again goes with the same key, so the service keeps one copy.',
    adviceEs:
      'Recarga la entrevista para ver si ya aparece. Una nota o un nombre enviados de nuevo llevan la misma clave, así que el servicio guarda una sola copia.',
    retryable: false,
  },
  ANSWER_TOO_LARGE: {
    en: 'The answer was far larger than any answer of the service (over 32 MB once unpacked), so it was not read.',
    es: 'La respuesta era mucho más grande que cualquier respuesta del servicio (más de 32 MB ya descomprimida), así que no se leyó.',
    adviceEn:
      "Nothing was changed. Try again; if it happens again, tell your administrator: a proxy or the environment's address sends something other than the service's answers.",
    adviceEs:
      'No se cambió nada. Inténtalo de nuevo; si vuelve a pasar, avisa a tu administrador: un proxy o la dirección del entorno envía algo que no son respuestas del servicio.',
    retryable: false,
  },
  SERVICE_NOT_ANSWERING: {
    en: 'The service is not answering right now.',
    es: 'El servicio no está respondiendo en este momento.',
    adviceEn: 'Nothing was changed. Wait a moment and try again; the address is not the problem.',
    adviceEs: 'No se cambió nada. Espera un momento y vuelve a intentarlo; la dirección no es el problema.',
    retryable: true,
  },
  OUTCOME_UNKNOWN: {
    en: 'The answer to this write was lost on the way (a gateway error or a cut connection), so whether the service stored it is unknown.',
    es: 'La respuesta a este envío se perdió en el camino (un error de la puerta de enlace o una conexión cortada), así que no se sabe si el servicio lo guardó.',
    adviceEn:
      'Send it again when the service answers: a note or name goes with the same key, so the service keeps one copy.',
    adviceEs:
      'Vuelve a enviarlo cuando el servicio responda: una nota o un nombre llevan la misma clave, así que el servicio guarda una sola copia.',
    retryable: true,
  },
  /** OUTCOME_UNKNOWN of a write that carries no idempotency key (`outcomeUnknown`): a resend is a new write. */
  OUTCOME_UNKNOWN_UNKEYED: {
    en: 'The answer to this write was lost on the way (a gateway error or a cut connection), so whether the service took it is unknown.',
    es: 'La respuesta a este envío se perdió en el camino (un error de la puerta de enlace o una conexión cortada), así que no se sabe si el servicio lo tomó.',
    adviceEn:
      'It may have gone through. Check before sending it again: the service would take a second send as a new one (a capture uses up another attempt, a seal issues another certificate).',
    adviceEs:
      'Puede que sí se haya aplicado. Revísalo antes de volver a enviarlo: el servicio tomaría un segundo envío como uno nuevo (una captura gasta otro intento, un sellado emite otra constancia).',
    retryable: false,
  },
  RETRY_AFTER_TOO_LONG: {
    en: 'The service asked the app to wait before calling again.',
    es: 'El servicio pidió esperar antes de volver a llamar.',
    adviceEn: 'Wait the time shown, then try again.',
    adviceEs: 'Espera el tiempo indicado e intenta de nuevo.',
    retryable: true,
  },
};

const HTTP: Record<number, CatalogEntry> = {
  400: {
    en: 'The service rejected the request.',
    es: 'El servicio rechazó la solicitud.',
    adviceEn: 'Check the data sent and try again.',
    adviceEs: 'Revisa los datos enviados e intenta de nuevo.',
    retryable: false,
  },
  401: {
    en: 'The service did not accept the credentials or the token.',
    es: 'El servicio no aceptó las credenciales o el token.',
    adviceEn:
      'Check the API key, integration id and secret (or the session token) in Settings, then test the connection.',
    adviceEs:
      'Revisa la clave de API, el ID de integración y el secreto (o el token de sesión) en Configuración y prueba la conexión.',
    retryable: false,
  },
  403: {
    en: 'These credentials are not allowed to do this.',
    es: 'Estas credenciales no tienen permiso para hacer esto.',
    adviceEn: 'Ask an administrator of your organization for access.',
    adviceEs: 'Pide acceso a un administrador de tu organización.',
    retryable: false,
  },
  404: {
    en: 'The service has no such address.',
    es: 'El servicio no tiene esa dirección.',
    adviceEn: "Check the environment's base URL and auth URL in Settings.",
    adviceEs: 'Revisa la URL base y la URL de autorización del entorno en Configuración.',
    retryable: false,
  },
  413: {
    en: 'The file or data sent is too large for the service.',
    es: 'El archivo o los datos enviados son demasiado grandes para el servicio.',
    adviceEn: 'Send a smaller file.',
    adviceEs: 'Envía un archivo más pequeño.',
    retryable: false,
  },
  429: {
    en: 'Too many requests to the service.',
    es: 'Demasiadas solicitudes al servicio.',
    adviceEn: 'Retry may help: wait a moment and try again.',
    adviceEs: 'Reintentar puede ayudar: espera un momento e intenta de nuevo.',
    retryable: true,
  },
  500: {
    en: 'The service had an internal error.',
    es: 'El servicio tuvo un error interno.',
    adviceEn: 'Try again; if it keeps failing, contact support.',
    adviceEs: 'Intenta de nuevo; si sigue fallando, contacta a soporte.',
    retryable: true,
  },
};

/** 502, 503, 504: a passing outage, whatever page or body came with it; never the address. */
const UNAVAILABLE: CatalogEntry = {
  en: 'The service is not answering right now.',
  es: 'El servicio no está respondiendo en este momento.',
  adviceEn: 'Wait a moment and try again; the address is not the problem.',
  adviceEs: 'Espera un momento y vuelve a intentarlo; la dirección no es el problema.',
  retryable: true,
};

const interviewRead = (what: { en: string; es: string }): CatalogEntry => ({
  en: `The service refused to give this interview's ${what.en}.`,
  es: `El servicio se negó a dar ${what.es} de esta entrevista.`,
  adviceEn:
    'It may not know this interview id in your organization, or the interview may not have it yet. Check the id (or remove the interview from the queue); the service says why below.',
  adviceEs:
    'Puede que no conozca este id de entrevista en tu organización, o que la entrevista aún no lo tenga. Revisa el id (o quita la entrevista de la bandeja); abajo está lo que dijo el servicio.',
  retryable: false,
});

const interviewWrite: CatalogEntry = {
  en: 'The service refused this write for the interview.',
  es: 'El servicio rechazó este envío para la entrevista.',
  adviceEn:
    "Its words below say why: often the session is closed or deleted, or a capture limit is reached. Check the interview's session before sending again.",
  adviceEs:
    'Abajo dice por qué: a menudo la sesión está cerrada o eliminada, o se llegó a un límite de capturas. Revisa la sesión de la entrevista antes de volver a enviar.',
  retryable: false,
};

/** A 400 of one endpoint, said in the terms of what it was asked (the generic words named no next step). */
const REFUSED_BY_ENDPOINT: Record<string, CatalogEntry> = {
  getRawIdvResults: interviewRead({ en: 'ID checks', es: 'las validaciones de identificación' }),
  getCrossDocResults: interviewRead({ en: 'document comparison', es: 'la comparación de documentos' }),
  getContractLinks: interviewRead({ en: 'contracts', es: 'los contratos' }),
  addFace: interviewWrite,
  addBackSecondId: interviewWrite,
  importVideo: interviewWrite,
  addConferenceNotes: interviewWrite,
  addName: interviewWrite,
  addCurp: interviewWrite,
  calculateContractNom151: {
    en: 'The service refused to seal this contract.',
    es: 'El servicio se negó a sellar este contrato.',
    adviceEn:
      "Check that the id is a signed contract of your organization: take it from the interview's Contracts panel. The service says why below.",
    adviceEs:
      'Revisa que el id sea de un contrato firmado de tu organización: tómalo del panel Contratos de la entrevista. Abajo está lo que dijo el servicio.',
    retryable: false,
  },
};

/** What a 400 of this endpoint means, when it has words of its own. */
export function refusedBy(endpoint: string): CatalogEntry | undefined {
  return Object.hasOwn(REFUSED_BY_ENDPOINT, endpoint) ? REFUSED_BY_ENDPOINT[endpoint] : undefined;
}

export function httpStatusEntry(status: number): CatalogEntry {
  const known = HTTP[status];
  if (known) return known;
  if (status === 502 || status === 503 || status === 504) return UNAVAILABLE;
  const server = status >= 500;
  return {
    en: `The service answered with an error (HTTP ${status}).`,
    es: `El servicio respondió con un error (HTTP ${status}).`,
    adviceEn: server ? 'Try again; if it keeps failing, contact support.' : 'Check the data sent and try again.',
    adviceEs: server
      ? 'Intenta de nuevo; si sigue fallando, contacta a soporte.'
      : 'Revisa los datos enviados e intenta de nuevo.',
    retryable: server,
  };
}
