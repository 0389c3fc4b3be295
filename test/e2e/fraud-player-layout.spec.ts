import type { Page } from '@playwright/test';
import { expect, openApp, testOpeningTheApp } from './fixtures';
import { SHOTS, goTo, panelsSettled } from './review-helpers';

/**
 * UX review of the fraud risk panel and the video player: the score rounded for reading with the exact value kept
 * (title, screen readers, `data-value`); the vendor's signals in its own words, codes in small print; the player's
 * controls never left under the sticky decision bar when Tab reaches them, and one compact row each at 1024 px.
 */

type FraudRiskRaw = { result: number; topNFraudCodes: string[]; topNFraudFeatures: string[] };

async function openFraudHigh(page: Page, shell: Parameters<typeof openApp>[1], language: 'en' | 'es') {
  await shell.ipc('settings.setPreferences', { language });
  await shell.ipc('queue.addDemoSeeds', {});
  await openApp(page, shell);
  await goTo(page, '/interviews/demo-fraud-high');
  await expect(page.getByTestId('interview-id')).toHaveText('demo-fraud-high');
  await panelsSettled(page);
}

for (const language of ['en', 'es'] as const)
  testOpeningTheApp(
    `fraud risk, ${language}: the score rounded to two decimals, the exact value in its title and read out; signals in the service's words`,
    async ({ page, shell }) => {
      await openFraudHigh(page, shell, language);
      const raw = await shell.ipc<{ data: { result: { fraudRisk: FraudRiskRaw } } }>('interview.rawIdv', {
        interviewId: 'demo-fraud-high',
      });
      const risk = raw.data.result.fraudRisk;
      const exact = String(risk.result);
      // The demo's score has many digits: rounding has something to do.
      expect(exact.length).toBeGreaterThan(6);
      const rounded = new Intl.NumberFormat(language === 'es' ? 'es-MX' : 'en-US', {
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      }).format(risk.result);
      const fraud = page.getByTestId('fraud-risk');
      const score = fraud.getByTestId('fraud-score');
      await expect(score).toHaveText(rounded);
      await expect(score).toHaveAttribute('data-value', exact);
      const exactWords = `${language === 'es' ? 'Valor exacto' : 'Exact value'}: ${exact}`;
      await expect(score).toHaveAttribute('title', exactWords);
      // Screen readers hear the exact value after the rounded one.
      await expect(fraud.locator('dd.fraud-score')).toHaveText(`${rounded} (${exactWords})`);
      await expect(fraud.locator('.visually-hidden', { hasText: exact })).toHaveCount(1);

      // Said once above the lists; each row the service's text first, its code under it, no meaning made up.
      await expect(fraud.locator('.feature-note')).toHaveCount(1);
      await expect(fraud.locator('.feature-note')).toContainText(
        language === 'es' ? 'palabras del servicio' : 'service',
      );
      const headers = fraud.locator('.feature-lists th');
      await expect(headers.first()).toHaveText(language === 'es' ? 'Señal' : 'Feature');
      // A short header: one line.
      for (const box of await headers.evaluateAll((ths) => ths.map((th) => th.getBoundingClientRect().height)))
        expect(box).toBeLessThan(40);
      const row = fraud.locator('tr', { hasText: risk.topNFraudCodes[0]! });
      await expect(row.locator('.feature-text')).toHaveText(risk.topNFraudFeatures[0]!);
      await expect(row.locator('.feature-code.mono')).toContainText(risk.topNFraudCodes[0]!);
      await fraud.scrollIntoViewIfNeeded();
      await fraud.screenshot({ path: `${SHOTS}/fraud-risk-${language}.png` });
    },
  );

/** The focused element's box, the decision bar's, and whether the focused element is what shows at its centre. */
const focusedAgainstBar = (page: Page) =>
  page.evaluate(() => {
    const focused = document.activeElement as HTMLElement;
    const box = focused.getBoundingClientRect();
    const bar = document.querySelector('.decision-bar')!.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    // A radio of the speed's group is drawn by its label.
    const face = focused.closest('label') ?? focused;
    return {
      name: focused.getAttribute('aria-label') || focused.textContent?.trim() || (focused as HTMLInputElement).value,
      inPlayer: focused.closest('[data-testid="video-player"]') !== null,
      top: box.top,
      bottom: box.bottom,
      barTop: bar.top,
      barBottom: bar.bottom,
      shown: hit !== null && face.contains(hit),
    };
  });

/** Tab from the last control above the player through all of its own: each must show above the decision bar. */
async function tabThroughPlayer(page: Page, language: 'en' | 'es', shot: string) {
  await expect(page.getByTestId('video-time')).toContainText('0:04');
  // From the workspace's top, as the analyst opens it: the last control before the player, then Tab on.
  await page.locator('.content').evaluate((c) => c.scrollTo(0, 0));
  await page.getByRole('button', { name: language === 'es' ? 'Actualizar todo' : 'Refresh all' }).focus();
  const seen: string[] = [];
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('Tab');
    const at = await focusedAgainstBar(page);
    if (!at.inPlayer) {
      if (seen.length > 0) break;
      continue;
    }
    seen.push(at.name);
    expect(at.shown, `${at.name} is drawn at its centre, not covered`).toBe(true);
    expect(at.bottom, `${at.name} ends above the decision bar`).toBeLessThanOrEqual(at.barTop);
    expect(at.top, `${at.name} starts in the window`).toBeGreaterThanOrEqual(0);
    // The last of the player's controls, the one the bar covered at 1280×800.
    if (/Snapshot|Foto del cuadro/.test(at.name)) await page.screenshot({ path: `${SHOTS}/${shot}.png` });
  }
  // Play, −5 s, the frame steps, +5 s, the position, the speed, full screen, snapshot.
  expect(seen.length).toBeGreaterThanOrEqual(9);
}

for (const language of ['en', 'es'] as const)
  for (const [width, height] of [
    [1280, 800],
    [1024, 768],
  ] as const)
    testOpeningTheApp(
      `video controls, ${language} at ${width}×${height}: Tab never leaves one under the sticky decision bar`,
      async ({ page, shell }) => {
        await page.setViewportSize({ width, height });
        await openFraudHigh(page, shell, language);
        await tabThroughPlayer(page, language, `video-controls-tab-${language}-${width}`);
      },
    );

testOpeningTheApp(
  'video controls at 1280×800 under a decision bar three times as tall (a closed session): Tab still shows each',
  async ({ page, shell }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await shell.ipc('queue.addDemoSeeds', {});
    await openApp(page, shell);
    await goTo(page, '/interviews/demo-closed');
    await expect(page.getByTestId('interview-id')).toHaveText('demo-closed');
    await panelsSettled(page);
    await expect(page.locator('.decision-bar .decision-blocked')).toBeVisible();
    await tabThroughPlayer(page, 'en', 'video-controls-tab-closed-1280');
  },
);

for (const language of ['en', 'es'] as const)
  testOpeningTheApp(
    `video controls, ${language} at 1024 px: the transport on one row, the speed on one row`,
    async ({ page, shell }) => {
      await page.setViewportSize({ width: 1024, height: 768 });
      await openFraudHigh(page, shell, language);
      const player = page.getByTestId('video-player');
      const rowsOf = (selector: string) =>
        player
          .locator(selector)
          .evaluateAll((els) => new Set(els.map((el) => Math.round(el.getBoundingClientRect().top))).size);
      expect(await rowsOf('.player-steps .btn')).toBe(1);
      expect(await rowsOf('.player-options .segmented-option')).toBe(1);
      // The speed's label is still its name for screen readers; the field (label and options) takes one row.
      const speed = page.getByRole('radiogroup', { name: language === 'es' ? 'Velocidad' : 'Speed' });
      await expect(speed.getByRole('radio')).toHaveCount(7);
      const field = await player.getByTestId('video-speed').boundingBox();
      const option = await player.locator('.player-options .segmented-option').first().boundingBox();
      expect(field!.height).toBeLessThan(option!.height * 1.5);
    },
  );
