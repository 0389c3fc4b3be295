import { _electron as electron, expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { electronBinary } from '../../scripts/electron-binary.mjs';

/**
 * The real Electron app, where its binary exists (not on machines that install with ELECTRON_SKIP_BINARY_DOWNLOAD).
 * Elsewhere this test is reported as skipped with the reason, never as passed.
 */
const binary = electronBinary();

test.describe('Electron app', () => {
  test.skip(!binary.path, `Electron test skipped: ${binary.reason ?? ''}`);

  test('opens on the demo environment and walks the Settings screen', async () => {
    execFileSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build'], { stdio: 'inherit' });
    const userData = await mkdtemp(join(tmpdir(), 'omni-electron-'));
    const app = await electron.launch({
      executablePath: binary.path!,
      args: ['out/main/index.js', `--user-data-dir=${userData}`],
      env: { ...process.env, ELECTRON_ENABLE_LOGGING: '0' },
    });
    try {
      const page = await app.firstWindow();
      await expect(page).toHaveURL(/^app:\/\/omni\/index\.html#\/interviews/);
      await expect(page.getByTestId('active-environment')).toHaveText(/Demo/);
      // The page gets window.omni and nothing of Node or Electron.
      expect(
        await page.evaluate(() => [
          typeof (window as unknown as { require?: unknown }).require,
          typeof (window as unknown as { process?: unknown }).process,
        ]),
      ).toEqual(['undefined', 'undefined']);
      await page
        .getByRole('navigation')
        .getByRole('link', { name: /^Settings/ })
        .click();
      await page.getByRole('button', { name: 'Test connection' }).click();
      await expect(page.getByTestId('connection-ok')).toContainText('Connected.');
      // Anything outside the app stays out: navigation to another origin is refused.
      await page.evaluate(() => window.location.assign('https://example.com/'));
      await expect(page).toHaveURL(/^app:\/\/omni\//);
    } finally {
      await app.close();
    }
  });
});
