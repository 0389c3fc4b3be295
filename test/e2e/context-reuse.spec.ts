import type { Page } from '@playwright/test';
import { expect, openApp, testOpeningTheApp as test } from './fixtures';

// A worker's journeys share one browser context (reuseContext, playwright.config.ts). The first test leaves behind
// everything a journey could; the second, next in the same worker, must start as on a new context.
test.describe.configure({ mode: 'serial' });

const LEAK_HEADER = 'x-omni-leaked';
let before: { tab: string; notifications: string; geolocation: string } | undefined;

async function tabId(page: Page): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { targetInfo } = await cdp.send('Target.getTargetInfo');
    return targetInfo.targetId;
  } finally {
    await cdp.detach();
  }
}

const FIXED_ORIGIN = 'http://omni-reuse.test/';

async function visitFixedOrigin(page: Page) {
  await page.route(FIXED_ORIGIN, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>fixed origin</title>' }),
  );
  await page.goto(FIXED_ORIGIN);
}

const permission = (page: Page, name: 'notifications' | 'geolocation') =>
  page.evaluate(async (n) => (await navigator.permissions.query({ name: n })).state, name);

test('a journey leaves permissions, storage, a route, an init script, a clock and a header behind', async ({
  page,
  shell,
}) => {
  await openApp(page, shell);
  await expect(page.getByRole('heading', { level: 1, name: 'Review queue' })).toBeVisible();
  before = {
    tab: await tabId(page),
    notifications: await permission(page, 'notifications'),
    geolocation: await permission(page, 'geolocation'),
  };
  const context = page.context();
  await context.grantPermissions(['notifications', 'geolocation']);
  // Storage on an origin the next test visits again (a shell's own origin is new each time).
  await visitFixedOrigin(page);
  await page.evaluate(() => {
    localStorage.setItem('omni-leaked', '1');
    sessionStorage.setItem('omni-leaked', '1');
  });
  await page.addInitScript(() => Object.assign(window, { omniLeaked: true }));
  await context.addInitScript(() => Object.assign(window, { omniLeakedFromContext: true }));
  await page.route('**/*.js', (route) => route.abort());
  await page.clock.install({ time: new Date('2020-01-01T00:00:00Z') });
  // Off the app first: with the network gone it would log its failed calls.
  await page.goto('about:blank');
  await context.setExtraHTTPHeaders({ [LEAK_HEADER]: '1' });
  await context.setGeolocation({ latitude: 19.43, longitude: -99.13 });
  await context.setOffline(true);
  expect(await permission(page, 'notifications')).toBe('granted');
});

test('the next journey in the worker starts on a clean page of the same tab', async ({ page, shell }) => {
  expect(before, 'the first test ran in this worker').toBeDefined();
  expect(page.url()).toBe('about:blank');
  expect(await tabId(page), 'the context was reused (else this file checks nothing)').toBe(before!.tab);
  const headers: Record<string, string>[] = [];
  page.on('request', (request) => headers.push(request.headers()));
  await openApp(page, shell);
  await expect(page.getByRole('heading', { level: 1, name: 'Review queue' })).toBeVisible();
  expect(headers.length).toBeGreaterThan(0);
  expect(headers.filter((h) => LEAK_HEADER in h)).toEqual([]);
  expect(
    await page.evaluate(() => ({
      online: navigator.onLine,
      clockInstalledBefore: new Date().getFullYear() === 2020,
      initScripts: 'omniLeaked' in window || 'omniLeakedFromContext' in window,
    })),
  ).toEqual({ online: true, clockInstalledBefore: false, initScripts: false });
  expect(await permission(page, 'notifications')).toBe(before!.notifications);
  expect(await permission(page, 'geolocation')).toBe(before!.geolocation);
  await visitFixedOrigin(page);
  expect(
    await page.evaluate(() => ({
      local: localStorage.getItem('omni-leaked'),
      session: sessionStorage.getItem('omni-leaked'),
    })),
  ).toEqual({ local: null, session: null });
});
