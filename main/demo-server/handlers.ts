import { createHash, randomUUID } from 'node:crypto';
import { attachEvidence } from '../nom151/pdf';
import { tokenToTimeStampResp } from '../nom151/tsa';
import {
  MIN_HORIZONTAL_RESOLUTION,
  ID_QUALITY_APPROVAL_THRESHOLD,
  VIDEO_URL_TTL_MS,
  type AuthErrorName,
  type CaptureAttemptsLimit,
} from '../../common/omni';
import { checkCurp } from '../../common/rules/curp';
import { checkRfc } from '../../common/rules/rfc';
import type { DemoDeps, Handlers } from './context';
import { DemoHttpError, badRequest, unauthorized } from './errors';
import {
  BRIGHTNESS_THRESHOLD,
  FLAT_IMAGE_CONTRAST,
  GLARE_THRESHOLD,
  SHARPNESS_THRESHOLD,
  analyzeImage,
  decodeBase64,
  type ImageMetrics,
} from './image';
import { fetchAllowedImage } from './image-url';
import { sealInStandardLayout } from './standard-seal';
import { GENERIC_RFCS, curpResponse, lookupCurp, rfcResponse } from './registries';
import { apiKeys, customers, oneToNCandidate, organizations, type FaceScenario } from './seed';
import type { InterviewState } from './state';

/** A selfie narrower or shorter than this cannot hold a usable face crop. */
const MIN_SELFIE_SIDE = 100;

const FACE_STATUS_MESSAGES: Record<Extract<FaceScenario, { kind: 'error' }>['status'], string> = {
  4010: 'More than one face was detected. Ask the person to be alone in the photo and capture again.',
  4019: 'No face was found in the image. Center the face in the frame and capture again.',
  4077: 'The selfie has low quality (blurry or too small). Hold the camera steady, use more light and capture again.',
  4078: 'The face is occluded or partly covered. Ask the person to remove what covers the face and capture again.',
};

const AUTH_ERROR_MESSAGES: Record<AuthErrorName, string> = {
  INACTIVE_SESSION: "The customer's onboarding session is no longer active; authenticate against an active onboarding.",
  NONEXISTENT_CUSTOMER: 'No onboarded customer matches this hint. Check the customer id, email or phone number.',
  LENSES_DETECTED: 'Glasses were detected. Ask the person to remove them and try again.',
  FACE_MASK_DETECTED: 'A face mask was detected. Ask the person to remove it and try again.',
  HEAD_COVER_DETECTED: 'A head cover was detected. Ask the person to remove it and try again.',
  CLOSED_EYES_DETECTED: 'The eyes are closed. Ask the person to look at the camera with open eyes.',
  FACE_TOO_DARK: 'The face is too dark. Add light in front of the person and try again.',
  SPOOF_ATTEMPT_DETECTED: 'The image looks like a photo of a screen or print, not a live person.',
  USER_IS_NOT_RECOGNIZED: "The face does not match the customer's stored template.",
  SELFIE_IMAGE_LOW_QUALITY: 'The selfie quality is too low to compare. Capture again with better light and focus.',
  MULTIPLE_FACES_DETECTED: 'More than one face was detected. The person must be alone in the photo.',
  HINT_NOT_PROVIDED: 'This organization authenticates one-to-one: send hint (customer id, email or phone number).',
  FACE_NOT_FOUND: 'No face was found in the image. Center the face in the frame.',
  FACE_CROPPING_FAILED: 'The face could not be cropped from the image. Capture again with the whole face in frame.',
  FACE_TOO_SMALL: 'The face is too small. Move the camera closer.',
  FACE_TOO_BLURRY: 'The face is blurry. Hold the camera steady and try again.',
  BAD_PHOTO_QUALITY: 'The photo quality is too low. Capture again in better conditions.',
  PROCESSING_ERROR: 'The comparison could not be completed. Try again in a moment.',
  BAD_REQUEST: 'The authentication request could not be processed. Check the image and parameters.',
};

function requireInterview(ctx: { interview: InterviewState | null }): InterviewState {
  if (!ctx.interview) throw badRequest('This call needs an interview: pass its id or use its session token.');
  return ctx.interview;
}

/** Refuses when the flow limits attempts and none is left. */
function ensureAttemptLeft(limit: CaptureAttemptsLimit | undefined, what: string): void {
  if (limit && limit.remaining <= 0) {
    throw badRequest(
      `No ${what} capture attempts left (${limit.max} allowed by the session flow). Start a new onboarding for this person.`,
      {
        captureAttemptsLimit: { ...limit },
      },
    );
  }
}

/** Uses one attempt once the image has been read (a file that does not decode costs none); returns the limit to echo. */
function takeAttempt(limit: CaptureAttemptsLimit | undefined): CaptureAttemptsLimit | undefined {
  if (!limit) return undefined;
  limit.remaining -= 1;
  return { ...limit };
}

async function imageFrom(
  body: { base64Image?: string | undefined; imageUrl?: string | undefined },
  deps: DemoDeps,
): Promise<ImageMetrics> {
  if (body.base64Image) return analyzeImage(decodeBase64(body.base64Image, 'base64Image'), 'base64Image');
  return analyzeImage(await fetchAllowedImage(body.imageUrl ?? '', deps.imageUrlAllowList), 'imageUrl');
}

function maskKey(value: string): string {
  return `${value.slice(0, 8)}••••${value.slice(-4)}`;
}

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

export const handlers: Handlers = {
  async authorizeServer({ body, org, deps }) {
    const integrationId = body.integration_id ?? body.integrationId;
    if (integrationId !== org.integrationId || body.secret !== org.secret) {
      throw unauthorized(
        "The integration id or secret does not belong to this API key's organization. Copy both from the integration card of the same organization.",
      );
    }
    return { token: await deps.tokens.issueServerToken(org.id, org.integrationId) };
  },

  async listApiKeys({ query, org, apiKey }) {
    let target = org;
    if (query.apiKey && apiKey.superAdmin) {
      const byKey = apiKeys.find((k) => k.value === query.apiKey || k.id === query.apiKey)?.org;
      const found = organizations.find((o) => o.id === query.apiKey || o.id === byKey);
      // The value is not echoed: it may be a mistyped key.
      if (!found)
        throw badRequest(
          'No organization matches the apiKey parameter. Pass an organization id or one of its API keys.',
        );
      target = found;
    }
    return apiKeys
      .filter((k) => k.org === target.id)
      .map((k) => ({
        id: k.id,
        name: k.name,
        maskedKey: maskKey(k.value),
        createdAt: k.createdAt,
        enabled: k.enabled,
        organizationId: target.id,
        organizationName: target.name,
        superAdmin: k.superAdmin,
      }));
  },

  async validateRfc({ body }) {
    const rfc = body.rfc.trim().toUpperCase();
    if (!GENERIC_RFCS.has(rfc)) {
      const check = checkRfc(rfc);
      if (!check.valid)
        throw badRequest(`Invalid RFC format: ${check.message}`, {
          reason: check.reason,
          ...(check.position !== undefined ? { position: check.position } : {}),
        });
    }
    return rfcResponse(rfc);
  },

  async addFace(ctx) {
    const interview = requireInterview(ctx);
    ensureAttemptLeft(interview.attempts.face, 'selfie');
    const metrics = await imageFrom(ctx.body, ctx.deps);
    const attempts = takeAttempt(interview.attempts.face);
    const scenario = interview.face;
    const details = attempts ? { captureAttemptsLimit: attempts } : undefined;
    const refuse = (status: 4010 | 4019 | 4077 | 4078) =>
      new DemoHttpError(400, FACE_STATUS_MESSAGES[status], details, status);
    // Measured from pixels first: a flat picture holds no face; a blurry or tiny one is low quality.
    if (metrics.contrast < FLAT_IMAGE_CONTRAST) throw refuse(4019);
    if (metrics.sharpness < SHARPNESS_THRESHOLD || Math.min(metrics.width, metrics.height) < MIN_SELFIE_SIDE)
      throw refuse(4077);
    if (scenario.kind === 'error') throw refuse(scenario.status);
    interview.selfieUploaded = true;
    return {
      age: scenario.age,
      isBright: metrics.brightness >= BRIGHTNESS_THRESHOLD,
      confidence: scenario.confidence,
      hasLenses: scenario.hasLenses,
      hasFaceMask: scenario.hasFaceMask,
      hasClosedEyes: scenario.hasClosedEyes,
      hasHeadCover: scenario.hasHeadCover,
      faceOccluded: scenario.faceOccluded,
      sessionStatus: interview.status,
      ...(attempts ? { captureAttemptsLimit: attempts } : {}),
    };
  },

  async calculateContractNom151({ body, org, deps }) {
    const interview = [...deps.state.interviews.values()].find(
      (i) => i.org === org.id && i.contracts.some((c) => c.documentId === body.signedContractId),
    );
    if (!interview)
      throw badRequest(
        `No signed contract with id ${body.signedContractId} in this organization. Take the id from the interview's contract links.`,
      );
    if (interview.status === 'Deleted')
      throw badRequest(`Interview ${interview.id} is Deleted; its contracts can no longer be sealed.`, {
        sessionStatus: interview.status,
      });
    const pdf = await deps.contractPdf(interview, body.signedContractId);
    const { tokenDer } = await (await deps.tsa()).stamp(pdf);
    const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
    return {
      success: true,
      sessionStatus: interview.status,
      additionalInformation: {
        signedDocumentNom151: b64(tokenDer),
        ...(body.includeSignedDocumentInResponse ? { signedDocumentBase64: b64(pdf) } : {}),
        ...(body.includeCertificateDetailsInResponse
          ? {
              signedDocumentWithNomSignatureBase64: b64(
                deps.state.profile === 'production-like'
                  ? await sealInStandardLayout(pdf, tokenToTimeStampResp(tokenDer))
                  : await attachEvidence(pdf, tokenDer),
              ),
            }
          : {}),
      },
    };
  },

  async authenticateFace({ body, org, deps }) {
    const fail = (name: AuthErrorName, attempts?: CaptureAttemptsLimit) => ({
      overallStatus: 'FAIL' as const,
      ...(attempts ? { captureAttemptsLimit: attempts } : {}),
      error: { name, message: AUTH_ERROR_MESSAGES[name] },
    });
    const metrics = analyzeImage(decodeBase64(body.base64Image, 'base64Image'), 'base64Image');
    let candidate = oneToNCandidate;
    let attempts: CaptureAttemptsLimit | undefined;
    let seededFailure: AuthErrorName | undefined;
    if (org.faceAuthMode === 'one-to-one') {
      if (!body.hint) return fail('HINT_NOT_PROVIDED');
      const customer = customers.find((c) => c.hint === body.hint!.trim().toLowerCase());
      if (!customer) return fail('NONEXISTENT_CUSTOMER');
      const limit = deps.state.customerAttempts.get(customer.hint);
      ensureAttemptLeft(limit, 'authentication');
      attempts = takeAttempt(limit);
      candidate = customer.customerId;
      if (!customer.outcome.pass) seededFailure = customer.outcome.name;
    }
    if (metrics.contrast < FLAT_IMAGE_CONTRAST) return fail('FACE_NOT_FOUND', attempts);
    if (Math.min(metrics.width, metrics.height) < MIN_SELFIE_SIDE) return fail('FACE_TOO_SMALL', attempts);
    if (metrics.brightness < BRIGHTNESS_THRESHOLD) return fail('FACE_TOO_DARK', attempts);
    if (metrics.sharpness < SHARPNESS_THRESHOLD) return fail('FACE_TOO_BLURRY', attempts);
    if (seededFailure) return fail(seededFailure, attempts);
    return { overallStatus: 'PASS', candidate, ...(attempts ? { captureAttemptsLimit: attempts } : {}) };
  },

  async addBackSecondId(ctx) {
    const interview = requireInterview(ctx);
    if (interview.idProcessingFinished) {
      throw badRequest(
        'ID processing already finished for this interview, so the back of the second ID can no longer be uploaded or retried.',
        { idProcessingFinished: true },
      );
    }
    if (interview.front === 'none')
      throw badRequest('Upload the front side of the ID first; the back side needs it.', { frontUploaded: false });
    if (interview.front === 'Passport')
      throw badRequest(
        'The front document is a passport, which has no back side. Do not call this endpoint for passports.',
        { typeOfId: 'Passport' },
      );
    ensureAttemptLeft(interview.attempts.backId, 'ID');
    const metrics = await imageFrom(ctx.body, ctx.deps);
    const attempts = takeAttempt(interview.attempts.backId);
    const scenario = interview.backId;
    const cycle = scenario.failReasonCycle;
    const failReason = cycle?.length ? cycle[interview.backIdUploads % cycle.length] : undefined;
    interview.backIdUploads += 1;
    const mexican = scenario.countryCode === 'MEX';
    const readable = !failReason && scenario.readabilityScore >= ID_QUALITY_APPROVAL_THRESHOLD;
    return {
      correctSharpness: metrics.sharpness >= SHARPNESS_THRESHOLD,
      correctGlare: metrics.glare <= GLARE_THRESHOLD,
      horizontalResolution: metrics.width,
      shadowConfidence: round(Math.min(1, metrics.shadow * 2)),
      classification: !failReason,
      readability: readable,
      typeOfId: scenario.typeOfId,
      issueYear: scenario.issueYear,
      issueName: scenario.issueName,
      ...(mexican ? { curpCheck: readable } : {}),
      sessionStatus: interview.status,
      countryCode: scenario.countryCode,
      state: scenario.state,
      ...(failReason ? { failReason } : {}),
      skipBackIdCapture: false,
      forceFrontIdCapture: failReason === 'WRONG_DOCUMENT_SIDE',
      showMandatoryConsent: scenario.showMandatoryConsent,
      ...(scenario.showMandatoryConsent ? { regulationType: 'MX_LFPDPPP' } : {}),
      skipGlareFront: false,
      skipGlareBack: false,
      documentIsOnTheEdge: false,
      ...(failReason === 'ID_TYPE_UNACCEPTABLE'
        ? { acceptedDocuments: ['VoterIdentification', 'Passport', 'DriversLicense', 'ResidenceDocument'] }
        : {}),
      imageRedacted: false,
      idFaceExtractionSkipped: interview.idFaceExtractionSkipped,
      ...(attempts ? { captureAttemptsLimit: attempts } : {}),
      ...(mexican ? { idQualityAttemptApproved: scenario.readabilityScore >= ID_QUALITY_APPROVAL_THRESHOLD } : {}),
      isDocumentExpired: scenario.isDocumentExpired,
      attemptId: randomUUID(),
      // Not in the spec's table; lets a reviewer see why correctSharpness/correctGlare/isBright came out as they did.
      measured: {
        width: metrics.width,
        height: metrics.height,
        sharpness: round(metrics.sharpness, 1),
        glare: round(metrics.glare, 4),
        brightness: round(metrics.brightness),
        recaptureAdvised: metrics.width < MIN_HORIZONTAL_RESOLUTION,
      },
    };
  },

  async importVideo(ctx) {
    const interview = requireInterview(ctx);
    const bytes = decodeBase64(ctx.body.video, 'video');
    const mimeType = sniffVideo(bytes);
    const stored = await ctx.deps.state.storeRecording(
      interview,
      {
        recordingId: `rec-${randomUUID()}`,
        type: ctx.body.type ?? null,
        mimeType,
        sizeBytes: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        createdAt: new Date(ctx.deps.clock.now()).toISOString(),
      },
      bytes,
    );
    return { recordingId: stored.recordingId };
  },

  async addConferenceNotes(ctx) {
    const interview = requireInterview(ctx);
    interview.notes.push({ text: ctx.body.notes, at: new Date(ctx.deps.clock.now()).toISOString() });
    return { success: true, sessionStatus: interview.status };
  },

  async signStringNom151({ body, deps }) {
    const { tokenDer, serial } = await (await deps.tsa()).stamp(new TextEncoder().encode(body.stringToSign));
    return { signedString: Buffer.from(tokenDer).toString('base64'), reference: serial };
  },

  async addName(ctx) {
    const interview = requireInterview(ctx);
    interview.name = ctx.body.name;
    return { success: true, sessionStatus: interview.status };
  },

  async getContractLinks(ctx) {
    const interview = requireInterview(ctx);
    const links: Record<string, string> = {};
    for (const c of interview.contracts) {
      links[c.documentId] =
        ctx.deps.origin() +
        ctx.deps.signer.sign(`/files/contracts/${encodeURIComponent(c.documentId)}.pdf`, VIDEO_URL_TTL_MS);
    }
    return { success: true, sessionStatus: interview.status, additionalInformation: links };
  },

  async getRawIdvResults(ctx) {
    const interview = requireInterview(ctx);
    return structuredClone(interview.rawIdv);
  },

  async addCurp(ctx) {
    const interview = requireInterview(ctx);
    const check = checkCurp(ctx.body.curp);
    if (!check.valid)
      throw badRequest(`Invalid CURP format: ${check.message}`, {
        reason: check.reason,
        ...(check.position !== undefined ? { position: check.position } : {}),
      });
    const outcome = lookupCurp(check.curp);
    if (outcome.kind === 'valid') interview.curp = check.curp;
    return curpResponse(check.curp, outcome, ctx.deps.state.folio('RNP'));
  },

  async getVideoSelfieUrl(ctx) {
    const interview = requireInterview(ctx);
    if (!interview.videoSelfie) throw badRequest(`Interview ${interview.id} has no video selfie recording.`);
    return {
      url:
        ctx.deps.origin() +
        ctx.deps.signer.sign(`/files/video-selfies/${encodeURIComponent(interview.id)}.webm`, VIDEO_URL_TTL_MS),
    };
  },

  async getCrossDocResults(ctx) {
    return structuredClone(requireInterview(ctx).crossDoc);
  },
};

/** Recognizes the containers a capture SDK records (WebM/Matroska, MP4/QuickTime) by their magic bytes. */
function sniffVideo(bytes: Buffer): string {
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3) return 'video/webm';
  if (bytes.length >= 12 && bytes.toString('latin1', 4, 8) === 'ftyp') return 'video/mp4';
  throw badRequest(
    'video is not a WebM or MP4 recording (its first bytes match neither). Send the recorded file, base64-encoded.',
    { field: 'video' },
  );
}
