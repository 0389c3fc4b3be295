import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests run the web shell (same main-process code as the app) in Debian's Chromium; no browser
 * download. Each test gets its own web shell and demo server on random ports (test/e2e/fixtures.ts).
 */
export default defineConfig<{ recordEngine: 'embedded' | 'team' }>({
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
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'embedded', use: {} },
    // The review journeys the team engine can break (tagged @team), again with the record on a real PostgreSQL
    // server as a team keeps it; the team's own journeys (team-review, team-away) run in the project above.
    { name: 'team', testMatch: 'review-journeys.spec.ts', grep: /@team/, use: { recordEngine: 'team' } },
  ],
});
