import { describe, expect, it } from 'vitest';
import { ListApiKeysResponse } from '../../../common/omni/admin';
import { ErrorBody, SuccessResponse, unreadFieldsOf } from '../../../common/omni/common';
import { SignStringResponse } from '../../../common/omni/nom151';
import { ImportVideoResponse } from '../../../common/omni/recordings';
import { toApiKeyRows } from '../../../main/apikeys/rows';
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

  it('reads times as ISO text, epoch ms or epoch s on every endpoint, error bodies included', () => {
    const at = '2023-11-14T22:13:20.000Z';
    for (const timestamp of [1_700_000_000_000, 1_700_000_000, '1700000000000', at]) {
      const body = readTolerantly(ErrorBody, {
        timestamp,
        status: 400,
        error: 'Bad Request',
        message: 'gone',
        path: '/x',
      });
      expect(body.success).toBe(true);
      expect(body.data!.timestamp).toBe(at);
      expect(body.data!.message).toBe('gone');
    }
  });

  it('reads ids and other text sent as numbers, numbers and booleans sent as text', () => {
    expect(readTolerantly(ImportVideoResponse, { recordingId: 9_001 }).data).toEqual({ recordingId: '9001' });
    expect(readTolerantly(SignStringResponse, { signedString: 'MIIB', reference: 42 }).data!.reference).toBe('42');
    const keys = readTolerantly(ListApiKeysResponse, [{ id: 3, name: 7, enabled: 'false' }]);
    expect(keys.data).toEqual([{ id: '3', name: '7', enabled: false }]);
  });

  it('degrades only the field that does not parse: kept raw under unreadFields, the rest of the answer read', () => {
    const answer = {
      checkResults: [
        { name: 'tamperCheck', severity: 'low', version: '1', result: 0.1 },
        { name: 'liveness', severity: 'critical', version: '3', result: 'very high' },
        'not a check',
      ],
      fraudRisk: { name: 'checkFraudRisk', severity: 'EXTREME', version: '2', result: 0.9, topNFraudCodes: 'F1,F2' },
    };
    const parsed = readTolerantly(RawIdvResponse, answer);
    expect(parsed.success).toBe(true);
    const { checkResults, fraudRisk } = parsed.data!;
    expect(checkResults).toHaveLength(2);
    expect(checkResults[0]).toEqual(answer.checkResults[0]);
    // A severity newer than the spec is kept as it came; the value that is no number is set aside, raw.
    expect(checkResults[1]).toMatchObject({ name: 'liveness', severity: 'critical', result: null });
    expect(unreadFieldsOf(checkResults[1])).toEqual({ result: 'very high' });
    expect(unreadFieldsOf(parsed.data)).toEqual({ checkResults: ['not a check'] });
    expect(fraudRisk).toMatchObject({ severity: 'EXTREME', result: 0.9, topNFraudCodes: [] });
    expect(unreadFieldsOf(fraudRisk)).toEqual({ topNFraudCodes: 'F1,F2' });
    const written = readTolerantly(SuccessResponse, { success: true, sessionStatus: 'Archived' });
    expect(written.data).toEqual({ success: true, unreadFields: { sessionStatus: 'Archived' } });
  });

  it('shows an API key field it could not read as it came, flagged, and never a full key', () => {
    const parsed = readTolerantly(ListApiKeysResponse, {
      items: [{ id: 'k1', name: { first: 'ci' }, maskedKey: 12345678901234, createdAt: true }],
    });
    expect(parsed.success).toBe(true);
    const { keys, extraColumns } = toApiKeyRows(parsed.data!);
    expect(keys[0]!.unread).toEqual(['name', 'createdAt']);
    expect(keys[0]!.extra).toEqual({ name: '{"first":"ci"}', createdAt: true });
    expect(keys[0]!.maskedKey).toBe('1234••••1234');
    expect(extraColumns).toEqual(['name', 'createdAt']);
  });
});
