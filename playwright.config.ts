import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests run the web shell (same main-process code as the app) in Debian's Chromium; no browser
 * download. Each test gets its own web shell and demo server on random ports (test/e2e/fixtures.ts).
 */
export default defineConfig({
  testDir: 'test/e2e',
  globalSetup: './test/e2e/global-setup.ts',
  workers: 2,
  fullyParallel: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-results/playwright.json' }]] : 'list',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.OMNI_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    viewport: { width: 1280, height: 820 },
    trace: 'off',
    // A worker's tests share one browser context, reset between them (docs/testing.md, sixth round): each journey's
    // web shell listens on a port of its own, so its page is a new origin with nothing stored, and the page fixture
    // (test/e2e/fixtures.ts) undoes what Playwright's reset leaves (permissions, offline, geolocation, headers). The
    // browser then starts no new context and renderer for each journey: a fifth less CPU (measured on 29 journeys).
    reuseContext: true,
    screenshot: 'only-on-failure',
  },
});
