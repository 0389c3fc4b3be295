import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startHost, type Host } from '../../main/web-shell/host';
import { createMediaStore } from '../../main/media/registry';
import { createWebFiles } from '../../main/web-shell/downloads';
import type { Router } from '../../main/ipc/router';
import type { OmniApi } from '../../common/ipc/index';
import { ipcErrorOf } from '../../renderer/api/errors';

/**
 * The web shell's `window.omni` (preload/web.ts) against the real loopback host: calls made in one tick leave in
 * one request and each answer arrives on its own.
 */
const KEY = 'k'.repeat(43);
let host: Host;
let staticDir: string;
const gates = new Map<string, Promise<void>>();
const handle = vi.fn(async (channel: string, input: unknown) => {
  await gates.get(channel);
  return { ok: true as const, data: { channel, input } };
});
const router: Router = { channels: () => [], handle };
const requests: string[] = [];
let fetchOverride: ((path: string) => Response | undefined) | undefined;
const realFetch = globalThis.fetch;

/** Loads preload/web.ts as the page would, with `key` in the address it was opened at. */
async function pageWithKey(key: string): Promise<OmniApi> {
  vi.resetModules();
  const storage = new Map<string, string>();
  const window = {
    location: { hash: `#k=${key}`, pathname: '/', search: '' },
    history: { state: null, replaceState: () => undefined },
    sessionStorage: {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => void storage.set(k, v),
    },
  };
  vi.stubGlobal('window', window);
  // The page's fetch: relative to the host, and with the Origin a browser adds to every POST.
  vi.stubGlobal('fetch', async (path: string, init: RequestInit) => {
    requests.push(path);
    const canned = fetchOverride?.(path);
    if (canned) return canned;
    return realFetch(`${host.origin}${path}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), origin: host.origin },
    });
  });
  await import('../../preload/web');
  return (window as unknown as { omni: OmniApi }).omni;
}
beforeAll(async () => {
  staticDir = await mkdtemp(join(tmpdir(), 'omni-web-preload-'));
  host = await startHost({
    router,
    staticDir,
    media: createMediaStore({ urlFor: (id) => `/media/${id}` }),
    downloads: createWebFiles(KEY),
    key: KEY,
    port: 0,
  });
});

afterAll(async () => {
  vi.unstubAllGlobals();
  await host.close();
  await rm(staticDir, { recursive: true, force: true });
});

beforeEach(() => {
  requests.length = 0;
  gates.clear();
  fetchOverride = undefined;
  handle.mockClear();
});

describe('web shell window.omni: batched calls', () => {
  it('sends the calls of one tick as one request, and each resolves with its own answer', async () => {
    const omni = await pageWithKey(KEY);
    const answers = await Promise.all([
      omni.interview.rawIdv({ interviewId: 'a' }),
      omni.interview.crossDoc({ interviewId: 'a' }),
      omni.interview.contracts({ interviewId: 'a' }),
    ]);
    expect(requests).toEqual(['/ipc']);
    expect(answers).toEqual([
      { channel: 'interview.rawIdv', input: { interviewId: 'a' } },
      { channel: 'interview.crossDoc', input: { interviewId: 'a' } },
      { channel: 'interview.contracts', input: { interviewId: 'a' } },
    ]);
  });

  it('a call made alone goes out alone, on its own route', async () => {
    const omni = await pageWithKey(KEY);
    await expect(omni.app.info({})).resolves.toEqual({ channel: 'app.info', input: {} });
    expect(requests).toEqual(['/ipc/app.info']);
  });

  it('a fast call in a batch resolves while a slow one is still running', async () => {
    const omni = await pageWithKey(KEY);
    let releaseSlow!: () => void;
    gates.set('interview.video', new Promise<void>((r) => (releaseSlow = r)));
    const slow = omni.interview.video({ interviewId: 'a' });
    const fast = omni.interview.drafts({ interviewId: 'a' });
    await expect(fast).resolves.toEqual({ channel: 'interview.drafts', input: { interviewId: 'a' } });
    releaseSlow();
    await expect(slow).resolves.toEqual({ channel: 'interview.video', input: { interviewId: 'a' } });
    expect(requests).toEqual(['/ipc']);
  });

  it('a batch the host refuses (wrong key) fails every call with the host’s reason', async () => {
    const omni = await pageWithKey('x'.repeat(43));
    const failures = await Promise.all([
      omni.interview.rawIdv({ interviewId: 'a' }).then(() => null, ipcErrorOf),
      omni.interview.crossDoc({ interviewId: 'a' }).then(() => null, ipcErrorOf),
    ]);
    expect(failures.map((f) => f?.code)).toEqual(['FORBIDDEN', 'FORBIDDEN']);
    expect(handle).not.toHaveBeenCalled();
  });

  it('calls the host never answered fail as a transport error the user can retry; the answered ones stand', async () => {
    const omni = await pageWithKey(KEY);
    fetchOverride = (path) =>
      path === '/ipc'
        ? new Response(`${JSON.stringify({ i: 1, result: { ok: true, data: 'second' } })}\n`, { status: 200 })
        : undefined;
    const [first, second] = await Promise.all([
      omni.interview.rawIdv({ interviewId: 'a' }).catch(ipcErrorOf),
      omni.interview.crossDoc({ interviewId: 'a' }),
    ]);
    expect(second).toBe('second');
    expect(first).toMatchObject({ code: 'IPC_TRANSPORT', retryable: true });
  });
});
