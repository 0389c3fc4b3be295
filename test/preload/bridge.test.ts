import { describe, expect, it, vi } from 'vitest';
import { buildOmniApi, OmniIpcError, plainIpcError } from '../../preload/bridge';
import { contract } from '../../common/ipc/index';
import { ipcErrorOf } from '../../renderer/api/errors';

const error = { code: 'NO_CREDENTIALS', message: { en: 'No key', es: 'Sin clave' }, retryable: false };

describe('preload bridge', () => {
  it('exposes one function per contract channel and nothing else, frozen', () => {
    const api = buildOmniApi(async () => ({ ok: true, data: null })) as unknown as Record<
      string,
      Record<string, unknown>
    >;
    expect(Object.keys(api).sort()).toEqual(Object.keys(contract).sort());
    for (const [domain, methods] of Object.entries(contract)) {
      expect(Object.keys(api[domain]!).sort()).toEqual(Object.keys(methods).sort());
      expect(Object.values(api[domain]!).every((f) => typeof f === 'function')).toBe(true);
    }
    expect(Object.isFrozen(api)).toBe(true);
    expect('invoke' in api).toBe(false);
  });

  it('sends `<domain>.<method>` with the input and resolves with the data', async () => {
    const invoke = vi.fn(async () => ({ ok: true as const, data: { version: '1' } }));
    const api = buildOmniApi(invoke);
    await expect(api.app.info({})).resolves.toEqual({ version: '1' });
    expect(invoke).toHaveBeenCalledWith('app.info', {});
  });

  it('rejects with an OmniIpcError carrying the bilingual error data', async () => {
    const api = buildOmniApi(async () => ({ ok: false, error }));
    const failure = await api.app.info({}).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OmniIpcError);
    expect((failure as OmniIpcError).data).toEqual(error);
    expect(ipcErrorOf(failure)).toEqual(error);
  });

  it('a transport failure becomes a retryable IPC_TRANSPORT error, not a raw exception', async () => {
    const api = buildOmniApi(async () => {
      throw new TypeError('Failed to fetch');
    });
    const failure = await api.app.info({}).catch((e: unknown) => e);
    expect(ipcErrorOf(failure)).toMatchObject({ code: 'IPC_TRANSPORT', retryable: true });
  });

  it('across contextBridge the rejection is a plain object the renderer still reads', async () => {
    const api = buildOmniApi(async () => ({ ok: false, error }), { reject: plainIpcError });
    const failure = await api.app.info({}).catch((e: unknown) => e);
    expect(failure).not.toBeInstanceOf(Error);
    expect(structuredClone(failure)).toEqual({ name: 'OmniIpcError', message: 'No key', data: error });
    expect(ipcErrorOf(structuredClone(failure))).toEqual(error);
  });

  it('ipcErrorOf turns anything unknown into a generic renderer error', () => {
    expect(ipcErrorOf(new Error('boom'))).toMatchObject({ code: 'RENDERER' });
    expect(ipcErrorOf({ data: { code: 1 } })).toMatchObject({ code: 'RENDERER' });
  });
});
