import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppContextHandle } from '../../../main/app-context';
import { handlers } from '../../../main/ipc/handlers/index';
import { createRouter } from '../../../main/ipc/router';
import { startTestApp } from '../../helpers/app-context';
import { APP_URL, callThrough, failure } from '../../helpers/router-calls';

/**
 * Transient is transient: "send notes" through the router against the app's own demo service, its fault routes
 * standing in for a production load balancer. An answer that says nothing was processed (429, 503) is retried by
 * itself, once stored; a lost answer (502 page, reset) says so, and the analyst's resend is stored once.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'omni-transient-'));
const INTERVIEW = 'demo-clean-pass';
let app: AppContextHandle;
let router: ReturnType<typeof createRouter>;
const call = <T>(channel: string, input: unknown) => callThrough<T>(router, channel, input);
const demo = (path: string, body?: unknown) =>
  fetch(`${app.demoUrl()}/__demo/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).then((r) => r.json() as Promise<Record<string, unknown>>);
const storedNotes = async () =>
  ((await demo(`interviews/${INTERVIEW}`)).notes as { text: string }[]).map((n) => n.text);
const fault = (spec: Record<string, unknown>) => demo('faults', { route: 'addConferenceNotes', ...spec });

async function sendNote(text: string) {
  await call('interview.saveDraft', { interviewId: INTERVIEW, kind: 'notes', text });
  return call('interview.sendNotes', { interviewId: INTERVIEW });
}

beforeAll(async () => {
  app = await startTestApp(dataDir);
  router = createRouter({ handlers, context: app.context, appUrl: APP_URL });
  await call('queue.addDemoSeeds', { interviewIds: [INTERVIEW] });
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await demo('reset', {});
});

describe('a write that meets an answer saying it was not processed goes through by itself, once', () => {
  it('one 503 with Retry-After: 1', async () => {
    await fault({ kind: 'status', status: 503, retryAfterS: 1 });
    await expect(sendNote('after a 503')).resolves.toHaveProperty('sentAt');
    expect(await storedNotes()).toEqual(['after a 503']);
  });

  it('one 429 with Retry-After: 1', async () => {
    await fault({ kind: 'status', status: 429, retryAfterS: 1 });
    await expect(sendNote('after a 429')).resolves.toHaveProperty('sentAt');
    expect(await storedNotes()).toEqual(['after a 429']);
  });

  it('a load balancer’s 503 page with Retry-After: 1', async () => {
    await fault({ kind: 'html', status: 503, retryAfterS: 1 });
    await expect(sendNote('after a 503 page')).resolves.toHaveProperty('sentAt');
    expect(await storedNotes()).toEqual(['after a 503 page']);
  });

  it('a lasting 503 ends in "not answering right now" with the wait, nothing stored, never "check the address"', async () => {
    await fault({ kind: 'html', status: 503, retryAfterS: 1, times: 10 });
    const error = await failure(sendNote('during an outage'));
    expect(error.httpStatus).toBe(503);
    expect(error.message.en).toBe('The service is not answering right now.');
    expect(error.message.es).toBe('El servicio no está respondiendo en este momento.');
    expect(error.advice?.en).toMatch(/^The service asked to wait 1 s\./);
    expect(error.advice?.es).toMatch(/^El servicio pidió esperar 1 s\./);
    expect(`${error.message.en} ${error.advice?.en}`).not.toMatch(/check the .*address/i);
    expect(error.details?.serviceMessage).toMatch(/503 Service Unavailable/);
    expect(await storedNotes()).toEqual([]);
  });
});

describe('a write whose answer was lost says so, and the analyst’s resend is stored once', () => {
  it.each([
    ['a 502 page from the gateway', { kind: 'html', status: 502, after: true }],
    ['a reset connection', { kind: 'reset', after: true }],
  ])('%s', async (_what, spec) => {
    await fault(spec);
    const error = await failure(sendNote('outcome unknown'));
    expect(error.code).toBe('OUTCOME_UNKNOWN');
    expect(error.message.en).toMatch(/whether the service stored it is unknown/);
    expect(error.message.es).toMatch(/no se sabe si el servicio lo guardó/);
    expect(error.advice?.en).toMatch(/same key/);
    // The service did store it; the resend carries the same key, so it keeps the one copy.
    expect(await storedNotes()).toEqual(['outcome unknown']);
    await expect(call('interview.sendNotes', { interviewId: INTERVIEW })).resolves.toHaveProperty('sentAt');
    expect(await storedNotes()).toEqual(['outcome unknown']);
  });

  it('a new, deliberate note of the same words is a new write, stored again', async () => {
    await sendNote('same words');
    await sendNote('same words');
    expect(await storedNotes()).toEqual(['same words', 'same words']);
  });
});

describe('what a page in place of the service means depends on its status', () => {
  it('a 502 page on a read: not answering right now; a 200 login page: the address looks wrong', async () => {
    await demo('faults', { route: 'getRawIdvResults', kind: 'html', status: 502, times: 10 });
    const outage = await failure(call('interview.rawIdv', { interviewId: INTERVIEW }));
    expect(outage.message.en).toBe('The service is not answering right now.');
    expect(outage.advice?.en).not.toMatch(/address in Settings/);

    await demo('reset', {});
    await demo('faults', { route: 'getRawIdvResults', kind: 'html', times: 10 });
    const login = await failure(call('interview.rawIdv', { interviewId: INTERVIEW }));
    expect(login.code).toBe('NOT_THE_SERVICE');
    expect(login.advice?.en).toMatch(/address in Settings/);
  });
});

describe('a write that carries no key, whose answer was lost, says it may have gone through (red team 20)', () => {
  it.each([
    ['a 502 page from the gateway', { kind: 'html', status: 502, after: true }],
    ['a reset connection', { kind: 'reset', after: true }],
  ])('%s', async (_what, spec) => {
    await demo('faults', { route: 'signStringNom151', ...spec });
    const error = await failure(call('nom151.signString', { text: 'Acepto los términos' }));
    expect(error.code).toBe('OUTCOME_UNKNOWN');
    // Not "send it again": a second seal would be another certificate.
    expect(error.retryable).toBe(false);
    expect(error.advice?.en).toMatch(/Check before sending it again/);
    expect(error.advice?.es).toMatch(/Revísalo antes de volver a enviarlo/);
    expect(error.advice?.en).not.toMatch(/same key/);
    expect(error.serviceCode).toBeUndefined();
  });
});

describe('a 400 says what was refused, in the terms of what was asked (UX review)', () => {
  it('an interview the service does not know: its checks refused, what to check next, the service’s words below', async () => {
    const error = await failure(call('interview.rawIdv', { interviewId: 'not-at-the-service' }));
    expect(error.httpStatus).toBe(400);
    expect(error.message).toEqual({
      en: "The service refused to give this interview's ID checks.",
      es: 'El servicio se negó a dar las validaciones de identificación de esta entrevista.',
    });
    expect(error.advice?.es).toMatch(/Revisa el id \(o quita la entrevista de la bandeja\)/);
    expect(error.retryable).toBe(false);
    expect(error.details?.serviceMessage).toBeTruthy();
  });
});
