import { describe, expect, it, vi } from 'vitest';
import { createRouter, isAppUrl, type AllHandlers } from '../../../main/ipc/router';
import { handlers } from '../../../main/ipc/handlers/index';
import { contract } from '../../../common/ipc/index';
import { ReviewError } from '../../../main/errors';
import type { MainContext } from '../../../main/ports';

const APP = 'app://omni';
const main = { url: 'app://omni/index.html#/settings', isMainFrame: true };

function fakeContext(overrides: Partial<MainContext> = {}): MainContext {
  return {
    shell: { kind: 'web', version: '9.9.9', platform: 'linux', openExternal: async () => false },
    ...overrides,
  } as MainContext;
}

function router(
  h: Partial<AllHandlers> = {},
  ctx = fakeContext(),
  onUnexpectedError?: (c: string, e: unknown) => void,
) {
  return createRouter({ handlers: { ...handlers, ...h } as AllHandlers, context: ctx, appUrl: APP, onUnexpectedError });
}

describe('ipc router', () => {
  it('registers every channel of the contract', () => {
    const expected = Object.entries(contract).flatMap(([d, ms]) => Object.keys(ms).map((m) => `${d}.${m}`));
    expect(router().channels().sort()).toEqual(expected.sort());
  });

  it('runs a handler with parsed input and the context', async () => {
    const result = await router().handle('app.info', {}, main);
    expect(result).toEqual({
      ok: true,
      data: { name: 'Omni Reviewer', version: '9.9.9', shell: 'web', platform: 'linux' },
    });
  });

  it.each([
    ['another origin', { url: 'https://evil.example/index.html', isMainFrame: true }],
    ['a sub-frame of the app', { url: 'app://omni/index.html', isMainFrame: false }],
    ['another custom-scheme host', { url: 'app://evil/index.html', isMainFrame: true }],
    ['file://', { url: 'file:///etc/passwd', isMainFrame: true }],
    ['an unparsable URL', { url: 'not a url', isMainFrame: true }],
    ['credentials in the URL', { url: 'app://user:pw@omni/', isMainFrame: true }],
  ])('refuses %s', async (_name, sender) => {
    const run = vi.fn();
    const r = router({ app: { ...handlers.app, info: run } as unknown as AllHandlers['app'] });
    const result = await r.handle('app.info', {}, sender);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('FORBIDDEN_SENDER');
    expect(run).not.toHaveBeenCalled();
  });

  it('answers INVALID_INPUT with field issues in both languages, without running the handler', async () => {
    const result = await router().handle(
      'settings.updateEnvironment',
      { id: 'prod', baseUrl: 'ftp://x', extra: 1 },
      main,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('INVALID_INPUT');
    expect(result.error.message.es).toMatch(/no son válidos/);
    expect(result.error.issues?.map((i) => i.path)).toEqual(expect.arrayContaining(['baseUrl']));
  });

  it('gives each field’s reason in Spanish too: the schema’s own words, zod’s in its Spanish, never the input', async () => {
    const token = 'a secret token';
    const result = await router().handle(
      'queue.attachToken',
      { interviewId: 'id with spaces', sessionToken: token },
      main,
    );
    if (result.ok) throw new Error('accepted');
    const byPath = Object.fromEntries((result.error.issues ?? []).map((i) => [i.path, i]));
    expect(byPath.interviewId).toMatchObject({
      message: expect.stringMatching(/^Interview ids use letters, digits/),
      messageEs: expect.stringMatching(/^Un id de entrevista lleva solo letras, números/),
    });
    expect(byPath.sessionToken).toMatchObject({ messageEs: 'Un token de sesión no lleva espacios' });
    expect(JSON.stringify(result.error)).not.toContain(token);

    const long = await router().handle('queue.counts', { search: 'x'.repeat(301) }, main);
    if (long.ok) throw new Error('accepted');
    expect(long.error.issues?.[0]).toMatchObject({ path: 'search', messageEs: expect.stringMatching(/300/) });
    const typed = await router().handle('queue.counts', { search: 42 }, main);
    if (typed.ok) throw new Error('accepted');
    expect(typed.error.issues?.[0]?.messageEs).toMatch(/^Entrada inválida: se esperaba texto, recibido número/);
  });

  it('says a refused input in a few short lines, however many issues it has (red team 21)', async () => {
    const keys = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`unknown_key_${i}`, i]));
    const result = await router().handle('queue.counts', keys, main);
    if (result.ok) throw new Error('accepted');
    expect(result.error.issues!.length).toBeLessThanOrEqual(20);
    for (const issue of result.error.issues!) {
      expect(issue.message.length).toBeLessThanOrEqual(300);
      expect((issue.messageEs ?? '').length).toBeLessThanOrEqual(300);
    }
    expect(JSON.stringify(result.error).length).toBeLessThan(20_000);
  });

  it('answers UNKNOWN_CHANNEL for a channel outside the contract', async () => {
    const result = await router().handle('app.__proto__', {}, main);
    expect(result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
  });

  it('serializes errors that know how (toIpcError) and hides the message of any other error', async () => {
    const secret = 'sk_live_SUPERSECRET';
    const onUnexpected = vi.fn();
    const known = router({
      app: {
        ...handlers.app,
        info: async () => {
          throw new ReviewError('X', { en: 'nope', es: 'no' });
        },
      },
    });
    expect(await known.handle('app.info', {}, main)).toMatchObject({
      ok: false,
      error: { code: 'X', message: { en: 'nope', es: 'no' } },
    });

    const unknown = router(
      {
        app: {
          ...handlers.app,
          info: async () => {
            throw new Error(`request failed with x-api-key ${secret}`);
          },
        },
      },
      fakeContext(),
      onUnexpected,
    );
    const result = await unknown.handle('app.info', {}, main);
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(result)).not.toContain(secret);
    expect(onUnexpected).toHaveBeenCalledOnce();
  });

  it('compares app URLs by scheme and host', () => {
    expect(isAppUrl('http://127.0.0.1:5173/#/x', 'http://127.0.0.1:5173')).toBe(true);
    expect(isAppUrl('http://127.0.0.1:5174/', 'http://127.0.0.1:5173')).toBe(false);
    expect(isAppUrl('http://localhost:5173/', 'http://127.0.0.1:5173')).toBe(false);
  });
});
