import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoRoutes } from '../../../main/demo-client/index';
import { startDemoServer, type DemoServer } from '../../../main/demo-server/index';

// Red team 7, finding 5: any web page could POST /__demo/reset (no body, so no content type to refuse) and wipe the
// demo. A browser's request made by another page is refused on every route; main's own calls still work.

const HOST_NOW = 1_800_000_000_000;
const DAY = 86_400_000;

let server: DemoServer;
beforeAll(async () => {
  server = await startDemoServer({ port: 0, now: () => HOST_NOW });
});
afterAll(() => server.close());

/** What the app's main process sends: Node's fetch, with no Origin and no Sec-Fetch-Site. */
async function ownPost(path: string, body?: unknown) {
  const res = await fetch(new URL(path, server.url), {
    method: 'POST',
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as { now?: number } };
}

describe('demo server: requests from another site’s page', () => {
  const foreign: [string, Record<string, string>][] = [
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }],
    ['Sec-Fetch-Site: cross-site, no Origin', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (another loopback port)', { 'sec-fetch-site': 'same-site' }],
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['Origin null', { origin: 'null' }],
    ['another port’s Origin', { origin: 'http://127.0.0.1:1' }],
  ];

  it.each(foreign)('refuses a POST to /__demo/reset with %s, and the demo is unchanged', async (_name, headers) => {
    const before = await ownPost('/__demo/clock', { advanceMs: 10 * DAY });
    expect(before.status).toBe(200);
    const res = await fetch(new URL('/__demo/reset', server.url), { method: 'POST', headers });
    expect(res.status).toBe(403);
    // Not reset: the clock is still ahead where it was.
    const after = await ownPost('/__demo/clock', { advanceMs: 1 });
    expect(after.json.now).toBe(before.json.now! + 1);
  });

  it.each(foreign)('refuses a GET of /__demo/credentials with %s', async (_name, headers) => {
    const res = await fetch(new URL('/__demo/credentials', server.url), { headers });
    expect(res.status).toBe(403);
    expect(await res.text()).not.toMatch(/secret"\s*:\s*"[^"]/);
  });

  it('still answers the app’s own calls, and a page of its own origin or one opened by hand', async () => {
    const routes = demoRoutes(server.url);
    expect(await routes.credentials()).toHaveProperty('secret');
    expect(await routes.interviews()).toBeTruthy();
    const own = new URL(server.url).origin;
    const allowed: Record<string, string>[] = [
      { origin: own, 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
    ];
    for (const headers of allowed)
      expect((await fetch(new URL('/__demo/credentials', server.url), { headers })).status).toBe(200);
    await ownPost('/__demo/clock', { advanceMs: DAY });
    const reset = await ownPost('/__demo/reset');
    expect(reset).toEqual({ status: 200, json: { ok: true, now: HOST_NOW } });
  });
});
