import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../../main/ipc/router';
import { handlers } from '../../../main/ipc/handlers/index';
import { curpCases } from '../../../main/demo-server/registries';
import { parseCsv } from '../../../main/validation/csv';
import { rfcCheckDigit } from '../../../common/rules/rfc';
import type { BatchJobView, BatchPreviewView, CurpResultView, RfcResultView } from '../../../common/ipc/validation';
import type { SavedFileView } from '../../../common/ipc/apikeys';
import { startHarness, type Harness } from '../../helpers/demo-support';
import { APP_URL, callThrough, failure, serviceContext } from '../../helpers/router-calls';

/** The validation domain end to end against the demo server, through the router: single checks and batches. */

let h: Harness;
let router: ReturnType<typeof createRouter>;
const saved: { suggestedName: string; data: Uint8Array }[] = [];
/** Well formed, right check digit, but not in the demo SAT registry. */
const UNLISTED_RFC = `PEGJ800101AB${rfcCheckDigit('PEGJ800101AB')}`;

const call = <T>(channel: string, input: unknown) => callThrough<T>(router, channel, input);

async function finished(jobId: string): Promise<BatchJobView> {
  for (;;) {
    const job = await call<BatchJobView>('validation.batchStatus', { jobId, afterSeq: 0 });
    if (job.state === 'done' || job.state === 'cancelled' || job.state === 'paused') return job;
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  h = await startHarness();
  router = createRouter({ handlers, context: serviceContext(await h.client(), saved), appUrl: APP_URL });
});
afterAll(() => h.close());
afterEach(() => h.demo('reset'));

describe('RFC', () => {
  it('returns every field of the service answer', async () => {
    const found = await call<RfcResultView>('validation.validateRfc', { rfc: 'gode561231gr8' });
    expect(found.response).toMatchObject({
      validRFC: true,
      status: 'ACTIVO',
      rfcType: 'PERSONA_FISICA',
      messageCode: 'RFC_VALIDO',
    });
    const missing = await call<RfcResultView>('validation.validateRfc', { rfc: UNLISTED_RFC });
    expect(missing.response).toMatchObject({ validRFC: false, messageCode: 'RFC_NO_ENCONTRADO' });
  });

  it('sends an RFC as the service writes it, whatever spaces, hyphens and dots it was typed with', async () => {
    const found = await call<RfcResultView>('validation.validateRfc', { rfc: 'gode 561231-gr8' });
    expect(found).toMatchObject({ rfc: 'GODE561231GR8', response: { validRFC: true } });
  });

  it('explains the 400 for a bad format and the 500 the service may answer', async () => {
    expect(await failure(call('validation.validateRfc', { rfc: 'ABC' }))).toMatchObject({ httpStatus: 400 });
    await h.demo('faults', { route: 'validateRfc', kind: 'status', status: 500 });
    const error = await failure(call('validation.validateRfc', { rfc: 'GODE561231GR8' }));
    expect(error).toMatchObject({ httpStatus: 500 });
    expect(error.message.es).toBeTruthy();
  });
});

describe('CURP', () => {
  it('explains every documented failure with its group and whether retrying helps', async () => {
    for (const c of curpCases) {
      const view = await call<CurpResultView>('validation.addCurp', { interviewId: 'demo-clean-pass', curp: c.curp });
      if (c.outcome.kind === 'valid') {
        expect(view.valid).toBe(true);
        continue;
      }
      expect(view.valid).toBe(false);
      expect(view.failure?.message.en, c.curp).toBeTruthy();
      if (c.outcome.kind === 'registry') {
        expect(view.failure?.group).toBe(c.outcome.group);
        expect(view.failure?.retryable).toBe(c.outcome.group === 2);
      }
      if (c.outcome.kind === 'unavailable')
        expect(view.failure).toMatchObject({ code: 'CURP_SERVICE_UNAVAILABLE', retryable: true });
    }
  });

  it('needs the interview session token', async () => {
    expect(
      (await failure(call('validation.addCurp', { interviewId: 'not-in-vault', curp: 'HEGG560427MVZRRL04' }))).code,
    ).toBe('NO_SESSION_TOKEN');
  });
});

describe('batch', () => {
  it('previews a CSV and suggests the column to validate', async () => {
    const preview = await call<BatchPreviewView>('validation.batchPreview', {
      csvText: 'nombre,rfc\nJuan,GODE561231GR8\nAna,MAG041126GT8\n',
    });
    expect(preview).toMatchObject({ hasHeader: true, rows: 2, suggested: { column: 1, kind: 'rfc' } });
    expect((await failure(call('validation.batchPreview', { csvText: 'a,"b\n' }))).code).toBe('INVALID_CSV');
  });

  it('refuses at the preview a file a batch cannot take: too many rows, or a row of separators alone', async () => {
    const tall = await failure(call('validation.batchPreview', { csvText: 'x\n'.repeat(200_000) }));
    expect(tall.code).toBe('INVALID_CSV');
    expect(tall.message).toEqual({
      en: expect.stringMatching(/^The file has more than 100000 rows; a batch takes at most 100000\./),
      es: expect.stringMatching(/^El archivo tiene más de 100000 filas; un lote admite como máximo 100000\./),
    });
    const wide = await failure(call('validation.batchPreview', { csvText: `x${','.repeat(3_000_000)}\n` }));
    expect(wide.code).toBe('INVALID_CSV');
    expect(wide.message.en).toMatch(/line 1 has more than 1000 columns/);
    expect(wide.message.es).toMatch(/la línea 1 tiene más de 1000 columnas/);
  });

  it('validates RFCs with bounded concurrency, retries transient failures and reports each row', async () => {
    // A 503 is retried inside the client (nothing was processed); a gateway's 502 is the batch runner's to retry.
    await h.demo('faults', { route: 'validateRfc', kind: 'status', status: 502, times: 2 });
    const csv = ['rfc', 'GODE561231GR8', 'MAG041126GT8', 'XAXX010101000', 'GODE561231GR9', UNLISTED_RFC, 'ABC'].join(
      '\n',
    );
    const started = await call<BatchJobView>('validation.batchStart', {
      csvText: csv,
      kind: 'rfc',
      column: 0,
      hasHeader: true,
      concurrency: 2,
    });
    expect(started.total).toBe(6);
    const job = await finished(started.jobId);
    expect(job).toMatchObject({ state: 'done', done: 6, counts: { valid: 3, invalid: 3, error: 0 } });
    expect(job.retries).toBeGreaterThanOrEqual(2);
    const byLine = Object.fromEntries(job.rows.map((r) => [r.line, r]));
    expect(byLine[7]).toMatchObject({
      value: 'ABC',
      status: 'invalid',
      source: 'local',
      code: 'LOCAL_LENGTH',
      attempts: 0,
    });
    // A check digit that does not match is the service's to judge: sent, with the local warning kept beside its answer.
    expect(byLine[5]).toMatchObject({ status: 'invalid', source: 'service', code: 'RFC_NO_ENCONTRADO' });
    expect(byLine[5]!.warning?.en).toContain('"9" where the other characters give "8"');
    expect(byLine[6]).toMatchObject({ status: 'invalid', source: 'service', code: 'RFC_NO_ENCONTRADO' });
    // A row that needs attention carries what the service answered; a valid one or a local refusal does not.
    expect(byLine[6]!.answer).toMatchObject({
      endpoint: 'validateRfc',
      body: { validRFC: false, messageCode: 'RFC_NO_ENCONTRADO' },
    });
    expect(byLine[2]!.answer).toBeUndefined();
    expect(byLine[7]!.answer).toBeUndefined();
    const more = await call<BatchJobView>('validation.batchStatus', { jobId: started.jobId, afterSeq: job.lastSeq });
    expect(more.rows).toEqual([]);

    const exported = await call<SavedFileView>('validation.batchExport', { jobId: started.jobId, language: 'es' });
    expect(exported).toMatchObject({ saved: true, rows: 6 });
    const rows = parseCsv(new TextDecoder().decode(saved.at(-1)!.data));
    expect(rows[0]).toEqual([
      'línea',
      'rfc',
      'resultado',
      'origen',
      'código',
      'grupo',
      'detalle',
      'qué hacer',
      'intentos',
    ]);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['2', '3', '4', '5', '6', '7']);
  });

  it('sends RFCs and CURPs written with spaces, hyphens and dots, and RFCs whose check digit does not match, to the service', async () => {
    const rfcs = ['GODE 561231 GR8', 'MAG-041126-GT8', 'SOTO800101110', 'GODE.561231.GR9', 'GODE 5612 31'];
    const started = await call<BatchJobView>('validation.batchStart', {
      csvText: ['rfc', ...rfcs].join('\n'),
      kind: 'rfc',
      column: 0,
      hasHeader: true,
      concurrency: 2,
    });
    const job = await finished(started.jobId);
    const byLine = Object.fromEntries(job.rows.map((r) => [r.line, r]));
    // The rows keep the value as written; the service saw it without the formatting (it would answer 400 otherwise).
    expect(byLine[2]).toMatchObject({ value: 'GODE 561231 GR8', status: 'valid', source: 'service', attempts: 1 });
    expect(byLine[3]).toMatchObject({ value: 'MAG-041126-GT8', status: 'valid', source: 'service', attempts: 1 });
    // SAT lists this one although its check digit breaks the rule: only the service could say so.
    expect(byLine[4]).toMatchObject({ status: 'valid', source: 'service', attempts: 1 });
    expect(byLine[4]!.message.en).toBe('SAT lists this RFC (PERSONA_FISICA).');
    expect(byLine[4]!.warning).toEqual({
      en: 'The check digit is "0" where the other characters give "9". SAT has issued some RFCs like this; the service decides.',
      es: 'El dígito verificador es "0" y los demás caracteres dan "9". El SAT ha emitido algunos RFC así; el servicio decide.',
    });
    expect(byLine[5]).toMatchObject({ status: 'invalid', source: 'service', code: 'RFC_NO_ENCONTRADO', attempts: 1 });
    // A format error stays a local verdict, never sent.
    expect(byLine[6]).toMatchObject({ status: 'invalid', source: 'local', code: 'LOCAL_LENGTH', attempts: 0 });
    expect(job.counts).toEqual({ valid: 3, invalid: 2, error: 0 });

    const exported = await call<SavedFileView>('validation.batchExport', { jobId: started.jobId, language: 'es' });
    expect(exported).toMatchObject({ saved: true, rows: 5 });
    const soto = parseCsv(new TextDecoder().decode(saved.at(-1)!.data)).find((r) => r[1] === 'SOTO800101110');
    expect(soto?.[6]).toContain('El SAT ha emitido algunos RFC así; el servicio decide.');

    const curp = await call<BatchJobView>('validation.batchStart', {
      csvText: 'HEGG 560427 MVZRRL04\nHEGG-560427-MVZ-RRL-05',
      kind: 'curp',
      column: 0,
      hasHeader: false,
      interviewId: 'demo-clean-pass',
    });
    const curps = Object.fromEntries((await finished(curp.jobId)).rows.map((r) => [r.line, r]));
    expect(curps[1]).toMatchObject({ status: 'valid', source: 'service' });
    // A CURP's check digit is RENAPO's rule without exceptions: still a local verdict.
    expect(curps[2]).toMatchObject({ status: 'invalid', source: 'local', code: 'LOCAL_CHECKDIGIT' });
  });

  it('validates CURPs for an interview: transient groups retried, input errors reported, daily limit stops the batch', async () => {
    const pick = (pred: (c: (typeof curpCases)[number]) => boolean) => curpCases.find(pred)!.curp;
    const valid = pick((c) => c.outcome.kind === 'valid');
    const notFound = pick((c) => c.outcome.kind === 'registry' && c.outcome.codigoError === '06');
    const internal = pick((c) => c.outcome.kind === 'registry' && c.outcome.group === 3);
    const transient = pick((c) => c.outcome.kind === 'registry' && c.outcome.group === 2);
    const daily = pick((c) => c.outcome.kind === 'provider' && c.outcome.descripcionRespuesta.startsWith('daily'));
    const csv = [valid, notFound, internal, transient].join('\n');
    const started = await call<BatchJobView>('validation.batchStart', {
      csvText: csv,
      kind: 'curp',
      column: 0,
      hasHeader: false,
      interviewId: 'demo-clean-pass',
      concurrency: 4,
    });
    const job = await finished(started.jobId);
    const by = Object.fromEntries(job.rows.map((r) => [r.value, r]));
    expect(by[valid]).toMatchObject({ status: 'valid' });
    expect(by[notFound]).toMatchObject({ status: 'invalid', group: 1, code: '01-06' });
    expect(by[notFound]!.answer).toMatchObject({ endpoint: 'addCurp', body: { success: false } });
    expect(by[internal]).toMatchObject({ status: 'error', group: 3, attempts: 1 });
    expect(by[transient]).toMatchObject({ status: 'error', group: 2 });
    expect(by[transient]!.attempts).toBeGreaterThan(1);

    const stopping = await call<BatchJobView>('validation.batchStart', {
      csvText: [daily, valid, valid, valid].join('\n'),
      kind: 'curp',
      column: 0,
      hasHeader: false,
      interviewId: 'demo-clean-pass',
      concurrency: 1,
    });
    const paused = await finished(stopping.jobId);
    expect(paused.state).toBe('paused');
    expect(paused.stoppedBecause?.en).toBeTruthy();
    expect(paused.done).toBe(1);
    await call('validation.batchResume', { jobId: stopping.jobId });
    expect((await finished(stopping.jobId)).state).toBe('done');
  });

  it('requires an interview for a CURP batch, pauses, resumes and cancels', async () => {
    expect(
      (await failure(call('validation.batchStart', { csvText: 'x', kind: 'curp', column: 0, hasHeader: false }))).code,
    ).toBe('INVALID_INPUT');
    await h.demo('faults', { route: 'validateRfc', kind: 'delay', delayMs: 200, times: 100 });
    const csv = Array.from({ length: 40 }, () => 'GODE561231GR8').join('\n');
    const started = await call<BatchJobView>('validation.batchStart', {
      csvText: csv,
      kind: 'rfc',
      column: 0,
      hasHeader: false,
      concurrency: 2,
    });
    await call('validation.batchPause', { jobId: started.jobId });
    const paused = await finished(started.jobId);
    expect(paused.state).toBe('paused');
    expect(paused.done).toBeLessThanOrEqual(2);
    await call('validation.batchResume', { jobId: started.jobId });
    const cancelled = await call<BatchJobView>('validation.batchCancel', { jobId: started.jobId });
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.done).toBeLessThan(40);
  });
});
