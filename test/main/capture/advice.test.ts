import { describe, expect, it } from 'vitest';
import { authAdvice, backIdAdvice, faceAdvice, SHADOW_RECAPTURE_FROM } from '../../../main/capture/advice';

describe('capture advice', () => {
  it('marks unchecked flags as not checked and a dark selfie as recapture', () => {
    const view = faceAdvice({
      isBright: false,
      confidence: 0,
      hasLenses: false,
      age: 30,
      sessionStatus: 'Alive',
      captureAttemptsLimit: { max: 3, remaining: 1 },
    });
    const by = Object.fromEntries(view.indicators.map((i) => [i.field, i.verdict]));
    expect(by).toMatchObject({
      isBright: 'recapture',
      confidence: 'ok',
      hasLenses: 'ok',
      hasFaceMask: 'notChecked',
      age: 'info',
      sessionStatus: 'ok',
    });
    expect(view.recapture).toBe(true);
    expect(view.attempts).toEqual({ max: 3, remaining: 1 });
    expect(faceAdvice({ confidence: 0.4 }).indicators.find((i) => i.field === 'confidence')?.verdict).toBe('warning');
  });

  it('judges resolution against 155 and shadow from the midpoint; ignores quality when not classified', () => {
    const at = (r: Parameters<typeof backIdAdvice>[0], field: string) =>
      backIdAdvice(r).indicators.find((i) => i.field === field)?.verdict;
    expect(at({ classification: true, horizontalResolution: 155 }, 'horizontalResolution')).toBe('ok');
    expect(at({ classification: true, horizontalResolution: 154 }, 'horizontalResolution')).toBe('recapture');
    expect(at({ classification: true, shadowConfidence: SHADOW_RECAPTURE_FROM }, 'shadowConfidence')).toBe('recapture');
    expect(at({ classification: true, correctGlare: false, skipGlareBack: true }, 'correctGlare')).toBe('info');
    const unclassified = backIdAdvice({
      classification: false,
      correctSharpness: false,
      horizontalResolution: 100,
      failReason: 'WRONG_DOCUMENT_SIDE',
    });
    expect(unclassified.indicators.find((i) => i.field === 'correctSharpness')?.verdict).toBe('info');
    expect(unclassified.failReason).toMatchObject({ code: 'WRONG_DOCUMENT_SIDE' });
    expect(unclassified.recapture).toBe(true);
  });

  it('reads authentication as one-to-one only with a hint', () => {
    expect(authAdvice({ overallStatus: 'PASS', candidate: 'c1' }, true)).toMatchObject({
      mode: 'oneToOne',
      passed: true,
      candidate: 'c1',
    });
    expect(
      authAdvice({ overallStatus: 'FAIL', error: { name: 'FACE_TOO_DARK', message: 'dark' } }, false),
    ).toMatchObject({ mode: 'oneToN', passed: false, error: { code: 'FACE_TOO_DARK' } });
    expect(
      authAdvice({ overallStatus: 'FAIL', error: { name: 'DEEPFAKE_DETECTED', message: 'synthetic' } }, false),
    ).toMatchObject({
      passed: false,
      error: { code: 'DEEPFAKE_DETECTED', message: { en: 'synthetic (DEEPFAKE_DETECTED: not in the spec)' } },
    });
  });

  it('keeps a typeOfId and a failReason newer than the spec, marked as not in the spec', () => {
    const advice = backIdAdvice({
      typeOfId: 'DigitalNationalId',
      failReason: 'HOLOGRAM_MISSING',
      classification: false,
    });
    expect(advice.indicators.find((i) => i.field === 'typeOfId')).toMatchObject({
      value: 'DigitalNationalId',
      notInSpec: true,
    });
    expect(advice.failReason).toMatchObject({
      code: 'HOLOGRAM_MISSING',
      message: { en: '(HOLOGRAM_MISSING: not in the spec)', es: '(HOLOGRAM_MISSING: no está en la especificación)' },
    });
    expect(advice.recapture).toBe(true);
    expect(backIdAdvice({ typeOfId: 'Passport' }).indicators.find((i) => i.field === 'typeOfId')?.notInSpec).toBe(
      undefined,
    );
  });
});
