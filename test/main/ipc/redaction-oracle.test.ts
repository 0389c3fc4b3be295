import { describe, expect, it } from 'vitest';
import { createRouter, type AllHandlers } from '../../../main/ipc/router';
import { handlers } from '../../../main/ipc/handlers/index';
import { ReviewError, unknownEnvironment } from '../../../main/errors';
import { ECHO, echoShield } from '../../../main/errors/echo';
import { registerSecretSource, REDACTED } from '../../../main/log';
import { OmniError } from '../../../main/omni/omni-error';
import type { MainContext } from '../../../main/ports';

// Red team 7, finding 3: an error that echoed the caller's guess came back "[redacted]" exactly when the guess was a
// stored secret. The answer must be the same whatever the guess.

const TEAM_PASSWORD = 'change-me-ana';
const API_KEY = 'live-api-key-Q7w9Z3x1';
// Held by this module for the whole file: the log keeps sources only weakly.
const held = { knownSecrets: () => [TEAM_PASSWORD, API_KEY] };
registerSecretSource(held);

const main = { url: 'app://omni/index.html', isMainFrame: true };

const explanation = { code: 'X', en: 'It failed.', es: 'Falló.', adviceEn: '', adviceEs: '', retryable: false };

/** Handlers that echo their input in every way the app's errors do: quoted, shortened, in details, upper-cased. */
const echoing: Record<string, (id: string) => unknown> = {
  unknownEnvironment: () => unknownEnvironment(),
  review: (id) =>
    new ReviewError(
      'ECHO',
      { en: `Interview ${id} is not in the review queue.`, es: `"${id.slice(0, 60)}" no es un id.` },
      undefined,
      { details: { interviewId: id } },
    ),
  omni: (id) =>
    new OmniError({
      kind: 'http',
      code: 'OMNI_HTTP',
      explanation,
      httpStatus: 404,
      serviceWords: `unknown interview ${id.toUpperCase()} (/omni/interview/${encodeURIComponent(id)})`,
    }),
  plainObject: (id) => ({ toIpcError: () => ({ code: 'P', message: { en: `no ${id}`, es: `no ${id}` } }) }),
};

function routerThrowing(make: (id: string) => unknown) {
  const settings = {
    ...handlers.settings,
    setActiveEnvironment: async ({ id }: { id: string }) => {
      throw make(id);
    },
  };
  return createRouter({
    handlers: { ...handlers, settings } as unknown as AllHandlers,
    context: {} as MainContext,
    appUrl: 'app://omni',
  });
}

const secretGuesses = [
  TEAM_PASSWORD,
  'Change-Me-Ana',
  `x ${TEAM_PASSWORD} y`,
  `${TEAM_PASSWORD.slice(0, 12)}zzz`, // three quarters of it, then a wrong guess
  API_KEY,
  API_KEY.toUpperCase(),
];
const plainGuesses = ['change-me-beto', 'not-a-secret-at-all', 'prod'];

describe('IPC errors are no secret oracle', () => {
  it.each(Object.keys(echoing))('answers the same for a secret and a plain guess (%s)', async (kind) => {
    const r = routerThrowing(echoing[kind]!);
    const guesses = [...secretGuesses, ...plainGuesses];
    const answers = await Promise.all(guesses.map((id) => r.handle('settings.setActiveEnvironment', { id }, main)));
    // Each answer with its own guess (as sent, in any case, or in a URL) written as GUESS: then all are the same.
    const shape = (answer: unknown, guess: string) => {
      let text = JSON.stringify(answer);
      for (const form of [guess, encodeURIComponent(guess)])
        text = text.replace(new RegExp(form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), 'GUESS');
      return text;
    };
    answers.forEach((answer, i) => {
      expect(answer.ok).toBe(false);
      expect(JSON.stringify(answer)).not.toContain(REDACTED);
      expect(shape(answer, guesses[i]!)).toBe(shape(answers[0], guesses[0]!));
    });
  });

  it('gives the caller back what it sent, whole, where an error names it', async () => {
    const r = routerThrowing(echoing.review!);
    const answer = await r.handle('settings.setActiveEnvironment', { id: 'demo-clean-pass' }, main);
    expect(answer).toMatchObject({
      ok: false,
      error: {
        message: { en: 'Interview demo-clean-pass is not in the review queue.' },
        details: { interviewId: 'demo-clean-pass' },
      },
    });
  });

  it('still redacts a secret the caller did not send', async () => {
    const r = routerThrowing(
      (id) => new ReviewError('ECHO', { en: `${id}: key ${API_KEY}`, es: `${id}: clave ${API_KEY}` }),
    );
    const answer = await r.handle('settings.setActiveEnvironment', { id: 'prod-x' }, main);
    expect(answer).toMatchObject({
      ok: false,
      error: { message: { en: `prod-x: key ${REDACTED}`, es: `prod-x: clave ${REDACTED}` } },
    });
  });

  it('leaves words that only contain a short input alone, and masks a cut echo of a long one', () => {
    const shield = echoShield({ id: 'demo', long: 'a-long-interview-identifier' });
    const hidden = shield.hide({ en: 'The demonstration of demo failed.', es: 'a-long-interview-iden… no existe' });
    expect(hidden.es).toBe(`${ECHO}… no existe`);
    expect(shield.restore(hidden)).toEqual({
      en: 'The demonstration of demo failed.',
      es: `${ECHO}… no existe`,
    });
  });

  it('looks for a long input (a file) by its head and tail: a quoted start is masked, a short field still given back', () => {
    const file = `RFC\n${'GODE561231GR8\n'.repeat(10_000)}`;
    const shield = echoShield({ csvText: file, environment: 'production' });
    const hidden = shield.hide({ en: `Line 1 of ${file.slice(0, 40)} in production` });
    const { en } = shield.restore(hidden);
    expect(en).toMatch(/^Line 1 of .*\[…\].* in production$/s);
    expect(en).not.toContain('GODE561231GR');
  });

  it("leaves the app's own words alone when the caller's free text shares them", () => {
    const reason = 'Approved: the session token was renewed by the branch.';
    const shield = echoShield({ interviewId: 'demo-clean-pass', reason });
    const message = 'No session token is attached to interview demo-clean-pass, so the decision cannot be sent.';
    expect(shield.restore(shield.hide({ en: message }))).toEqual({ en: message });
  });
});
