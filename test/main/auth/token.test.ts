import { describe, expect, it } from 'vitest';
import { lifetimeOf, REFRESH_MARGIN_MS, SERVER_TOKEN_TTL_MS, TokenManager } from '../../../main/auth/token';
import { makeJwt } from '../../helpers/omni-test-server';

const MIN = 60_000;

/** A clock the test moves by hand, and an authorizer that counts and can be held open. */
function setup(tokenFor: (n: number, now: number) => string = (n) => `opaque-token-${n}`) {
  let now = 1_000_000;
  let count = 0;
  let gate: Promise<void> | undefined;
  const tm = new TokenManager({
    now: () => now,
    authorize: async () => {
      count++;
      const n = count;
      await (gate ?? Promise.resolve());
      return tokenFor(n, now);
    },
  });
  return {
    tm,
    count: () => count,
    advance: (ms: number) => (now += ms),
    now: () => now,
    hold() {
      let release!: () => void;
      gate = new Promise<void>((r) => (release = r));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

describe('TokenManager', () => {
  it('1,000 concurrent calls with no token cause exactly one authorization', async () => {
    const t = setup();
    const release = t.hold();
    const all = Promise.all(Array.from({ length: 1000 }, () => t.tm.getToken()));
    release();
    const tokens = await all;
    expect(t.count()).toBe(1);
    expect(t.tm.authorizations).toBe(1);
    expect(new Set(tokens)).toEqual(new Set(['opaque-token-1']));
  });

  it('reuses the token for 15 minutes and authorizes again once they pass', async () => {
    const t = setup();
    expect(await t.tm.getToken()).toBe('opaque-token-1');
    expect(t.tm.expiresAt()).toBe(t.now() + SERVER_TOKEN_TTL_MS);
    t.advance(10 * MIN);
    expect(await t.tm.getToken()).toBe('opaque-token-1');
    t.advance(6 * MIN); // 16 minutes after issue
    expect(await t.tm.getToken()).toBe('opaque-token-2');
    expect(t.count()).toBe(2);
  });

  it('refreshes shortly before expiry in the background while the old token is still served', async () => {
    const t = setup();
    await t.tm.getToken();
    t.advance(SERVER_TOKEN_TTL_MS - REFRESH_MARGIN_MS + 1000);
    const release = t.hold();
    expect(await t.tm.getToken()).toBe('opaque-token-1');
    expect(await t.tm.getToken()).toBe('opaque-token-1');
    expect(t.count()).toBe(2); // one refresh started, not one per call
    release();
    await new Promise((r) => setTimeout(r, 0));
    expect(await t.tm.getToken()).toBe('opaque-token-2');
  });

  it('a failing early refresh keeps serving the valid token and does not hammer the authorizer', async () => {
    let now = 0;
    let calls = 0;
    let failing = false;
    const tm = new TokenManager({
      now: () => now,
      authorize: async () => {
        calls++;
        if (failing) throw new Error('auth service down');
        return `token-${calls}`;
      },
    });
    await tm.getToken();
    failing = true;
    now = SERVER_TOKEN_TTL_MS - 30_000;
    for (let i = 0; i < 100; i++) expect(await tm.getToken()).toBe('token-1');
    await new Promise((r) => setTimeout(r, 0));
    for (let i = 0; i < 100; i++) expect(await tm.getToken()).toBe('token-1');
    expect(calls).toBe(2);
    failing = false;
    now += 6_000;
    await tm.getToken();
    await new Promise((r) => setTimeout(r, 0));
    expect(await tm.getToken()).toBe('token-3');
  });

  it("takes the lifetime from the JWT's exp/iat, never beyond 15 minutes", () => {
    const iat = 1_700_000_000;
    expect(lifetimeOf(makeJwt({ iat, exp: iat + 300 }), SERVER_TOKEN_TTL_MS, 0)).toBe(300_000);
    expect(lifetimeOf(makeJwt({ iat, exp: iat + 3600 }), SERVER_TOKEN_TTL_MS, 0)).toBe(SERVER_TOKEN_TTL_MS);
    expect(lifetimeOf(makeJwt({ exp: 2_000 }), SERVER_TOKEN_TTL_MS, 1_500_000)).toBe(500_000);
    expect(lifetimeOf(makeJwt({ exp: 1 }), SERVER_TOKEN_TTL_MS, 1_500_000)).toBe(SERVER_TOKEN_TTL_MS);
    expect(lifetimeOf('not-a-jwt', SERVER_TOKEN_TTL_MS, 0)).toBe(SERVER_TOKEN_TTL_MS);
    expect(lifetimeOf('a.!!!.c', SERVER_TOKEN_TTL_MS, 0)).toBe(SERVER_TOKEN_TTL_MS);
  });

  it('re-authorizes when a short-lived JWT expires', async () => {
    const t = setup((n, now) => makeJwt({ n, iat: Math.floor(now / 1000), exp: Math.floor(now / 1000) + 300 }));
    const first = await t.tm.getToken();
    t.advance(5 * MIN);
    const second = await t.tm.getToken();
    expect(second).not.toBe(first);
    expect(t.count()).toBe(2);
  });

  it('renew after a rejection authorizes once, even when many callers were rejected together', async () => {
    const t = setup();
    const rejected = await t.tm.getToken();
    const renewed = await Promise.all(Array.from({ length: 50 }, () => t.tm.renew(rejected)));
    expect(new Set(renewed)).toEqual(new Set(['opaque-token-2']));
    expect(t.count()).toBe(2);
    // A caller still holding the old token gets the newer one without another authorization.
    expect(await t.tm.renew(rejected)).toBe('opaque-token-2');
    expect(t.count()).toBe(2);
  });

  it('a failed authorization reaches every waiter, and the next call tries again', async () => {
    let fail = true;
    let calls = 0;
    const tm = new TokenManager({
      authorize: async () => {
        calls++;
        if (fail) throw new Error('denied');
        return 'good-token';
      },
    });
    const results = await Promise.allSettled([tm.getToken(), tm.getToken()]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toBe(1);
    fail = false;
    expect(await tm.getToken()).toBe('good-token');
  });

  it('forceRefresh always authorizes and reports the new expiry; invalidate drops the token', async () => {
    const t = setup();
    await t.tm.getToken();
    const { token, expiresAt } = await t.tm.forceRefresh();
    expect(token).toBe('opaque-token-2');
    expect(expiresAt).toBe(t.now() + SERVER_TOKEN_TTL_MS);
    expect(t.tm.knownSecrets()).toEqual(['opaque-token-2']);
    t.tm.invalidate();
    expect(t.tm.expiresAt()).toBeUndefined();
  });
});
