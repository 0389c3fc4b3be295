import {
  FailReason,
  type CaptureAttemptsLimit,
  type CrossDocResponse,
  type RawIdvResponse,
  type SessionStatus,
  type TypeOfId,
} from '../../common/omni';

/**
 * The demo service's world: two organizations, their keys and integrations, seeded interviews that each show
 * one state or rule of the spec, and the customers face authentication can find by `hint`.
 * docs/demo-server.md lists the same scenarios in words; keep the two in step.
 */

export interface Organization {
  id: string;
  name: string;
  integrationId: string;
  secret: string;
  /** One-to-one face authentication needs a hint; one-to-N ignores it. */
  faceAuthMode: 'one-to-one' | 'one-to-n';
}

export interface ApiKeySeed {
  id: string;
  org: string;
  name: string;
  value: string;
  createdAt: string;
  enabled: boolean;
  superAdmin: boolean;
}

/** What a face model would have said about a selfie for this interview; the pixels decide brightness and quality. */
export type FaceScenario =
  | {
      kind: 'face';
      age: number;
      confidence: number;
      hasLenses: boolean;
      hasFaceMask: boolean;
      hasClosedEyes: boolean;
      hasHeadCover: boolean;
      faceOccluded: boolean;
    }
  | { kind: 'error'; status: 4010 | 4019 | 4077 | 4078 };

export interface BackIdScenario {
  typeOfId: TypeOfId;
  issueName: string;
  issueYear: number;
  countryCode: string;
  state: string;
  /** Per-field readability a reader would report; at least 0.38 approves the attempt (Mexican documents). */
  readabilityScore: number;
  isDocumentExpired: boolean;
  showMandatoryConsent: boolean;
  /** When set, successive uploads answer these failReasons in turn (one scenario covers the whole enum). */
  failReasonCycle?: FailReason[];
}

export interface ContractSeed {
  documentId: string;
  title: string;
  kind: 'credito' | 'privacidad' | 'seguro' | 'domiciliacion';
}

export interface InterviewSeed {
  id: string;
  /** What the scenario shows, in English; `labelEs` says the same in es-MX, so a screen never mixes languages. */
  label: string;
  labelEs: string;
  org: string;
  status: SessionStatus;
  fullName: string;
  curp?: string;
  front: 'none' | TypeOfId;
  idProcessingFinished: boolean;
  idFaceExtractionSkipped: boolean;
  attempts: { face?: CaptureAttemptsLimit; backId?: CaptureAttemptsLimit };
  face: FaceScenario;
  backId: BackIdScenario;
  rawIdv: RawIdvResponse;
  crossDoc: CrossDocResponse;
  contracts: ContractSeed[];
  /** `clip`: the committed 4-second recording; `long-call`: a 10-minute videocall built from it at start. */
  videoSelfie: false | 'clip' | 'long-call';
}

export const ORG_FINANCIERA = 'org-financiera-demo';
export const ORG_ASEGURADORA = 'org-aseguradora-demo';

export const organizations: Organization[] = [
  {
    id: ORG_FINANCIERA,
    name: 'Financiera Demo S.A. de C.V.',
    integrationId: '6f1c2a9e-3b7d-4c55-9a0e-1d2f3b4c5a61',
    secret: 'demo-secret-financiera-7Q2x',
    faceAuthMode: 'one-to-one',
  },
  {
    id: ORG_ASEGURADORA,
    name: 'Aseguradora Demo S.A.',
    integrationId: '0b8e4d27-91a3-4f6c-8d15-7e2a9c3b6f40',
    secret: 'demo-secret-aseguradora-K9m4',
    faceAuthMode: 'one-to-n',
  },
];

export const apiKeys: ApiKeySeed[] = [
  {
    id: 'key-fin-admin',
    org: ORG_FINANCIERA,
    name: 'Clave principal (superadministrador)',
    value: 'demo-fin-admin-4c1f9b2e7d',
    createdAt: '2025-03-04T16:20:00.000Z',
    enabled: true,
    superAdmin: true,
  },
  {
    id: 'key-fin-crm',
    org: ORG_FINANCIERA,
    name: 'Integración CRM',
    value: 'demo-fin-crm-8a3e5d1c06',
    createdAt: '2025-06-18T09:05:00.000Z',
    enabled: true,
    superAdmin: false,
  },
  {
    id: 'key-fin-legacy',
    org: ORG_FINANCIERA,
    name: 'Clave anterior (deshabilitada)',
    value: 'demo-fin-legacy-2b7f0a9e31',
    createdAt: '2024-11-02T12:00:00.000Z',
    enabled: false,
    superAdmin: false,
  },
  {
    id: 'key-ase-main',
    org: ORG_ASEGURADORA,
    name: 'Clave principal',
    value: 'demo-ase-main-5d2c8e1f47',
    createdAt: '2025-01-22T18:45:00.000Z',
    enabled: true,
    superAdmin: false,
  },
  {
    id: 'key-ase-portal',
    org: ORG_ASEGURADORA,
    name: 'Portal de agentes',
    value: 'demo-ase-portal-9e6b3a0d58',
    createdAt: '2025-08-30T14:10:00.000Z',
    enabled: true,
    superAdmin: false,
  },
];

const alive = (age: number): FaceScenario => ({
  kind: 'face',
  age,
  confidence: 0,
  hasLenses: false,
  hasFaceMask: false,
  hasClosedEyes: false,
  hasHeadCover: false,
  faceOccluded: false,
});

const ine = (overrides: Partial<BackIdScenario> = {}): BackIdScenario => ({
  typeOfId: 'VoterIdentification',
  issueName: 'MEX-INE-VOTER-ID-G',
  issueYear: 2021,
  countryCode: 'MEX',
  state: 'CDMX',
  readabilityScore: 0.91,
  isDocumentExpired: false,
  showMandatoryConsent: false,
  ...overrides,
});

const MODEL = '3.2.0';
const cleanChecks: RawIdvResponse['checkResults'] = [
  { name: 'faceTamperCheck', severity: 'low', version: MODEL, result: 0.03 },
  { name: 'screenLivenessCheck', severity: 'low', version: MODEL, result: 0.02 },
  { name: 'deepFraudCheck', severity: 'low', version: MODEL, result: 0.011 },
  { name: 'idTamperCheck', severity: 'low', version: MODEL, result: 0.04 },
];

const matching: CrossDocResponse = {
  fullName: {
    match: true,
    status: 'MATCH',
    score: 0.99,
    values: { frontId: 'ANA LÓPEZ GARCÍA', backId: 'ANA LOPEZ GARCIA', curp: 'ANA LOPEZ GARCIA' },
  },
  birthDate: { match: true, status: 'MATCH', score: 1, values: { frontId: '1990-05-15', curp: '1990-05-15' } },
  documentNumber: {
    match: true,
    status: 'MATCH',
    score: 1,
    values: { frontId: 'IDMEX2045871123', backId: 'IDMEX2045871123' },
  },
};

const contract = (interviewId: string, suffix: string, title: string, kind: ContractSeed['kind']): ContractSeed => ({
  documentId: `${interviewId}-${suffix}`,
  title,
  kind,
});

const base = (id: string, label: string, labelEs: string, fullName: string): InterviewSeed => ({
  id,
  label,
  labelEs,
  org: ORG_FINANCIERA,
  status: 'Alive',
  fullName,
  front: 'VoterIdentification',
  idProcessingFinished: false,
  idFaceExtractionSkipped: false,
  attempts: {},
  face: alive(34),
  backId: ine(),
  rawIdv: { checkResults: cleanChecks, fraudRisk: null },
  crossDoc: {},
  contracts: [],
  videoSelfie: false,
});

export const interviews: InterviewSeed[] = [
  {
    ...base('demo-clean-pass', 'Passed with no findings', 'Aprobada sin observaciones', 'Ana López García'),
    curp: 'LOGA900515MDFPRN07',
    rawIdv: {
      checkResults: cleanChecks,
      fraudRisk: {
        name: 'checkFraudRisk',
        severity: 'LOW',
        version: MODEL,
        result: 0.04182736451,
        responseText: 'No relevant fraud signals for this onboarding.',
        responseCategory: 'LEGIT',
        topNFraudFeatures: [],
        topNLegitFeatures: ['Device first seen in this onboarding', 'Selfie and ID face match strongly'],
        topNFraudCodes: [],
        topNLegitCodes: ['DEVICE_NEW', 'FACE_MATCH_STRONG'],
      },
    },
    crossDoc: matching,
    contracts: [
      contract('demo-clean-pass', 'credito', 'Contrato de crédito simple', 'credito'),
      contract('demo-clean-pass', 'privacidad', 'Aviso de privacidad integral', 'privacidad'),
    ],
    videoSelfie: 'clip',
  },
  {
    ...base('demo-fraud-high', 'High fraud risk', 'Riesgo de fraude alto', 'Bruno Salinas Ortega'),
    face: alive(41),
    rawIdv: {
      checkResults: [
        { name: 'faceTamperCheck', severity: 'low', version: MODEL, result: 0.08 },
        { name: 'screenLivenessCheck', severity: 'medium', version: MODEL, result: 0.46 },
        { name: 'deepFraudCheck', severity: 'high', version: MODEL, result: 0.93 },
        { name: 'printedCopyCheck', severity: 'low', version: MODEL, result: null },
      ],
      fraudRisk: {
        name: 'checkFraudRisk',
        severity: 'HIGH',
        version: MODEL,
        result: 0.9731846625,
        responseText: 'Several strong fraud signals: device reuse across onboardings and a replayed selfie.',
        responseCategory: 'FRAUD_RING',
        topNFraudFeatures: [
          'Device seen in 7 other onboardings this week',
          'IP geolocation 900 km from the ID address',
          'Selfie shows screen-replay artifacts',
        ],
        topNLegitFeatures: ['ID document passed template checks'],
        topNFraudCodes: ['DEVICE_REUSE', 'IP_GEO_MISMATCH', 'SCREEN_REPLAY'],
        topNLegitCodes: ['ID_TEMPLATE_OK'],
      },
    },
    crossDoc: {
      fullName: {
        match: false,
        status: 'MISMATCH',
        score: 0.41,
        values: { frontId: 'BRUNO SALINAS ORTEGA', backId: 'BRUNO SALINAS ORTIZ' },
      },
      birthDate: { match: false, status: 'MISMATCH', score: 0, values: { frontId: '1983-02-11', curp: '1983-11-02' } },
      documentNumber: {
        match: true,
        status: 'MATCH',
        score: 1,
        values: { frontId: 'IDMEX1180934417', backId: 'IDMEX1180934417' },
      },
    },
    contracts: [contract('demo-fraud-high', 'credito', 'Contrato de crédito simple', 'credito')],
    videoSelfie: 'clip',
  },
  {
    ...base('demo-empty-idv', 'ID validation not run', 'Sin validación de identificación', 'Carla Méndez Ruiz'),
    rawIdv: { checkResults: [], fraudRisk: null },
  },
  {
    ...base(
      'demo-no-fraud-risk',
      'Validation without a fraud-risk score',
      'Validación sin riesgo de fraude calculado',
      'Diego Herrera Luna',
    ),
    rawIdv: {
      checkResults: [
        ...cleanChecks.slice(0, 2),
        { name: 'deepFraudCheck', severity: 'medium', version: MODEL, result: 0.38 },
      ],
      fraudRisk: null,
    },
    crossDoc: {
      fullName: { match: true, status: 'MATCH', score: 0.97 },
      address: { match: false, status: 'NOT_COMPARED', reason: 'The back of the ID carries no address' },
    },
  },
  {
    ...base('demo-closed', 'Closed session', 'Sesión cerrada', 'Elena Rivas Campos'),
    status: 'Closed',
    crossDoc: matching,
    contracts: [contract('demo-closed', 'credito', 'Contrato de crédito simple', 'credito')],
    videoSelfie: 'clip',
  },
  {
    ...base('demo-deleted', 'Deleted session', 'Sesión eliminada', 'Fernando Díaz Mora'),
    status: 'Deleted',
    contracts: [contract('demo-deleted', 'credito', 'Contrato de crédito simple', 'credito')],
  },
  {
    ...base(
      'demo-attempts-limited',
      'Limited capture attempts (3)',
      'Intentos de captura limitados (3)',
      'Gabriela Núñez Vega',
    ),
    attempts: { face: { max: 3, remaining: 3 }, backId: { max: 3, remaining: 3 } },
  },
  {
    ...base(
      'demo-attempts-exhausted',
      'Capture attempts used up',
      'Intentos de captura agotados',
      'Héctor Pineda Solís',
    ),
    attempts: { face: { max: 3, remaining: 0 }, backId: { max: 3, remaining: 0 } },
  },
  {
    ...base(
      'demo-id-processing-finished',
      'ID processing finished',
      'Procesamiento de identificación terminado',
      'Irene Castillo Paz',
    ),
    idProcessingFinished: true,
  },
  {
    ...base('demo-no-front-id', 'No front of ID', 'Sin anverso de identificación', 'Jorge Aguilar Ríos'),
    front: 'none',
  },
  {
    ...base('demo-passport', 'Passport as ID', 'Pasaporte como identificación', 'Karen Wolf Estrada'),
    front: 'Passport',
    backId: ine({ typeOfId: 'Passport', issueName: 'MEX-PASSPORT-G3', countryCode: 'MEX' }),
  },
  {
    ...base(
      'demo-id-face-skipped',
      'Face extraction from the INE skipped',
      'Extracción de rostro del INE omitida',
      'Luis Ortega Bravo',
    ),
    idFaceExtractionSkipped: true,
  },
  {
    ...base(
      'demo-face-multiple',
      'Selfie with more than one face (4010)',
      'Selfie con más de un rostro (4010)',
      'Mariana Cruz Ibarra',
    ),
    face: { kind: 'error', status: 4010 },
  },
  {
    ...base('demo-face-not-found', 'Selfie without a face (4019)', 'Selfie sin rostro (4019)', 'Nicolás Fuentes Lara'),
    face: { kind: 'error', status: 4019 },
  },
  {
    ...base(
      'demo-face-low-quality',
      'Low-quality selfie (4077)',
      'Selfie de baja calidad (4077)',
      'Olga Zamora Téllez',
    ),
    face: { kind: 'error', status: 4077 },
  },
  {
    ...base(
      'demo-face-occluded',
      'Selfie with a covered face (4078)',
      'Selfie con rostro cubierto (4078)',
      'Pablo Serrano Gil',
    ),
    face: { kind: 'error', status: 4078 },
  },
  {
    ...base(
      'demo-face-recapture',
      'Selfie with recapture advised',
      'Selfie con recaptura recomendada',
      'Quetzalli Ramos Soto',
    ),
    face: {
      kind: 'face',
      age: 27,
      confidence: 1,
      hasLenses: true,
      hasFaceMask: true,
      hasClosedEyes: true,
      hasHeadCover: true,
      faceOccluded: true,
    },
  },
  {
    ...base(
      'demo-id-fail-reasons',
      'Back of ID rejected (each reason in turn)',
      'Reverso rechazado (cada motivo en turno)',
      'Rodrigo Medina Cano',
    ),
    backId: ine({
      readabilityScore: 0.2,
      // Every reason the spec lists, one per capture.
      failReasonCycle: FailReason.options,
    }),
  },
  {
    ...base(
      'demo-expired-id',
      'Expired ID with consent notice',
      'Identificación vencida con aviso de consentimiento',
      'Sofía Beltrán Ochoa',
    ),
    backId: ine({ issueYear: 2014, isDocumentExpired: true, showMandatoryConsent: true, readabilityScore: 0.52 }),
  },
  {
    ...base('demo-contracts-many', 'Several signed contracts', 'Varios contratos firmados', 'Tomás Villalobos Reyes'),
    crossDoc: matching,
    contracts: [
      contract('demo-contracts-many', 'credito', 'Contrato de crédito simple', 'credito'),
      contract('demo-contracts-many', 'seguro', 'Póliza de seguro de vida deudor', 'seguro'),
      contract('demo-contracts-many', 'domiciliacion', 'Autorización de domiciliación de pagos', 'domiciliacion'),
      contract('demo-contracts-many', 'privacidad', 'Aviso de privacidad integral', 'privacidad'),
    ],
  },
  {
    ...base(
      'demo-long-video',
      'Long videocall recording (10 minutes)',
      'Grabación larga de videollamada (10 minutos)',
      'Valeria Soto Guzmán',
    ),
    crossDoc: matching,
    videoSelfie: 'long-call',
  },
  {
    ...base(
      'demo-orgb-onboarding',
      "Another organization (Aseguradora Demo): its keys see it, Financiera Demo's do not",
      'Otra organización (Aseguradora Demo): sus llaves la ven, las de Financiera Demo no',
      'Ulises Navarro Prieto',
    ),
    org: ORG_ASEGURADORA,
    crossDoc: matching,
    contracts: [contract('demo-orgb-onboarding', 'seguro', 'Póliza de seguro de gastos médicos', 'seguro')],
    videoSelfie: 'clip',
  },
];

/** Face-authentication outcomes by `hint` for the one-to-one organization; any other hint is an unknown customer. */
export type AuthOutcome =
  { pass: true; candidate: string } | { pass: false; name: import('../../common/omni').AuthErrorName };

export interface CustomerSeed {
  hint: string;
  customerId: string;
  outcome: AuthOutcome;
  attempts?: CaptureAttemptsLimit;
}

const failing = (name: import('../../common/omni').AuthErrorName): CustomerSeed => ({
  hint: `${name.toLowerCase().replaceAll('_', '-')}@demo.mx`,
  customerId: `cust-${name.toLowerCase().replaceAll('_', '-')}`,
  outcome: { pass: false, name },
});

export const customers: CustomerSeed[] = [
  { hint: 'ana.lopez@demo.mx', customerId: 'cust-ana-lopez', outcome: { pass: true, candidate: 'cust-ana-lopez' } },
  { hint: '+525512345678', customerId: 'cust-ana-lopez', outcome: { pass: true, candidate: 'cust-ana-lopez' } },
  {
    hint: 'limited@demo.mx',
    customerId: 'cust-limited',
    outcome: { pass: true, candidate: 'cust-limited' },
    attempts: { max: 3, remaining: 3 },
  },
  ...(
    [
      'INACTIVE_SESSION',
      'LENSES_DETECTED',
      'FACE_MASK_DETECTED',
      'HEAD_COVER_DETECTED',
      'CLOSED_EYES_DETECTED',
      'FACE_TOO_DARK',
      'SPOOF_ATTEMPT_DETECTED',
      'USER_IS_NOT_RECOGNIZED',
      'SELFIE_IMAGE_LOW_QUALITY',
      'MULTIPLE_FACES_DETECTED',
      'FACE_NOT_FOUND',
      'FACE_CROPPING_FAILED',
      'FACE_TOO_SMALL',
      'FACE_TOO_BLURRY',
      'BAD_PHOTO_QUALITY',
      'PROCESSING_ERROR',
      'BAD_REQUEST',
    ] as const
  ).map(failing),
];

/** The one customer the one-to-N organization's gallery matches. */
export const oneToNCandidate = 'cust-ulises-navarro';
