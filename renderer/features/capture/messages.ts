import { defineMessages } from '../../i18n/index';

/**
 * Field labels are `f_<field>`; the advice for a field's verdict is `v_<field>_<verdict>` (falls back to the
 * generic `verdict_<verdict>` text).
 */
export const messages = defineMessages({
  en: {
    title: 'Capture',
    intro:
      'Upload captures on behalf of a person and read the service’s answer as advice. Selfie, back of ID and video need the interview’s session token; face authentication uses the organization’s server token.',
    tabsLabel: 'Capture tools',
    tabSelfie: 'Selfie',
    tabBackId: 'Back of second ID',
    tabAuth: 'Face authentication',
    tabVideo: 'Video import',
    needsInterview: 'Disabled: {reason}',
    reasonNoInterview: 'choose the interview first.',
    reasonNoToken: 'the chosen interview has no session token; attach it above.',
    authNoInterview:
      'Face authentication compares against onboarded customers with the organization’s server token: no interview is needed.',
    source: 'Image source',
    sourceFile: 'File (PNG or JPEG)',
    sourceUrl: 'URL on the allow-list',
    fileLabel: 'Photo',
    fileHint: 'PNG or JPEG, at most {max}. Checked here before anything is sent.',
    urlLabel: 'Image URL',
    urlHint: 'Its domain must be on the service’s allow-list; the service fetches it.',
    urlInvalid: 'Enter a full http(s) address.',
    preview: 'Chosen photo',
    captureType: 'Capture type',
    captureTypeNone: 'Not stated',
    captureTypeUPLOAD: 'File upload',
    captureTypeMANUAL: 'Manual capture',
    captureTypeAUTO: 'Automatic capture',
    captureTypeNATIVE: 'Native capture (device)',
    serviceTerm: 'service’s term',
    coordinates: 'Face coordinates (optional)',
    coordinatesJson: 'Coordinates as JSON',
    coordinatesHint:
      'FaceCoordinatesDto as JSON: leftEyeX, leftEyeY, rightEyeX, rightEyeY, rightMouthX, rightMouthY, noseTipX, noseTipY, x, y, width, height (leftMouthX/Y optional).',
    coordinatesInvalid: 'These coordinates are not valid: {problems}',
    coordinatesNotJson: 'This is not valid JSON.',
    sendSelfie: 'Upload selfie',
    sendBackId: 'Upload back of ID',
    sending: 'Sending…',
    recapture: 'Recapture advised',
    noRecapture: 'No recapture needed',
    attemptsLeft: '{remaining} of {max} capture attempts left',
    attemptsNone: 'No capture attempts left ({max} allowed by the session flow).',
    attemptsUnlimited: 'The session flow does not limit attempts.',
    indicators: 'What the answer says',
    colIndicator: 'Indicator',
    colValue: 'Value',
    colVerdict: 'Verdict',
    colAdvice: 'What it means',
    selfieNothing: 'No selfie uploaded yet. Choose a photo or a URL, then upload.',
    backIdNothing: 'No back of ID uploaded yet. The front must already be uploaded for this interview.',
    verdict_ok: 'OK',
    verdict_recapture: 'Recapture',
    verdict_warning: 'Check',
    verdict_info: 'Info',
    verdict_notChecked: 'Not checked',
    adv_notChecked: 'Not checked in this session flow.',
    groupQuality: 'Image quality',
    groupDocument: 'Document',
    groupFlow: 'Flow and consent',
    failReason: 'Why the ID was refused',
    acceptedDocuments: 'Accepted documents for this country',
    rulesTitle: 'Rules for the back of the second ID',
    ruleFront: 'The front side must be uploaded first.',
    ruleNotPassport: 'Passports have no back side: do not upload one for a passport.',
    ruleFinished: 'Once ID processing finishes, the back can no longer be uploaded or retried.',
    ruleApplied: 'This rule refused the upload',
    authMode: 'Mode',
    authOneToOne: 'One-to-one: the person is looked up by the hint, then compared.',
    authOneToN: 'One-to-N: the face is searched among all onboarded customers (no hint).',
    hintLabel: 'Hint (customer id, email or phone)',
    hintHint: 'Leave empty for one-to-N.',
    recordingIdLabel: 'Recording id (optional, for spoof detection)',
    authenticate: 'Authenticate',
    authPass: 'PASS',
    authFail: 'FAIL',
    candidate: 'Matched candidate',
    authNothing: 'No authentication run yet. Choose a photo; add a hint for one-to-one.',
    serviceSaid: 'The service said: “{message}”',
    code: 'Code {code}',
    videoFile: 'Video file',
    videoHint: 'WebM or MP4. It is streamed to the service in pieces, never loaded whole.',
    recordingType: 'Recording type',
    recordingTypeOption: '{type} ({code})',
    importVideo: 'Import video',
    staging: 'Preparing the file',
    uploading: 'Uploading to the service',
    processing: 'All bytes sent; waiting for the service…',
    importDone: 'Imported. Recording id:',
    importCancelled: 'Import cancelled. Nothing was recorded.',
    videoNothing: 'No video imported yet. Choose a file and a recording type.',
    taskImport: 'Video import for {id}',
    photoNotKept: 'The photo you had picked ({name}) is not kept when you leave this screen: pick it again.',
  },
  es: {
    title: 'Captura',
    intro:
      'Sube capturas a nombre de una persona y lee la respuesta del servicio como recomendaciones. Selfie, reverso de identificación y video necesitan el token de sesión de la entrevista; la autenticación facial usa el token de servidor de la organización.',
    tabsLabel: 'Herramientas de captura',
    tabSelfie: 'Selfie',
    tabBackId: 'Reverso de segunda identificación',
    tabAuth: 'Autenticación facial',
    tabVideo: 'Importar video',
    needsInterview: 'Deshabilitado: {reason}',
    reasonNoInterview: 'primero elige la entrevista.',
    reasonNoToken: 'la entrevista elegida no tiene token de sesión; adjúntalo arriba.',
    authNoInterview:
      'La autenticación facial compara contra clientes ya dados de alta con el token de servidor de la organización: no necesita entrevista.',
    source: 'Origen de la imagen',
    sourceFile: 'Archivo (PNG o JPEG)',
    sourceUrl: 'URL en la lista permitida',
    fileLabel: 'Foto',
    fileHint: 'PNG o JPEG, máximo {max}. Se revisa aquí antes de enviar nada.',
    urlLabel: 'URL de la imagen',
    urlHint: 'Su dominio debe estar en la lista permitida del servicio; el servicio la descarga.',
    urlInvalid: 'Escribe una dirección http(s) completa.',
    preview: 'Foto elegida',
    captureType: 'Tipo de captura',
    captureTypeNone: 'Sin indicar',
    captureTypeUPLOAD: 'Archivo subido',
    captureTypeMANUAL: 'Captura manual',
    captureTypeAUTO: 'Captura automática',
    captureTypeNATIVE: 'Captura nativa (dispositivo)',
    serviceTerm: 'término del servicio',
    coordinates: 'Coordenadas del rostro (opcional)',
    coordinatesJson: 'Coordenadas en JSON',
    coordinatesHint:
      'FaceCoordinatesDto en JSON: leftEyeX, leftEyeY, rightEyeX, rightEyeY, rightMouthX, rightMouthY, noseTipX, noseTipY, x, y, width, height (leftMouthX/Y opcionales).',
    coordinatesInvalid: 'Estas coordenadas no son válidas: {problems}',
    coordinatesNotJson: 'Esto no es JSON válido.',
    sendSelfie: 'Subir selfie',
    sendBackId: 'Subir reverso',
    sending: 'Enviando…',
    recapture: 'Se recomienda recapturar',
    noRecapture: 'No hace falta recapturar',
    attemptsLeft: 'Quedan {remaining} de {max} intentos de captura',
    attemptsNone: 'No quedan intentos de captura ({max} permitidos por el flujo de la sesión).',
    attemptsUnlimited: 'El flujo de la sesión no limita los intentos.',
    indicators: 'Qué dice la respuesta',
    colIndicator: 'Indicador',
    colValue: 'Valor',
    colVerdict: 'Veredicto',
    colAdvice: 'Qué significa',
    selfieNothing: 'Aún no se sube ninguna selfie. Elige una foto o una URL y súbela.',
    backIdNothing: 'Aún no se sube ningún reverso. El anverso ya debe estar cargado en esta entrevista.',
    verdict_ok: 'Correcto',
    verdict_recapture: 'Recapturar',
    verdict_warning: 'Revisar',
    verdict_info: 'Dato',
    verdict_notChecked: 'No revisado',
    adv_notChecked: 'No se revisa en este flujo de sesión.',
    groupQuality: 'Calidad de imagen',
    groupDocument: 'Documento',
    groupFlow: 'Flujo y consentimiento',
    failReason: 'Por qué se rechazó la identificación',
    acceptedDocuments: 'Documentos aceptados para este país',
    rulesTitle: 'Reglas del reverso de la segunda identificación',
    ruleFront: 'Primero debe cargarse el anverso.',
    ruleNotPassport: 'El pasaporte no tiene reverso: no subas uno para un pasaporte.',
    ruleFinished:
      'Cuando termina el procesamiento de la identificación, el reverso ya no se puede subir ni reintentar.',
    ruleApplied: 'Esta regla rechazó la carga',
    authMode: 'Modo',
    authOneToOne: 'Uno a uno: se busca a la persona por la pista y luego se compara.',
    authOneToN: 'Uno a N: se busca el rostro entre todos los clientes dados de alta (sin pista).',
    hintLabel: 'Pista (id de cliente, correo o teléfono)',
    hintHint: 'Déjala vacía para uno a N.',
    recordingIdLabel: 'Id de grabación (opcional, para detección de suplantación)',
    authenticate: 'Autenticar',
    authPass: 'APROBADA',
    authFail: 'RECHAZADA',
    candidate: 'Candidato encontrado',
    authNothing: 'Aún no se autentica a nadie. Elige una foto; agrega una pista para uno a uno.',
    serviceSaid: 'El servicio dijo: “{message}”',
    code: 'Código {code}',
    videoFile: 'Archivo de video',
    videoHint: 'WebM o MP4. Se envía al servicio por partes, nunca se carga completo.',
    recordingType: 'Tipo de grabación',
    recordingTypeOption: '{type} ({code})',
    importVideo: 'Importar video',
    staging: 'Preparando el archivo',
    uploading: 'Subiendo al servicio',
    processing: 'Se enviaron todos los bytes; esperando al servicio…',
    importDone: 'Importado. Id de grabación:',
    importCancelled: 'Importación cancelada. No se registró nada.',
    videoNothing: 'Aún no se importa ningún video. Elige un archivo y un tipo de grabación.',
    taskImport: 'Importación de video para {id}',
    photoNotKept: 'La foto que habías elegido ({name}) no se conserva al salir de esta pantalla: vuelve a elegirla.',
  },
});

/** Labels and per-verdict advice of every indicator the service documents, in both languages. */
export const fieldTexts: Record<
  string,
  {
    label: { en: string; es: string };
    advice?: Partial<Record<'ok' | 'recapture' | 'warning' | 'info', { en: string; es: string }>>;
  }
> = {
  isBright: {
    label: { en: 'Brightness', es: 'Iluminación' },
    advice: {
      ok: { en: 'Bright enough.', es: 'Suficientemente iluminada.' },
      recapture: { en: 'Too dark: recapture in better light.', es: 'Muy oscura: recaptura con mejor luz.' },
    },
  },
  confidence: {
    label: { en: 'Liveness (0 alive, 1 recapture)', es: 'Prueba de vida (0 viva, 1 recapturar)' },
    advice: {
      ok: { en: 'A live person.', es: 'Una persona viva.' },
      warning: { en: 'Uncertain: review before accepting.', es: 'Incierto: revisa antes de aceptar.' },
      recapture: { en: 'May not be a live person: recapture.', es: 'Puede no ser una persona viva: recaptura.' },
    },
  },
  hasLenses: {
    label: { en: 'Glasses', es: 'Lentes' },
    advice: {
      ok: { en: 'None.', es: 'No tiene.' },
      recapture: {
        en: 'Glasses detected: ask to remove them and recapture.',
        es: 'Se detectaron lentes: pide que se los quite y recaptura.',
      },
    },
  },
  hasFaceMask: {
    label: { en: 'Face mask', es: 'Cubrebocas' },
    advice: {
      ok: { en: 'None.', es: 'No tiene.' },
      recapture: {
        en: 'Face mask detected: ask to remove it and recapture.',
        es: 'Se detectó cubrebocas: pide que se lo quite y recaptura.',
      },
    },
  },
  hasClosedEyes: {
    label: { en: 'Closed eyes', es: 'Ojos cerrados' },
    advice: {
      ok: { en: 'Eyes open.', es: 'Ojos abiertos.' },
      recapture: {
        en: 'Eyes closed: recapture looking at the camera.',
        es: 'Ojos cerrados: recaptura mirando a la cámara.',
      },
    },
  },
  hasHeadCover: {
    label: { en: 'Head cover', es: 'Gorra o cubierta' },
    advice: {
      ok: { en: 'None.', es: 'No tiene.' },
      recapture: {
        en: 'Head cover detected: ask to remove it and recapture.',
        es: 'Se detectó gorra o cubierta: pide que se la quite y recaptura.',
      },
    },
  },
  faceOccluded: {
    label: { en: 'Face covered', es: 'Rostro cubierto' },
    advice: {
      ok: { en: 'Fully visible.', es: 'Totalmente visible.' },
      recapture: { en: 'Part of the face is covered: recapture.', es: 'Parte del rostro está cubierta: recaptura.' },
    },
  },
  age: { label: { en: 'Estimated age', es: 'Edad estimada' } },
  sessionStatus: {
    label: { en: 'Session status', es: 'Estado de la sesión' },
    advice: { warning: { en: 'The session no longer accepts captures.', es: 'La sesión ya no acepta capturas.' } },
  },
  classification: {
    label: { en: 'Recognized as an ID side', es: 'Reconocido como lado de identificación' },
    advice: {
      recapture: {
        en: 'Not a valid ID side: the other quality fields can be ignored.',
        es: 'No es un lado válido: los demás campos de calidad pueden ignorarse.',
      },
    },
  },
  readability: {
    label: { en: 'Read properly', es: 'Se leyó bien' },
    advice: {
      recapture: { en: 'The ID could not be read: recapture.', es: 'No se pudo leer la identificación: recaptura.' },
    },
  },
  correctSharpness: {
    label: { en: 'Sharpness', es: 'Nitidez' },
    advice: { recapture: { en: 'Blurry: hold steady and recapture.', es: 'Borrosa: sin moverse, recaptura.' } },
  },
  correctGlare: {
    label: { en: 'Glare', es: 'Reflejos' },
    advice: {
      recapture: {
        en: 'Glare on the document: tilt it away from the light.',
        es: 'Reflejos en el documento: inclínalo lejos de la luz.',
      },
      info: {
        en: 'Glare is ignored on the back in this flow.',
        es: 'En este flujo se ignoran los reflejos del reverso.',
      },
    },
  },
  horizontalResolution: {
    label: { en: 'Resolution (minimum 155)', es: 'Resolución (mínimo 155)' },
    advice: {
      ok: { en: 'At or above 155.', es: 'En 155 o más.' },
      recapture: {
        en: 'Below 155: recapture closer or with a better camera.',
        es: 'Menor a 155: recaptura más cerca o con mejor cámara.',
      },
    },
  },
  shadowConfidence: {
    label: { en: 'Shadow (0 none, 1 heavy)', es: 'Sombra (0 ninguna, 1 fuerte)' },
    advice: {
      ok: { en: 'Little or no shadow.', es: 'Poca o ninguna sombra.' },
      recapture: { en: 'Heavy shadow: recapture in even light.', es: 'Sombra fuerte: recaptura con luz pareja.' },
    },
  },
  documentIsOnTheEdge: {
    label: { en: 'Touches the frame edge', es: 'Toca el borde de la imagen' },
    advice: {
      recapture: {
        en: 'Keep the whole document inside the frame.',
        es: 'Deja el documento completo dentro de la imagen.',
      },
    },
  },
  typeOfId: { label: { en: 'Type of ID', es: 'Tipo de identificación' } },
  issueName: { label: { en: 'Issue name', es: 'Nombre de emisión' } },
  issueYear: { label: { en: 'Issue year', es: 'Año de emisión' } },
  countryCode: { label: { en: 'Issuing country', es: 'País emisor' } },
  state: { label: { en: 'Issuing state', es: 'Estado emisor' } },
  curpCheck: {
    label: { en: 'CURP read from the ID', es: 'CURP leído de la identificación' },
    advice: { warning: { en: 'The CURP was not read properly.', es: 'El CURP no se leyó bien.' } },
  },
  isDocumentExpired: {
    label: { en: 'Expired', es: 'Vencida' },
    advice: {
      ok: { en: 'Not expired.', es: 'Vigente.' },
      warning: { en: 'This side of the document is expired.', es: 'Este lado del documento está vencido.' },
    },
  },
  idQualityAttemptApproved: {
    label: { en: 'Quality approved (readability ≥ 0.38)', es: 'Calidad aprobada (legibilidad ≥ 0.38)' },
    advice: {
      warning: { en: 'Per-field readability is below 0.38.', es: 'La legibilidad por campo es menor a 0.38.' },
    },
  },
  showMandatoryConsent: {
    label: { en: 'Mandatory consent', es: 'Consentimiento obligatorio' },
    advice: {
      ok: { en: 'Not required.', es: 'No se requiere.' },
      warning: {
        en: 'Show the mandatory consent page to the person.',
        es: 'Muestra a la persona la página de consentimiento obligatorio.',
      },
    },
  },
  regulationType: { label: { en: 'Consent regulation', es: 'Regulación del consentimiento' } },
  skipBackIdCapture: { label: { en: 'Skip back capture', es: 'Omitir captura del reverso' } },
  forceFrontIdCapture: {
    label: { en: 'Front capture required after the back', es: 'Se requiere capturar el anverso después' },
    advice: {
      warning: {
        en: 'Capture the front again after the back.',
        es: 'Vuelve a capturar el anverso después del reverso.',
      },
    },
  },
  skipGlareFront: { label: { en: 'Ignore glare on the front', es: 'Ignorar reflejos del anverso' } },
  skipGlareBack: { label: { en: 'Ignore glare on the back', es: 'Ignorar reflejos del reverso' } },
  imageRedacted: { label: { en: 'Image redacted', es: 'Imagen censurada' } },
  idFaceExtractionSkipped: {
    label: { en: 'Face extraction from the ID skipped', es: 'Extracción del rostro de la identificación omitida' },
    advice: {
      warning: {
        en: 'Face-match flows that need the ID face cannot run.',
        es: 'No pueden correr los flujos de comparación que necesitan el rostro de la identificación.',
      },
    },
  },
  attemptId: { label: { en: 'Attempt id', es: 'Id del intento' } },
};

export const QUALITY_FIELDS = [
  'classification',
  'readability',
  'correctSharpness',
  'correctGlare',
  'horizontalResolution',
  'shadowConfidence',
  'documentIsOnTheEdge',
];
export const DOCUMENT_FIELDS = [
  'typeOfId',
  'issueName',
  'issueYear',
  'countryCode',
  'state',
  'curpCheck',
  'isDocumentExpired',
  'idQualityAttemptApproved',
];
