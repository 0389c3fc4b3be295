import { serviceDestination } from '../../../main/auth/destination';
import { startTestApp } from '../../helpers/app-context';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContextHandle } from '../../../main/app-context';
import { MemoryVault } from '../../../main/auth/memory-vault';
import { settingsService } from '../../../main/settings/service';
import { settings } from '../../../common/ipc/settings';
import { MemoryJsonStore } from '../../helpers/fake-safe-storage';
import { startTestServer, type TestServer } from '../../helpers/omni-test-server';

const dataDir = mkdtempSync(join(tmpdir(), 'omni-hardening-settings-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));
type Creds = Record<'apiKey' | 'integrationId' | 'secret', string>;

describe('settings service: credentials are bound to the addresses they were entered for', () => {
  let app: AppContextHandle;
  let elsewhere: TestServer;
  let demoCreds: Creds;
  beforeAll(async () => {
    app = await startTestApp(dataDir);
    elsewhere = await startTestServer();
    demoCreds = (await fetch(`${app.demoUrl()}/__demo/credentials`).then((r) => r.json())) as Creds;
  });
  afterAll(async () => {
    await elsewhere.close();
    await app.close();
  });

  async function customWithCredentials() {
    const service = settingsService(app.context);
    await service.updateEnvironment('custom', { baseUrl: app.demoUrl()!, authUrl: app.demoUrl()! });
    for (const field of ['apiKey', 'integrationId', 'secret'] as const)
      await service.setCredential('custom', field, demoCreds[field]);
    await expect(service.testConnection('custom')).resolves.toHaveProperty('environmentId', 'custom');
    return service;
  }

  it.each(['baseUrl', 'authUrl'] as const)(
    'a new %s clears the credentials, says so, and sends none of them to the new host',
    async (field) => {
      const service = await customWithCredentials();
      const updated = await service.updateEnvironment('custom', { [field]: elsewhere.url });
      expect(updated.credentialsCleared).toBe(true);
      expect(updated.credentials).toEqual({ apiKey: 'unset', integrationId: 'unset', secret: 'unset' });
      await expect(service.testConnection('custom')).rejects.toBeTruthy();
      const seen = JSON.stringify(elsewhere.requests);
      for (const value of Object.values(demoCreds)) expect(seen).not.toContain(value);
    },
  );

  it('a change that keeps both addresses keeps the credentials', async () => {
    const service = await customWithCredentials();
    const updated = await service.updateEnvironment('custom', {
      baseUrl: app.demoUrl()!,
      name: 'Staging',
      apiVersion: '1.0',
    });
    expect(updated.credentialsCleared).toBeUndefined();
    expect(updated.credentials).toEqual({ apiKey: 'set', integrationId: 'set', secret: 'set' });
  });
});

describe('settings input: addresses and header fields', () => {
  const update = settings.updateEnvironment.input;
  const issuePaths = (input: unknown) => {
    const parsed = update.safeParse(input);
    return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join('.'));
  };

  it.each(['http://omni.example.com', 'http://10.0.0.5:8080/api', 'http://[2001:db8::1]/'])(
    'refuses plain http to a remote host: %s',
    (url) => {
      expect(issuePaths({ id: 'custom', baseUrl: url })).toEqual(['baseUrl']);
      expect(issuePaths({ id: 'custom', authUrl: url })).toEqual(['authUrl']);
    },
  );

  it.each(['https://omni.example.com', 'http://127.0.0.1:4010', 'http://localhost:4010/x', 'http://[::1]:4010'])(
    'accepts https, and http on loopback: %s',
    (url) => {
      expect(issuePaths({ id: 'custom', baseUrl: url, authUrl: url })).toEqual([]);
    },
  );

  it.each(['1.0\r\nX-Injected: 1', '1.0\n', '1.0\u0000'])(
    'refuses an apiVersion with CR, LF or NUL: %j',
    (apiVersion) => {
      expect(issuePaths({ id: 'custom', apiVersion })).toEqual(['apiVersion']);
    },
  );

  it.each(['X-Id\r\n', 'X-Id\nX-Other', 'X-Id\u0000'])(
    'refuses a token header name with CR, LF or NUL: %j',
    (tokenHeader) => {
      expect(issuePaths({ id: 'custom', tokenHeader })).toEqual(['tokenHeader']);
    },
  );

  it('still accepts ordinary values, trimmed', () => {
    expect(update.parse({ id: 'custom', apiVersion: ' 1.0 ', tokenHeader: ' X-Incode-Hardware-Id ' })).toEqual({
      id: 'custom',
      apiVersion: '1.0',
      tokenHeader: 'X-Incode-Hardware-Id',
    });
  });
});

describe('an address saved before https was required', () => {
  it('is not used: calls and the connection test refuse it with a clear error instead of sending the credentials', async () => {
    const store = new MemoryJsonStore();
    store.set('environments', {
      activeId: 'custom',
      overrides: { custom: { baseUrl: 'http://omni.example.com', authUrl: 'http://omni.example.com/auth' } },
    });
    const vault = new MemoryVault();
    for (const field of ['apiKey', 'integrationId', 'secret'] as const)
      await vault.setCredential(
        serviceDestination({
          id: 'custom',
          baseUrl: 'http://omni.example.com',
          authUrl: 'http://omni.example.com/auth',
        }),
        field,
        `${field}-value`,
      );
    const app = await startTestApp(join(dataDir, 'insecure'), { store, vault });
    try {
      await expect(settingsService(app.context).testConnection('custom')).rejects.toMatchObject({
        code: 'INSECURE_ADDRESS',
      });
      expect(() => app.context.omni()).toThrow(expect.objectContaining({ code: 'INSECURE_ADDRESS' }));
    } finally {
      await app.close();
    }
  });
});
