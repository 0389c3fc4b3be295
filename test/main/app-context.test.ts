import { startTestApp } from '../helpers/app-context';
import { mkdtempSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { captureState } from '../../main/capture/state';
import { type AppContextHandle } from '../../main/app-context';
import { EncryptedVault } from '../../main/auth/encrypted-vault';
import { MemoryVault } from '../../main/auth/memory-vault';
import type { SecretCipher } from '../../main/auth/vault';
import { startDemoServer } from '../../main/demo-server/index';
import { MemoryJsonStore } from '../helpers/fake-safe-storage';

const memoryStore = () => new MemoryJsonStore();

const basicText: SecretCipher = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => 'basic_text',
  encryptString: (s) => Buffer.from(s).reverse(),
  decryptString: (b) => Buffer.from(b).reverse().toString(),
};

const dataDir = mkdtempSync(join(tmpdir(), 'omni-app-context-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));
let contexts = 0;

function build(store = memoryStore(), vault: ConstructorParameters<typeof EncryptedVault>[0] | 'memory' = 'memory') {
  return startTestApp(join(dataDir, `context-${++contexts}`), {
    store,
    vault: vault === 'memory' ? new MemoryVault() : new EncryptedVault(vault, store),
  });
}

describe('app context', () => {
  let app: AppContextHandle;
  const store = memoryStore();
  beforeAll(async () => {
    app = await build(store);
  });
  afterAll(async () => app.close());

  it('first run: demo is active, its service is running and its credentials are in the vault', async () => {
    const { environments, credentials } = app.context;
    expect(environments.active()).toMatchObject({
      id: 'demo',
      kind: 'demo',
      apiVersion: '1.0',
      tokenHeader: 'X-Incode-Hardware-Id',
    });
    expect(environments.active().baseUrl).toBe(app.demoUrl());
    expect(await credentials.states('demo')).toEqual({ apiKey: 'set', integrationId: 'set', secret: 'set' });
    const { expiresAt } = await credentials.testConnection('demo');
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan(14 * 60_000);
  });

  it('production and custom start empty and say so when tested', async () => {
    expect(app.context.environments.list().map((e) => [e.id, e.baseUrl])).toEqual([
      ['demo', app.demoUrl()],
      ['production', ''],
      ['custom', ''],
    ]);
    await expect(app.context.credentials.testConnection('production')).rejects.toMatchObject({ name: 'OmniError' });
  });

  it('custom environment: addresses persist, credentials work, a replaced credential drops the old client', async () => {
    const { environments, credentials } = app.context;
    // A server of its own: the embedded one stops once custom is the active environment.
    const staging = await startDemoServer({ port: 0 });
    onTestFinished(() => staging.close());
    const demo = await fetch(`${staging.url}/__demo/credentials`).then(
      (r) => r.json() as Promise<Record<'apiKey' | 'integrationId' | 'secret', string>>,
    );
    await environments.update('custom', { baseUrl: staging.url, authUrl: staging.url, name: 'Staging' });
    expect(store.get<{ overrides: Record<string, { name: string }> }>('environments')!.overrides.custom!.name).toBe(
      'Staging',
    );
    for (const field of ['apiKey', 'integrationId', 'secret'] as const)
      await credentials.set('custom', field, demo[field]);
    await environments.setActive('custom');
    const first = app.context.omni();
    await expect(first.authorize()).resolves.toHaveProperty('expiresAt');
    expect(app.context.omni()).toBe(first);
    await credentials.set('custom', 'secret', 'wrong-secret');
    expect(app.context.omni()).not.toBe(first);
    await expect(credentials.testConnection('custom')).rejects.toMatchObject({ httpStatus: 401 });
    await credentials.clear('custom', 'secret');
    expect((await credentials.states('custom')).secret).toBe('unset');
    await environments.setActive('demo');
  });

  it('the demo addresses cannot be overridden', async () => {
    await app.context.environments.update('demo', { baseUrl: 'http://evil.example', apiVersion: '2.0' });
    expect(app.context.environments.active()).toMatchObject({ baseUrl: app.demoUrl(), apiVersion: '2.0' });
    await app.context.environments.update('demo', { apiVersion: '1.0' });
  });

  it('audit entries name the active environment', async () => {
    const entry = await app.context.audit.append({ interviewId: 'x', action: 'opened', detail: {} });
    expect(entry.environment).toBe('demo');
  });

  it('reports storage security: memory only, or weak storage awaiting consent until accepted', async () => {
    expect(app.context.credentials.storageSecurity().state).toBe('memory-only');
    const weak = await build(memoryStore(), basicText);
    try {
      expect(weak.context.credentials.storageSecurity()).toMatchObject({
        state: 'weak-pending',
        reason: { en: expect.any(String), es: expect.any(String) },
      });
      await weak.context.credentials.acceptWeakStorage();
      expect(weak.context.credentials.storageSecurity().state).toBe('weak-accepted');
    } finally {
      await weak.close();
    }
  });

  it('closing removes the uploads staged in this run', async () => {
    const other = await build();
    const staged = await captureState(other.context).staged.receive(Readable.from([Buffer.from('clip')]), {
      name: 'clip.mp4',
    });
    expect(await readFile(staged.path, 'utf8')).toBe('clip');
    await other.close();
    await expect(readFile(staged.path)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
