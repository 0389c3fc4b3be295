import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnvironmentView, TeamDatabaseView } from '../../../common/ipc/settings';
import type { AppContextHandle } from '../../../main/app-context';
import { handlers } from '../../../main/ipc/handlers/index';
import { createRouter } from '../../../main/ipc/router';
import { startTestApp } from '../../helpers/app-context';
import { fakePostgres, type FakeServer } from '../../helpers/fake-postgres';
import { startTestServer, type TestServer } from '../../helpers/omni-test-server';
import { APP_URL, callThrough, failure } from '../../helpers/router-calls';

/**
 * The attacks of issue #34, made as a holder of the renderer would (every call through the router): a secret is
 * bound to where it was entered for, and pointing its environment or team database elsewhere sends it nowhere.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'omni-bound-secrets-'));
let app: AppContextHandle;
let router: ReturnType<typeof createRouter>;
const call = <T>(channel: string, input: unknown) => callThrough<T>(router, channel, input);

beforeAll(async () => {
  app = await startTestApp(dataDir);
  router = createRouter({ handlers, context: app.context, appUrl: APP_URL });
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('session tokens are bound to the service origins they were attached for', () => {
  let listener: TestServer;
  beforeAll(async () => {
    // The attacker's listener: accepts every write, as a real service would.
    listener = await startTestServer();
    listener.route('POST /omni/add/conference/notes', () => ({ json: { success: true, sessionStatus: 'Alive' } }));
    listener.route('POST /v1/integration/authorize/server', () => ({ json: { token: 'x' } }));
  });
  afterAll(() => listener.close());

  it('an environment pointed at a listener with made-up credentials: "send notes" sends it no real token', async () => {
    const demo = app.demoUrl()!;
    const creds = (await fetch(`${demo}/__demo/credentials`).then((r) => r.json())) as Record<string, string>;
    const [interview] = (await fetch(`${demo}/__demo/interviews`).then((r) => r.json())) as {
      interviewId: string;
      sessionToken: string;
    }[];
    // An analyst's honest setup: a custom environment at the real service, a token attached to an interview.
    await call('settings.updateEnvironment', { id: 'custom', baseUrl: demo, authUrl: demo });
    for (const field of ['apiKey', 'integrationId', 'secret'])
      await call('settings.setCredential', { environmentId: 'custom', field, value: creds[field] });
    await call('settings.setActiveEnvironment', { id: 'custom' });
    await call('queue.add', {
      items: [{ interviewId: interview!.interviewId, sessionToken: interview!.sessionToken }],
    });

    // The attack: the address to the listener, made-up credentials, then "send notes".
    const moved = await call<EnvironmentView>('settings.updateEnvironment', {
      id: 'custom',
      baseUrl: listener.url,
      authUrl: listener.url,
    });
    expect(moved.credentialsCleared).toBe(true);
    expect(moved.sessionTokensCleared).toBe(1);
    for (const field of ['apiKey', 'integrationId', 'secret'])
      await call('settings.setCredential', { environmentId: 'custom', field, value: `made-up-${field}` });
    await call('interview.saveDraft', { interviewId: interview!.interviewId, kind: 'notes', text: 'hello' });
    const refused = await failure(call('interview.sendNotes', { interviewId: interview!.interviewId }));
    expect(refused.code).toMatch(/NO_SESSION_TOKEN/);

    const seen = JSON.stringify(listener.requests);
    expect(seen).not.toContain(interview!.sessionToken);
    for (const value of Object.values(creds)) expect(seen).not.toContain(value);

    // Back at the real address the token is gone too: it was dropped, not hidden, and must be attached again.
    await call('settings.updateEnvironment', { id: 'custom', baseUrl: demo, authUrl: demo });
    const list = await call<{ interviewId: string; hasSessionToken: boolean }[]>('queue.list', {});
    expect(list.find((e) => e.interviewId === interview!.interviewId)?.hasSessionToken).toBe(false);
    await call('settings.setActiveEnvironment', { id: 'demo' });
  });
});

const PEM_A = '-----BEGIN CERTIFICATE-----\nMIIBaaaa\n-----END CERTIFICATE-----';
const PASSWORD = 'the-real-team-password-42';

describe('the team database password is bound to host, port, database, user, TLS mode and CA', () => {
  let pg: FakeServer;
  beforeAll(async () => {
    // Asked with TLS off, it never sees an SSLRequest: the startup and password come in clear.
    pg = await fakePostgres({ ssl: 'N' });
  });
  afterAll(() => pg.close());

  const target = () => ({ host: '127.0.0.1', port: pg.port, database: 'team', user: 'ana', tls: 'disable' as const });
  const changes: [string, () => Record<string, unknown>, Record<string, unknown>][] = [
    ['host', () => ({ ...target(), host: 'localhost' }), {}],
    ['port', () => ({ ...target(), port: pg.port + 1 }), {}],
    ['database', () => ({ ...target(), database: 'other' }), {}],
    ['user', () => ({ ...target(), user: 'beto' }), {}],
    ['TLS mode', () => ({ ...target(), tls: 'verify-full' }), {}],
    ['CA', () => ({ ...target(), ca: PEM_A }), { removeCa: true }],
  ];

  it.each(changes)(
    'saved for another %s, it is not sent: the fake server asking for it in clear gets none',
    async (_what, original, extra) => {
      await call('settings.saveTeamDatabase', { config: original(), password: PASSWORD });
      expect((await call<TeamDatabaseView>('settings.teamDatabase', {})).passwordSet).toBe(true);
      const before = pg.afterStartup.length;

      const saved = await call<TeamDatabaseView>('settings.saveTeamDatabase', { config: target(), ...extra });
      expect(saved.passwordSet).toBe(false);
      expect(saved.passwordCleared).toBe(true);
      expect(saved.config?.caSet).toBe(false);
      const refused = await failure(call('settings.testTeamDatabase', {}));
      expect(refused.code).toBe('TEAM_DATABASE_PASSWORD_NEEDED');
      expect(refused.advice?.es).toMatch(/contraseña/);
      const sent = Buffer.concat(pg.afterStartup.slice(before));
      expect(sent.includes(Buffer.from(PASSWORD))).toBe(false);
      // No PasswordMessage ('p') at all: the client closed instead.
      expect(sent[0]).not.toBe(0x70);
    },
  );

  it('typed again for the new address, it is sent there (and only a save with it binds it)', async () => {
    await call('settings.saveTeamDatabase', { config: target(), password: PASSWORD });
    const before = pg.afterStartup.length;
    await failure(call('settings.testTeamDatabase', {}));
    expect(Buffer.concat(pg.afterStartup.slice(before)).includes(Buffer.from(PASSWORD))).toBe(true);
  });
});

describe('a new address saved with its password', () => {
  it('keeps only the new one and does not say a password is missing', async () => {
    const config = { host: '127.0.0.1', port: 5999, database: 'team', user: 'ana', tls: 'disable' as const };
    await call('settings.saveTeamDatabase', { config, password: 'first-password' });
    const saved = await call<TeamDatabaseView>('settings.saveTeamDatabase', {
      config: { ...config, port: 6000 },
      password: 'second-password',
    });
    expect(saved.passwordSet).toBe(true);
    expect(saved.passwordCleared).toBeUndefined();
    expect(app.context.secrets.knownSecrets()).not.toContain('first-password');
  });
});
