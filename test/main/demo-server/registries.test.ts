import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { curpCases } from '../../../main/demo-server/registries';
import { fail, startHarness, type Harness } from '../../helpers/demo-support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(() => h.demo('reset'));

describe('demo server: interview data', () => {
  it('returns raw IDV results: full with every severity and a null result, empty, and without fraud risk', async () => {
    const client = await h.client();
    const fraud = await client.call('getRawIdvResults', { query: { id: 'demo-fraud-high' } });
    expect(new Set(fraud.checkResults.map((c) => c.severity))).toEqual(new Set(['low', 'medium', 'high']));
    expect(fraud.checkResults.some((c) => c.result === null)).toBe(true);
    expect(fraud.fraudRisk).toMatchObject({ name: 'checkFraudRisk', severity: 'HIGH' });
    expect(fraud.fraudRisk!.topNFraudFeatures.length).toBe(fraud.fraudRisk!.topNFraudCodes.length);
    expect(fraud.fraudRisk!.topNLegitFeatures.length).toBe(fraud.fraudRisk!.topNLegitCodes.length);
    expect(fraud.fraudRisk!.topNFraudCodes[0]).toBe('DEVICE_REUSE');
    expect(fraud.fraudRisk!.topNFraudFeatures[0]).toMatch(/Device/);

    expect(await client.call('getRawIdvResults', { query: { id: 'demo-empty-idv' } })).toEqual({
      checkResults: [],
      fraudRisk: null,
    });
    const noRisk = await client.call('getRawIdvResults', { query: { id: 'demo-no-fraud-risk' } });
    expect(noRisk.checkResults.length).toBeGreaterThan(0);
    expect(noRisk.fraudRisk).toBeNull();
    // Without an id the session token's interview is used.
    const own = await client.call('getRawIdvResults', {}, { interviewId: 'demo-clean-pass' });
    expect(own.fraudRisk?.severity).toBe('LOW');
  });

  it('returns cross-document comparisons that match and that do not', async () => {
    const client = await h.client();
    const clean = await client.call('getCrossDocResults', { query: { id: 'demo-clean-pass' } });
    expect(Object.values(clean).every((e) => (e as { match: boolean }).match)).toBe(true);
    const mismatched = await client.call('getCrossDocResults', { query: { id: 'demo-fraud-high' } });
    expect(mismatched.fullName).toMatchObject({ match: false, status: 'MISMATCH' });
    expect(mismatched.documentNumber).toMatchObject({ match: true });
    expect(await client.call('getCrossDocResults', { query: { id: 'demo-empty-idv' } })).toEqual({});
  });

  it('records notes and names on Alive sessions and refuses Closed and Deleted ones', async () => {
    const client = await h.client();
    expect(
      await client.call(
        'addConferenceNotes',
        { body: { notes: 'Identidad confirmada por videollamada.' } },
        { interviewId: 'demo-clean-pass' },
      ),
    ).toEqual({ success: true, sessionStatus: 'Alive' });
    expect(
      await client.call('addName', { body: { name: 'Ana López García' } }, { interviewId: 'demo-clean-pass' }),
    ).toEqual({ success: true, sessionStatus: 'Alive' });
    const state = await (await fetch(`${h.server.url}/__demo/interviews/demo-clean-pass`)).json();
    expect(state).toMatchObject({
      name: 'Ana López García',
      notes: [expect.objectContaining({ text: 'Identidad confirmada por videollamada.' })],
    });
    for (const interviewId of ['demo-closed', 'demo-deleted']) {
      // Started one at a time: a refusal that arrives while an earlier one is awaited would be unhandled.
      for (const call of [
        () => client.call('addConferenceNotes', { body: { notes: 'x' } }, { interviewId }),
        () => client.call('addName', { body: { name: 'x' } }, { interviewId }),
        () => client.call('addCurp', { body: { curp: 'HEGG560427MVZRRL04' } }, { interviewId }),
        () => client.call('importVideo', { body: { video: 'GkXfow==' } }, { interviewId }),
      ]) {
        const err = await fail(call());
        expect(err.httpStatus).toBe(400);
        expect(err.body?.details).toMatchObject({
          sessionStatus: interviewId === 'demo-closed' ? 'Closed' : 'Deleted',
        });
      }
    }
  });

  it('gives contract links to real multi-page PDFs served with Range, and refuses expired or forged links', async () => {
    const client = await h.client();
    const links = await client.call('getContractLinks', { query: { id: 'demo-contracts-many' } });
    expect(links.success).toBe(true);
    expect(links.sessionStatus).toBe('Alive');
    const urls = Object.entries(links.additionalInformation ?? {});
    expect(urls.length).toBe(4);
    const [docId, url] = urls[0]!;
    expect(docId).toBe('demo-contracts-many-credito');
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('application/pdf');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const bytes = new Uint8Array(await whole.arrayBuffer());
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(2);
    expect(pdf.getTitle()).toBe('Contrato de crédito simple');
    const part = await fetch(url, { headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(Buffer.from(bytes.subarray(0, 100)));

    const forged = url.replace(/signature=([^&]+)/, (_m, s: string) => `signature=${s.slice(0, -2)}xx`);
    expect((await fetch(forged)).status).toBe(403);
    const otherPath = url.replace('demo-contracts-many-credito', 'demo-contracts-many-seguro');
    expect((await fetch(otherPath)).status).toBe(403);
    await h.demo('clock', { advanceMs: 60 * 60_000 + 1 });
    const expired = await fetch(url);
    expect(expired.status).toBe(403);
    expect((await expired.json()).message).toMatch(/expired/);

    const closed = await client.call('getContractLinks', { query: { id: 'demo-closed' } });
    expect(closed.sessionStatus).toBe('Closed');
    expect(await client.call('getContractLinks', { query: { id: 'demo-empty-idv' } })).toMatchObject({
      success: true,
      additionalInformation: {},
    });
  });

  it('gives a one-hour pre-signed video-selfie URL to a real WebM served with Range', async () => {
    const client = await h.client();
    const { url } = await client.call('getVideoSelfieUrl', { query: { interviewId: 'demo-clean-pass' } });
    const expires = Number(new URL(url).searchParams.get('expires'));
    expect(expires - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(60 * 60_000);
    const head = await fetch(url, { headers: { range: 'bytes=0-3' } });
    expect(head.status).toBe(206);
    expect(head.headers.get('content-type')).toBe('video/webm');
    expect(Buffer.from(await head.arrayBuffer()).readUInt32BE(0)).toBe(0x1a45dfa3);
    const total = Number(head.headers.get('content-range')!.split('/')[1]);
    expect(total).toBeGreaterThan(10_000);
    expect(total).toBeLessThan(1024 * 1024);
    const tail = await fetch(url, { headers: { range: 'bytes=-10' } });
    expect(tail.headers.get('content-range')).toBe(`bytes ${total - 10}-${total - 1}/${total}`);
    const beyond = await fetch(url, { headers: { range: `bytes=${total}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${total}`);
    expect((await fetch(url.replace(/expires=\d+/, `expires=${expires + 1000}`))).status).toBe(403);
    expect((await fetch(url.split('?')[0]!)).status).toBe(403);

    await h.demo('clock', { advanceMs: 59 * 60_000 });
    expect((await fetch(url)).status).toBe(200);
    await h.demo('clock', { advanceMs: 2 * 60_000 });
    expect((await fetch(url)).status).toBe(403);

    const none = await fail(client.call('getVideoSelfieUrl', { query: { interviewId: 'demo-empty-idv' } }));
    expect(none.body?.message).toMatch(/no video selfie/);
    const bySession = await client.call('getVideoSelfieUrl', {}, { interviewId: 'demo-fraud-high' });
    expect(bySession.url).toContain('/files/video-selfies/demo-fraud-high.webm');
  });
});

describe('demo server: RFC and CURP', () => {
  it('validates RFCs by the real rules: 400 when malformed, validRFC false when unknown, whatever the check digit', async () => {
    const client = await h.client();
    expect(await client.call('validateRfc', { body: { rfc: 'GODE561231GR8' } })).toMatchObject({
      validRFC: true,
      rfcType: 'PERSONA_FISICA',
      status: 'ACTIVO',
    });
    expect(await client.call('validateRfc', { body: { rfc: 'mag041126gt8' } })).toMatchObject({
      validRFC: true,
      rfcType: 'PERSONA_MORAL',
    });
    expect(await client.call('validateRfc', { body: { rfc: 'XAXX010101000' } })).toMatchObject({
      validRFC: true,
      status: 'GENERICO',
    });
    const unknown = await client.call('validateRfc', { body: { rfc: 'HEGG560427IU5' } });
    expect(unknown).toMatchObject({ validRFC: false, messageCode: 'RFC_NO_ENCONTRADO' });
    // A check digit that breaks the rule is SAT's to judge, as on the real registry: listed or not, never a 400.
    expect(await client.call('validateRfc', { body: { rfc: 'SOTO800101110' } })).toMatchObject({ validRFC: true });
    expect(await client.call('validateRfc', { body: { rfc: 'GODE561231GR9' } })).toMatchObject({
      validRFC: false,
      messageCode: 'RFC_NO_ENCONTRADO',
    });
    for (const [rfc, reason] of [
      ['GODE56123', 'length'],
      ['GOD3561231GR8', 'characters'],
      ['GODE561331GR8', 'date'],
    ] as const) {
      const err = await fail(client.call('validateRfc', { body: { rfc } }));
      expect(err.httpStatus, rfc).toBe(400);
      expect(err.body?.details, rfc).toMatchObject({ reason });
      expect(err.body?.message).toMatch(/^Invalid RFC format: /);
    }
  });

  it('answers each documented CURP with the spec shape', async () => {
    const client = await h.client();
    for (const { curp, outcome } of curpCases) {
      const res = await client.call('addCurp', { body: { curp } }, { interviewId: 'demo-clean-pass' });
      switch (outcome.kind) {
        case 'valid':
          expect(res).toMatchObject({ success: true, renapo_valid: true });
          break;
        case 'provider':
          expect(res).toMatchObject({
            success: false,
            result: outcome.descripcionRespuesta,
            error: {
              codigoRespuesta: outcome.codigoRespuesta,
              descripcionRespuesta: outcome.descripcionRespuesta,
              respuestaRENAPO: null,
            },
          });
          expect(res.error?.referencia).toMatch(/^RNP-/);
          break;
        case 'registry':
          expect(res).toMatchObject({
            success: false,
            renapo_valid: false,
            error: { tipoError: outcome.tipoError, codigoError: outcome.codigoError, message: outcome.message },
          });
          expect(res.result).toBe(outcome.message);
          break;
        case 'unavailable':
          expect(res).toMatchObject({
            success: false,
            renapo_valid: false,
            error: { tipoError: '99', codigoError: '01' },
          });
          expect(res.result).toBe(res.error?.message);
          expect(res.result).toMatch(/no está disponible/);
          break;
      }
    }
    const kinds = curpCases.map((c) => (c.outcome.kind === 'registry' ? `g${c.outcome.group}` : c.outcome.kind));
    expect(kinds.filter((k) => k === 'provider')).toHaveLength(7);
    expect(kinds.filter((k) => k === 'g1')).toHaveLength(6);
    expect(kinds.filter((k) => k === 'g2')).toHaveLength(9);
    expect(kinds.filter((k) => k === 'g3')).toHaveLength(15);
  });

  it('stores a valid CURP, calls other well-formed ones not found and refuses malformed ones with 400', async () => {
    const client = await h.client();
    await client.call('addCurp', { body: { curp: 'hegg560427mvzrrl04' } }, { interviewId: 'demo-clean-pass' });
    expect((await (await fetch(`${h.server.url}/__demo/interviews/demo-clean-pass`)).json()).curp).toBe(
      'HEGG560427MVZRRL04',
    );
    expect(
      await client.call('addCurp', { body: { curp: 'GOPL900515MDFNRR02' } }, { interviewId: 'demo-clean-pass' }),
    ).toMatchObject({ success: false, error: { tipoError: '01', codigoError: '06' } });
    for (const [curp, reason] of [
      ['HEGG5604', 'length'],
      ['HEGG560427MVZRRL05', 'checkDigit'],
      ['HEGG561327MVZRRL04', 'date'],
      ['HEGG560427MZZRRL04', 'state'],
    ] as const) {
      const err = await fail(client.call('addCurp', { body: { curp } }, { interviewId: 'demo-clean-pass' }));
      expect(err.httpStatus, curp).toBe(400);
      expect(err.body?.details, curp).toMatchObject({ reason });
    }
  });
});
