import type { AddBackSecondIdResponse, AddFaceResponse, AuthenticateResponse } from '../../common/omni';
import { inSpec, MIN_HORIZONTAL_RESOLUTION, TypeOfId } from '../../common/omni';
import { serviceAnswer } from '../omni/answer';
import { redact } from '../log';
import { explain } from '../omni/catalog';
import type {
  AuthResultView,
  BackIdResultView,
  CellValue,
  ExplanationView,
  FaceResultView,
  IndicatorView,
  Verdict,
} from '../../common/ipc/capture';

/**
 * Turns capture responses into advice: for each field the spec documents, whether it says "recapture", is a
 * warning or is fine. The renderer words each (field, verdict) pair in the user's language.
 */

/**
 * The spec gives only the ends of the shadow scale (0 no shadow, 1 heavy shadow, retry advised); from the
 * midpoint on we advise a recapture.
 */
export const SHADOW_RECAPTURE_FROM = 0.5;

const flag = (
  field: string,
  value: boolean | undefined,
  badWhen: boolean,
  bad: Verdict = 'recapture',
): IndicatorView =>
  value === undefined
    ? { field, value: null, verdict: 'notChecked' }
    : { field, value, verdict: value === badWhen ? bad : 'ok' };

const info = (field: string, value: CellValue | undefined): IndicatorView[] =>
  value === undefined ? [] : [{ field, value, verdict: 'info' }];

function explanationView(ref: Parameters<typeof explain>[0]): ExplanationView | undefined {
  const e = explain(ref);
  return (
    e && {
      code: e.code,
      message: { en: e.en, es: e.es },
      advice: { en: e.adviceEn, es: e.adviceEs },
      retryable: e.retryable,
    }
  );
}

/** A failure name newer than the spec: shown as it came, with the service's own message if any, marked as such. */
function notInSpecView(name: string, message = ''): ExplanationView {
  const said = message ? `${message} ` : '';
  return {
    code: name,
    message: { en: `${said}(${name}: not in the spec)`, es: `${said}(${name}: no está en la especificación)` },
    advice: {
      en: 'Read the service message and decide whether to capture again.',
      es: 'Lee el mensaje del servicio y decide si capturar de nuevo.',
    },
    retryable: false,
  };
}

/*
 * Each view crosses IPC: `response` is the redacted, shortened `answer.body` (never the answer as read, which may echo
 * held secrets or carry a 20 MB image), and `redact` covers the strings copied from the answer into the rest.
 */
export function faceAdvice(response: AddFaceResponse): FaceResultView {
  const r = response;
  const indicators: IndicatorView[] = [
    flag('isBright', r.isBright, false),
    // 0 means alive, 1 means recapture; values in between are shown without a verdict of their own.
    r.confidence === undefined
      ? { field: 'confidence', value: null, verdict: 'notChecked' }
      : {
          field: 'confidence',
          value: r.confidence,
          verdict: r.confidence >= 1 ? 'recapture' : r.confidence <= 0 ? 'ok' : 'warning',
        },
    flag('hasLenses', r.hasLenses, true),
    // Absent when the session flow does not check them.
    flag('hasFaceMask', r.hasFaceMask, true),
    flag('hasClosedEyes', r.hasClosedEyes, true),
    flag('hasHeadCover', r.hasHeadCover, true),
    flag('faceOccluded', r.faceOccluded, true),
    ...info('age', r.age),
    ...sessionIndicator(r.sessionStatus),
  ];
  const answer = serviceAnswer('addFace', response);
  return redact({
    response: answer.body as AddFaceResponse,
    answer,
    indicators,
    recapture: indicators.some((i) => i.verdict === 'recapture'),
    ...(r.captureAttemptsLimit
      ? { attempts: { max: r.captureAttemptsLimit.max, remaining: r.captureAttemptsLimit.remaining } }
      : {}),
    ...(r.sessionStatus ? { sessionStatus: r.sessionStatus } : {}),
  });
}

function sessionIndicator(status: string | undefined): IndicatorView[] {
  return status === undefined
    ? []
    : [{ field: 'sessionStatus', value: status, verdict: status === 'Alive' ? 'ok' : 'warning' }];
}

export function backIdAdvice(response: AddBackSecondIdResponse): BackIdResultView {
  const r = response;
  const classified = r.classification !== false;
  const quality: IndicatorView[] = [
    flag('classification', r.classification, false),
    flag('readability', r.readability, false),
    flag('correctSharpness', r.correctSharpness, false),
    // Glare on the back side is ignored when the flow says so.
    r.skipGlareBack === true && r.correctGlare !== undefined
      ? { field: 'correctGlare', value: r.correctGlare, verdict: 'info' }
      : flag('correctGlare', r.correctGlare, false),
    r.horizontalResolution === undefined
      ? { field: 'horizontalResolution', value: null, verdict: 'notChecked' }
      : {
          field: 'horizontalResolution',
          value: r.horizontalResolution,
          verdict: r.horizontalResolution < MIN_HORIZONTAL_RESOLUTION ? 'recapture' : 'ok',
        },
    r.shadowConfidence === undefined
      ? { field: 'shadowConfidence', value: null, verdict: 'notChecked' }
      : {
          field: 'shadowConfidence',
          value: r.shadowConfidence,
          verdict: r.shadowConfidence >= SHADOW_RECAPTURE_FROM ? 'recapture' : 'ok',
        },
    ...(r.documentIsOnTheEdge === undefined ? [] : [flag('documentIsOnTheEdge', r.documentIsOnTheEdge, true)]),
  ];
  // When classification is false the other quality fields carry no meaning (spec): show them, but as info.
  const indicators: IndicatorView[] = classified
    ? quality
    : quality.map((i) =>
        i.field === 'classification' || i.verdict === 'notChecked' ? i : { ...i, verdict: 'info' as const },
      );
  indicators.push(
    ...info('typeOfId', r.typeOfId).map((i) =>
      r.typeOfId && !inSpec(TypeOfId, r.typeOfId) ? { ...i, notInSpec: true as const } : i,
    ),
    ...info('issueName', r.issueName),
    ...info('issueYear', r.issueYear),
    ...info('countryCode', r.countryCode),
    ...info('state', r.state),
    ...(r.curpCheck === undefined ? [] : [flag('curpCheck', r.curpCheck, false, 'warning')]),
    ...(r.isDocumentExpired === undefined ? [] : [flag('isDocumentExpired', r.isDocumentExpired, true, 'warning')]),
    ...(r.idQualityAttemptApproved === undefined
      ? []
      : [flag('idQualityAttemptApproved', r.idQualityAttemptApproved, false, 'warning')]),
    ...(r.showMandatoryConsent === undefined
      ? []
      : [
          {
            field: 'showMandatoryConsent',
            value: r.showMandatoryConsent,
            verdict: r.showMandatoryConsent ? ('warning' as const) : ('ok' as const),
          },
        ]),
    ...info('regulationType', r.regulationType ?? undefined),
    ...info('skipBackIdCapture', r.skipBackIdCapture),
    ...(r.forceFrontIdCapture === undefined
      ? []
      : [flag('forceFrontIdCapture', r.forceFrontIdCapture, true, 'warning')]),
    ...info('skipGlareFront', r.skipGlareFront),
    ...info('skipGlareBack', r.skipGlareBack),
    ...info('imageRedacted', r.imageRedacted),
    ...(r.idFaceExtractionSkipped === undefined
      ? []
      : [flag('idFaceExtractionSkipped', r.idFaceExtractionSkipped, true, 'warning')]),
    ...info('attemptId', r.attemptId),
    ...sessionIndicator(r.sessionStatus),
  );
  const failReason = r.failReason
    ? (explanationView({ failReason: r.failReason }) ?? notInSpecView(r.failReason))
    : undefined;
  const answer = serviceAnswer('addBackSecondId', response);
  return redact({
    response: answer.body as AddBackSecondIdResponse,
    answer,
    indicators,
    recapture: failReason !== undefined || indicators.some((i) => i.verdict === 'recapture'),
    ...(failReason ? { failReason } : {}),
    ...(r.captureAttemptsLimit
      ? { attempts: { max: r.captureAttemptsLimit.max, remaining: r.captureAttemptsLimit.remaining } }
      : {}),
    ...(r.sessionStatus ? { sessionStatus: r.sessionStatus } : {}),
  });
}

export function authAdvice(response: AuthenticateResponse, hinted: boolean): AuthResultView {
  const error = response.error
    ? (explanationView({ authError: response.error.name }) ??
      notInSpecView(response.error.name, response.error.message))
    : undefined;
  const answer = serviceAnswer('authenticateFace', response);
  return redact({
    mode: hinted ? 'oneToOne' : 'oneToN',
    response: answer.body as AuthenticateResponse,
    answer,
    passed: response.overallStatus === 'PASS',
    ...(response.candidate ? { candidate: response.candidate } : {}),
    ...(error ? { error } : {}),
    ...(response.captureAttemptsLimit
      ? { attempts: { max: response.captureAttemptsLimit.max, remaining: response.captureAttemptsLimit.remaining } }
      : {}),
  });
}

export { explanationView };
