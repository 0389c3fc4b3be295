import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import * as c from '../../../common/omni';
import { endpoints } from '../../../main/omni/endpoints';

const face = {
  leftEyeX: 10,
  leftEyeY: 20,
  rightEyeX: 30,
  rightEyeY: 20,
  rightMouthX: 28,
  rightMouthY: 50,
  noseTipX: 20,
  noseTipY: 35,
  x: 0,
  y: 0,
  width: 60,
  height: 80,
};
const fraud = {
  name: 'checkFraudRisk',
  severity: 'HIGH',
  version: '2.1',
  result: 0.8731945,
  responseText: 'Device reused',
  responseCategory: 'device',
  topNFraudFeatures: ['device reuse'],
  topNLegitFeatures: ['clean email'],
  topNFraudCodes: ['DEV_REUSE'],
  topNLegitCodes: ['EMAIL_OK'],
};
const check = { name: 'faceTamper', severity: 'low', version: '1.0', result: 0.02 };

/** Valid and invalid samples of every schema the contract exports. A new schema without samples fails the last test. */
const samples: Record<string, { valid: unknown[]; invalid: unknown[] }> = {
  SessionStatus: { valid: ['Alive', 'Closed', 'Deleted'], invalid: ['alive', 'Open'] },
  CaptureType: { valid: ['AUTO', 'MANUAL', 'NATIVE', 'UPLOAD'], invalid: ['auto', 'CAMERA'] },
  RecordingType: {
    valid: ['frontId', 'backId', 'merged', 'selfie', 'authenticationattempt'],
    invalid: ['FrontId', 'video'],
  },
  ErrorBody: {
    valid: [
      { timestamp: 1700000000000, status: 4019, error: 'Bad Request', path: '/omni/add/face/third-party' },
      { timestamp: 1, status: 400, error: 'x', path: '/', message: null, details: { a: 1 }, extra: true },
    ],
    invalid: [
      { timestamp: 1, status: '400', error: 'x', path: '/' },
      { status: 400, error: 'x', path: '/' },
    ],
  },
  HttpUrl: {
    valid: ['https://cdn.example/a.jpg', 'http://127.0.0.1:9/x'],
    invalid: ['file:///etc/passwd', 'javascript:alert(1)', 'not a url'],
  },
  FaceCoordinates: {
    valid: [face, { ...face, mouthX: 12, mouthY: 50 }, { ...face, leftMouthX: 12, leftMouthY: 50 }],
    invalid: [
      { ...face, leftEyeX: undefined },
      { ...face, width: -1 },
      { ...face, x: Number.NaN },
    ],
  },
  CaptureAttemptsLimit: { valid: [{ max: 3, remaining: 1 }], invalid: [{ max: 3 }, { max: 1.5, remaining: 1 }] },
  SuccessResponse: {
    valid: [{ success: true, sessionStatus: 'Alive' }, { success: false }],
    invalid: [{ sessionStatus: 'Alive' }, { success: true, sessionStatus: 'Open' }],
  },
  InterviewIdQuery: { valid: [{}, { id: 'iv-1' }], invalid: [{ id: '' }, { id: 5 }] },
  NoQuery: { valid: [{}], invalid: ['x', null] },
  NoBody: { valid: [undefined], invalid: [{}, ''] },
  AuthorizeRequest: {
    valid: [
      { integration_id: 'i', integrationId: 'i', secret: 's' },
      { integration_id: 'i', secret: 's' },
      { integrationId: 'i', secret: 's' },
    ],
    invalid: [{ secret: 's' }, { integration_id: 'a', integrationId: 'b', secret: 's' }, { integration_id: 'i' }],
  },
  AuthorizeResponse: { valid: [{ token: 'eyJ.x.y' }], invalid: [{ token: '' }, {}] },
  AddFaceQuery: {
    valid: [{}, { imageType: 'selfie', captureType: 'MANUAL', externalCaptureId: 'e', recordingId: 'r' }],
    invalid: [{ captureType: 'manual' }],
  },
  AddFaceBody: {
    valid: [{ base64Image: 'AAAA' }, { imageUrl: 'https://cdn.example/f.jpg', faceCoordinates: face }],
    invalid: [{}, { base64Image: 'AAAA', imageUrl: 'https://cdn.example/f.jpg' }, { imageUrl: 'ftp://x/y' }],
  },
  AddFaceResponse: {
    valid: [
      {
        age: 31,
        isBright: true,
        confidence: 0,
        hasLenses: false,
        sessionStatus: 'Alive',
        captureAttemptsLimit: { max: 3, remaining: 2 },
        newField: 1,
      },
      {},
    ],
    invalid: [{ age: 31.5 }, { sessionStatus: 'alive' }],
  },
  AuthErrorName: { valid: ['INACTIVE_SESSION', 'BAD_REQUEST'], invalid: ['inactive_session', 'UNKNOWN'] },
  // A failure name newer than the spec is kept as it came (openEnum).
  OnboardingAuthenticationError: {
    valid: [
      { name: 'FACE_TOO_DARK', message: 'dark' },
      { name: 'TOO_DARK', message: 'x' },
    ],
    invalid: [{ name: 'FACE_TOO_DARK' }, { name: 7, message: 'x' }],
  },
  Timestamp: {
    valid: ['2026-01-02T03:04:05Z', 1_700_000_000_000, 1_700_000_000, '1700000000000'],
    invalid: [null, true, Number.NaN],
  },
  AuthenticateBody: {
    valid: [{ base64Image: 'AAAA', hint: 'cust-1', faceCoordinates: face, recordingId: 'r' }, { base64Image: 'AAAA' }],
    invalid: [{ hint: 'x' }, { base64Image: '' }],
  },
  AuthenticateResponse: {
    valid: [
      { overallStatus: 'PASS', candidate: 'c-1' },
      {
        overallStatus: 'FAIL',
        error: { name: 'USER_IS_NOT_RECOGNIZED', message: 'no' },
        captureAttemptsLimit: { max: 3, remaining: 0 },
      },
    ],
    // A status newer than the spec is kept as it came (openEnum); a missing or non-text one is not.
    invalid: [{ overallStatus: 3 }, { candidate: 'c' }],
  },
  OverallStatus: { valid: ['PASS', 'FAIL'], invalid: ['pass'] },
  TypeOfId: { valid: ['Passport', 'FederalID', 'MedicalCard'], invalid: ['passport', 'INE'] },
  FailReason: { valid: ['WRONG_DOCUMENT_SIDE'], invalid: ['WRONG_SIDE'] },
  AddBackSecondIdQuery: { valid: [{}, { captureType: 'UPLOAD' }], invalid: [{ captureType: 'FILE' }] },
  AddBackSecondIdBody: {
    valid: [{ base64Image: 'AAAA' }, { imageUrl: 'https://x.example/b.png' }],
    invalid: [{}, { base64Image: '' }],
  },
  AddBackSecondIdResponse: {
    valid: [
      {
        correctSharpness: true,
        correctGlare: true,
        horizontalResolution: 180,
        shadowConfidence: 0.1,
        classification: true,
        readability: true,
        typeOfId: 'VoterIdentification',
        issueYear: 2019,
        issueName: 'MEX INE',
        curpCheck: true,
        sessionStatus: 'Alive',
        countryCode: 'MX',
        state: 'CDMX',
        failReason: null,
        acceptedDocuments: [],
        idFaceExtractionSkipped: false,
        captureAttemptsLimit: { max: 5, remaining: 4 },
        idQualityAttemptApproved: true,
        isDocumentExpired: false,
        attemptId: 'a-1',
      },
      { classification: false, failReason: 'ID_TYPE_UNACCEPTABLE', acceptedDocuments: ['Passport'] },
    ],
    invalid: [{ typeOfId: 5 }, { failReason: false }, { horizontalResolution: 'high' }],
  },
  ImportVideoBody: {
    valid: [{ video: 'AAAA', type: 'selfie' }, { video: 'AAAA' }],
    invalid: [{ video: '' }, { video: 'AAAA', type: 'Selfie' }],
  },
  ImportVideoResponse: { valid: [{ recordingId: 'rec-1' }], invalid: [{}, { recordingId: '' }] },
  VideoSelfieUrlQuery: { valid: [{}, { interviewId: 'iv' }], invalid: [{ interviewId: '' }] },
  VideoSelfieUrlResponse: {
    valid: [{ url: 'https://media.example/v.mp4?sig=a' }],
    invalid: [{ url: 'file:///tmp/v.mp4' }, {}],
  },
  AddNotesBody: {
    valid: [{ notes: 'Checked with the person.' }],
    invalid: [{ notes: '' }, { notes: 'x'.repeat(20_001) }],
  },
  AddNameBody: { valid: [{ name: 'Ana López' }], invalid: [{ name: '   ' }, {}] },
  ContractLinksResponse: {
    valid: [
      { success: true, sessionStatus: 'Alive', additionalInformation: { 'doc-1': 'https://x.example/1.pdf' } },
      { success: true, additionalInformation: null },
    ],
    invalid: [
      { success: true, additionalInformation: { 'doc-1': 5 } },
      { success: true, additionalInformation: { 'doc-1': 'file:///etc/passwd' } },
    ],
  },
  RawCheckSeverity: { valid: ['low', 'medium', 'high'], invalid: ['LOW'] },
  RawIdvCheckResult: {
    valid: [check, { ...check, result: null }, { ...check, severity: 'critical' }],
    invalid: [
      { ...check, severity: 7 },
      { ...check, result: 1.5 },
    ],
  },
  FraudSeverity: { valid: ['LOW', 'MEDIUM', 'HIGH'], invalid: ['low'] },
  FraudRisk: {
    valid: [fraud, { name: 'checkFraudRisk', severity: 'LOW', version: '1', result: 0.1 }, { ...fraud, severity: 'X' }],
    invalid: [
      { ...fraud, severity: null },
      { ...fraud, name: 'other' },
    ],
  },
  RawIdvResponse: {
    valid: [
      { checkResults: [], fraudRisk: null },
      { checkResults: [check], fraudRisk: fraud },
    ],
    invalid: [{ checkResults: [] }, { checkResults: null, fraudRisk: null }],
  },
  CrossDocEntry: { valid: [{ match: true, score: 0.9 }, { anything: 'goes' }], invalid: [{ match: 'yes' }] },
  CrossDocResponse: {
    valid: [{ fullName: { match: true }, birthDate: { status: 'MISMATCH' } }, {}],
    invalid: [[], 'x'],
  },
  SignStringBody: { valid: [{ stringToSign: 'hola' }], invalid: [{ stringToSign: '' }] },
  SignStringResponse: { valid: [{ signedString: 'MIIB', reference: 'F-1' }], invalid: [{ signedString: 'MIIB' }] },
  CalculateContractBody: {
    valid: [
      { signedContractId: 'c-1', includeSignedDocumentInResponse: true, includeCertificateDetailsInResponse: false },
    ],
    invalid: [{}, { signedContractId: 'c', includeSignedDocumentInResponse: 'yes' }],
  },
  CalculateContractResponse: {
    valid: [
      {
        success: true,
        sessionStatus: 'Closed',
        additionalInformation: { signedDocumentNom151: 'MIIB', signedDocumentBase64: 'JVBE' },
      },
      { success: false },
    ],
    invalid: [{ success: true, additionalInformation: { signedDocumentNom151: 5 } }],
  },
  ValidateRfcBody: { valid: [{ rfc: 'GODE561231GR8' }], invalid: [{ rfc: '' }, {}] },
  ValidateRfcResponse: {
    valid: [
      { validRFC: false, status: 'NOT_FOUND', message: 'no', rfcType: null, messageCode: '02', errorMessage: null },
    ],
    invalid: [{ status: 'x' }],
  },
  AddCurpBody: { valid: [{ curp: 'GODE561231HDFRRN09' }], invalid: [{ curp: '' }] },
  CurpError: {
    valid: [
      {
        codigoRespuesta: '02',
        descripcionRespuesta: 'SERVIDOR SVBI NO RESPONDE',
        codigoError: null,
        tipoError: null,
        referencia: null,
        respuestaRENAPO: null,
      },
      { tipoError: '01', codigoError: '06', message: 'x' },
    ],
    invalid: [{ tipoError: true }, { codigoRespuesta: -1 }],
  },
  AddCurpResponse: {
    valid: [
      { success: true, result: 'ok', renapo_valid: true },
      { success: false, result: 'x', renapo_valid: false, error: { tipoError: '99', codigoError: '01', message: 'x' } },
    ],
    invalid: [{ result: 'x' }, { success: false, error: { tipoError: {} } }],
  },
  ListApiKeysQuery: { valid: [{}, { apiKey: 'org-ref' }], invalid: [{ apiKey: '' }] },
  ApiKeyRecord: {
    valid: [
      {
        id: 'k1',
        name: 'Main',
        maskedKey: '••••1234',
        createdAt: '2026-01-01T00:00:00Z',
        enabled: true,
        scopes: ['x'],
      },
      { id: 42 },
    ],
    invalid: [{ name: 'no id' }, { id: '' }, { id: 1.5 }],
  },
  ListApiKeysResponse: { valid: [[], [{ id: 'k1' }]], invalid: [{ id: 'k1' }, [{}]] },
};

const schemas = (Object.entries(c) as [string, unknown][]).filter(
  (entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType,
);

describe('contract schemas', () => {
  for (const [name, schema] of schemas) {
    const s = samples[name];
    it(`${name}: accepts valid and rejects invalid samples`, () => {
      expect(s, `samples for ${name}`).toBeDefined();
      for (const v of s!.valid)
        expect(schema.safeParse(v).success, `${name} should accept ${JSON.stringify(v)}`).toBe(true);
      for (const v of s!.invalid)
        expect(schema.safeParse(v).success, `${name} should reject ${JSON.stringify(v)}`).toBe(false);
    });
  }

  it('every sample names a schema that exists', () => {
    expect(Object.keys(samples).sort()).toEqual(schemas.map(([n]) => n).sort());
  });

  it('enums hold exactly the spec values', () => {
    expect(c.TypeOfId.options).toHaveLength(19);
    expect(c.FailReason.options).toHaveLength(10);
    expect(c.AuthErrorName.options).toHaveLength(19);
    expect(c.SessionStatus.options).toEqual(['Alive', 'Closed', 'Deleted']);
    expect(c.RawCheckSeverity.options).toEqual(['low', 'medium', 'high']);
    expect(c.FraudSeverity.options).toEqual(['LOW', 'MEDIUM', 'HIGH']);
    expect(c.CaptureType.options).toEqual(['AUTO', 'MANUAL', 'NATIVE', 'UPLOAD']);
    expect(c.RecordingType.options).toEqual(['frontId', 'backId', 'merged', 'selfie', 'authenticationattempt']);
  });

  it('every endpoint response keeps unknown extra fields', () => {
    for (const [endpoint, def] of Object.entries(endpoints)) {
      const name = schemas.find(([, schema]) => schema === def.response)?.[0];
      expect(name, `${endpoint} response schema is exported`).toBeDefined();
      const sample = samples[name!]!.valid[0];
      const extended = Array.isArray(sample)
        ? [...sample]
        : { ...(sample as object), addedByService: { nested: [1, 2] } };
      const parsed = def.response.safeParse(extended);
      expect(parsed.success, endpoint).toBe(true);
      if (!Array.isArray(sample)) expect(parsed.data, endpoint).toMatchObject({ addedByService: { nested: [1, 2] } });
    }
  });

  it('responses keep unknown extra fields', () => {
    const out = c.RawIdvResponse.parse({
      checkResults: [{ ...check, newModelField: 'x' }],
      fraudRisk: null,
      serviceAddedLater: 1,
    });
    expect(out).toMatchObject({ serviceAddedLater: 1, checkResults: [{ newModelField: 'x' }] });
  });

  it('normalizes CURP codes sent as numbers', () => {
    expect(c.CurpError.parse({ tipoError: 1, codigoError: '6' })).toMatchObject({ tipoError: '01', codigoError: '06' });
  });
});

describe('endpoint table', () => {
  const table = Object.entries(endpoints).map(([name, e]) => [
    name,
    e.method,
    e.host,
    e.path,
    e.token,
    e.idParam ?? null,
  ]);
  it('lists the 16 endpoints of the spec with method, host, path and token kind', () => {
    expect(table).toEqual([
      ['authorizeServer', 'POST', 'auth', '/v1/integration/authorize/server', 'none', null],
      ['listApiKeys', 'GET', 'base', '/omni/api-key', 'server', null],
      ['validateRfc', 'POST', 'base', '/api/validate/rfc', 'server', null],
      ['addFace', 'POST', 'base', '/omni/add/face/third-party', 'session', null],
      ['calculateContractNom151', 'POST', 'base', '/omni/calculate-contract-nom151-signature', 'server', null],
      ['authenticateFace', 'POST', 'base', '/omni/onboarding-authentications/authenticate', 'server', null],
      ['addBackSecondId', 'POST', 'base', '/omni/add/back-second-id/v2', 'session', null],
      ['importVideo', 'POST', 'base', '/omni/recordings/import/third-party', 'session', null],
      ['addConferenceNotes', 'POST', 'base', '/omni/add/conference/notes', 'session', null],
      ['signStringNom151', 'POST', 'base', '/omni/sign-string/nom151', 'server', null],
      ['addName', 'POST', 'base', '/omni/add/name', 'session', null],
      ['getContractLinks', 'GET', 'base', '/omni/get/contracts-links', 'fetch', 'id'],
      ['getRawIdvResults', 'GET', 'base', '/omni/get/raw-idv-results', 'fetch', 'id'],
      ['addCurp', 'POST', 'base', '/omni/add/curp', 'session', null],
      ['getVideoSelfieUrl', 'GET', 'base', '/omni/generateVideoSelfieDownloadUrl', 'fetch', 'interviewId'],
      ['getCrossDocResults', 'GET', 'base', '/omni/cross-doc-data-check/results', 'fetch', 'id'],
    ]);
  });

  it('GETs take no body and fetch endpoints name their id in the query schema', () => {
    for (const [name, e] of Object.entries(endpoints)) {
      if (e.method === 'GET') expect(e.body.safeParse(undefined).success, name).toBe(true);
      if (e.idParam) expect(e.query.safeParse({ [e.idParam]: 'iv-1' }).data, name).toEqual({ [e.idParam]: 'iv-1' });
    }
  });
});
