import { describe, expect, it } from 'vitest';
import { ListApiKeysResponse } from '../../../common/omni/admin';
import { AuthenticateResponse } from '../../../common/omni/face';
import { AddBackSecondIdResponse } from '../../../common/omni/id';
import { RawIdvResponse } from '../../../common/omni/session';
import { explain } from '../../../main/omni/catalog';
import { readTolerantly } from '../../../main/omni/tolerant-read';

describe('readTolerantly', () => {
  it('reads a page-wrapped list of keys with null names and epoch times', () => {
    const page = {
      content: [
        { id: 7, name: null, maskedKey: 'ab…cd', createdAt: 1_700_000_000_000, enabled: true },
        { id: 'k2', name: 'ci', createdAt: 1_700_000_000 },
        { id: 'k3', createdAt: '2026-01-02T03:04:05Z' },
      ],
      totalElements: 3,
      number: 0,
    };
    const parsed = readTolerantly(ListApiKeysResponse, page);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual([
      { id: '7', maskedKey: 'ab…cd', createdAt: '2023-11-14T22:13:20.000Z', enabled: true },
      { id: 'k2', name: 'ci', createdAt: '2023-11-14T22:13:20.000Z' },
      { id: 'k3', createdAt: '2026-01-02T03:04:05Z' },
    ]);
  });

  it('still rejects a missing required field, and keeps nulls the contract allows', () => {
    expect(readTolerantly(ListApiKeysResponse, [{ id: null }]).success).toBe(false);
    expect(readTolerantly(ListApiKeysResponse, { total: 0 }).success).toBe(false);
  });

  it('reads checks and fraud risk whose optional fields are null, keeping a null result the contract allows', () => {
    const answer = {
      checkResults: [{ name: 'tamperCheck', severity: 'low', version: '1', result: null, note: null }],
      fraudRisk: {
        name: 'checkFraudRisk',
        severity: 'HIGH',
        version: '2',
        result: 0.8,
        responseText: null,
        topNFraudFeatures: null,
        topNLegitCodes: ['L1'],
      },
    };
    const parsed = readTolerantly(RawIdvResponse, answer);
    expect(parsed.success).toBe(true);
    expect(parsed.data!.checkResults[0]!.result).toBeNull();
    expect(parsed.data!.fraudRisk!.responseText).toBeUndefined();
    expect(parsed.data!.fraudRisk!.topNFraudFeatures).toEqual([]);
    expect(parsed.data!.fraudRisk!.topNLegitCodes).toEqual(['L1']);
  });

  it('keeps enum values newer than the spec as they came, so a face-authentication FAIL is not hidden', () => {
    const auth = readTolerantly(AuthenticateResponse, {
      overallStatus: 'FAIL',
      error: { name: 'DEEPFAKE_DETECTED', message: 'synthetic face' },
    });
    expect(auth.success).toBe(true);
    expect(auth.data!.error!.name).toBe('DEEPFAKE_DETECTED');
    expect(explain({ authError: 'DEEPFAKE_DETECTED' })).toBeUndefined();
    expect(explain({ authError: 'FACE_TOO_DARK' })?.code).toBe('FACE_TOO_DARK');

    const id = readTolerantly(AddBackSecondIdResponse, {
      typeOfId: 'DigitalNationalId',
      failReason: 'NEW_REASON',
      issueName: null,
    });
    expect(id.data).toEqual({ typeOfId: 'DigitalNationalId', failReason: 'NEW_REASON' });
  });
});
