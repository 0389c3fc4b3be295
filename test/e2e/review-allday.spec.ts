import type { Locator, Page } from '@playwright/test';
import { expect, test, openApp, testOpeningTheApp } from './fixtures';
import { englishOnlyPatterns } from './english-catalog';
import { goTo, openInterview, panelsSettled, videoState } from './review-helpers';

/** Issue #28: the review screens as an analyst who lives in them all day. */

async function recordDecision(page: Page, button: string, reason: string) {
  await page.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Reason (required)').fill(reason);
  await dialog.getByRole('button', { name: 'Record decision' }).click();
  await expect(dialog.getByTestId('decision-recorded')).toBeVisible();
  return dialog;
}

test('the decision dialog starts on the reason, and a screen change draws no frame round the screen', async ({
  page,
  shell,
}) => {
  await openInterview(page, shell, 'demo-clean-pass');
  await panelsSettled(page);
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page.getByRole('dialog').getByLabel('Reason (required)')).toBeFocused();
  await page.keyboard.press('Escape');

  // A change of screen by keyboard moves focus to the content: it may not draw the focus ring round all of it.
  await page.locator('body').press('g');
  await page.keyboard.press('s');
  await expect(page).toHaveURL(/#\/signing/);
  await expect(page.locator('main#main')).toBeFocused();
  expect(await page.locator('main#main').evaluate((m) => getComputedStyle(m).outlineStyle)).toBe('none');
});

test('after a decision the next interview is one key away, and a second decision asks first', async ({
  page,
  shell,
}) => {
  await openInterview(page, shell, 'demo-clean-pass');
  await panelsSettled(page);
  const dialog = await recordDecision(page, 'Approve', 'Everything matches the ID.');
  // Focus waits on "Next interview": Enter goes on.
  const next = dialog.getByRole('button', { name: 'Next interview' });
  await expect(next).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('interview-id')).not.toHaveText('demo-clean-pass');
  await expect(page.getByTestId('moved-on')).toContainText('demo-clean-pass');

  // Back on the decided one: Reject does not go out without a word.
  await goTo(page, '/interviews/demo-clean-pass');
  await expect(page.getByTestId('last-decision')).toContainText('Approve');
  await page.getByRole('button', { name: 'Reject', exact: true }).click();
  const ask = page.getByRole('dialog');
  await expect(ask.getByTestId('already-decided')).toContainText('already decided');
  // The safe choice has the focus (test/e2e/keyboard.spec.ts: Enter keeps the decision).
  await expect(ask.getByRole('button', { name: 'Keep the decision' })).toBeFocused();
  await ask.getByRole('button', { name: 'Keep the decision' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const overview = await shell.ipc<{ lastDecision: { decision: string } }>('interview.overview', {
    interviewId: 'demo-clean-pass',
  });
  expect(overview.lastDecision.decision).toBe('approve');

  await page.getByRole('button', { name: 'Reject', exact: true }).click();
  await page.getByRole('button', { name: 'Change the decision' }).click();
  await expect(page.getByRole('dialog').getByLabel('Reason (required)')).toBeFocused();
  await page.keyboard.type('Second look: the selfie is a photo of a screen.');
  await page.getByRole('dialog').getByRole('button', { name: 'Record decision' }).click();
  await expect(page.getByRole('dialog').getByTestId('decision-recorded')).toContainText('Reject');
});

test('with "open the next interview at once" on, a decision goes on by itself', async ({ page, shell }) => {
  await openInterview(page, shell, 'demo-clean-pass');
  await panelsSettled(page);
  const dialog = await recordDecision(page, 'Request new capture', 'The selfie is blurred.');
  await dialog.getByTestId('after-decision-next').check();
  await expect
    .poll(async () => (await shell.ipc<{ afterDecision: string }>('settings.preferences', {})).afterDecision)
    .toBe('next');
  await dialog.getByRole('button', { name: 'Close' }).last().click();

  await page.getByRole('button', { name: 'Reject', exact: true }).click();
  await page.getByRole('button', { name: 'Change the decision' }).click();
  await page.getByRole('dialog').getByLabel('Reason (required)').fill('The new capture never came.');
  await page.getByRole('dialog').getByRole('button', { name: 'Record decision' }).click();
  await expect(page.getByTestId('interview-id')).not.toHaveText('demo-clean-pass');
  await expect(page.getByTestId('moved-on')).toContainText('Reject');

  // The same preference in Settings, where it is turned off again.
  await goTo(page, '/settings');
  await expect(page.getByTestId('settings-after-decision')).toBeChecked();
  await page.getByTestId('settings-after-decision').uncheck();
  await expect
    .poll(async () => (await shell.ipc<{ afterDecision: string }>('settings.preferences', {})).afterDecision)
    .toBe('stay');
});

test('every note, name and decision sent from this app stays listed under the notes box, with who and when', async ({
  page,
  shell,
}) => {
  await openInterview(page, shell, 'demo-clean-pass');
  await panelsSettled(page);
  const history = page.getByTestId('sent-history');
  await expect(history).toContainText('Nothing sent yet');
  await page.getByLabel('Conference notes').fill('ID legible; face matches.');
  await page.getByRole('button', { name: 'Send note' }).click();
  await expect(page.getByTestId('notes-status')).toContainText('Sent');
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Ana María López');
  await page.getByRole('button', { name: 'Send name' }).click();
  await expect(history.getByRole('listitem')).toHaveCount(2);
  await recordDecision(page, 'Approve', 'All checks pass.');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();

  await page.reload();
  await panelsSettled(page);
  const items = page.getByTestId('sent-history').getByRole('listitem');
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText('Decision: Approve');
  await expect(items.nth(0)).toContainText('All checks pass.');
  await expect(items.nth(1)).toContainText('Ana María López');
  await expect(items.nth(2)).toContainText('ID legible; face matches.');
  // Who sent it: the OS account main runs under.
  const who = (
    await shell.ipc<{ entries: { action: string; detail: { by?: string } }[] }>('interview.audit', {
      interviewId: 'demo-clean-pass',
    })
  ).entries.find((e) => e.action === 'noted')?.detail.by;
  expect(who).toBeTruthy();
  await expect(items.nth(2)).toContainText(`by ${who}`);
});

test('video keys work with focus anywhere in the workspace, the ? sheet lists them and Enter, Approve is two Tabs away', async ({
  page,
  shell,
}) => {
  await openInterview(page, shell, 'demo-clean-pass');
  await panelsSettled(page);
  await expect(page.getByTestId('video-time')).toContainText('0:04');
  // Focus on the findings (a click on text lands on the content), not on the player.
  await page.getByRole('heading', { name: 'Cross-document comparison' }).click();
  await page.keyboard.press('Space');
  await expect.poll(async () => (await videoState(page)).paused).toBe(false);
  await page.keyboard.press('Space');
  await expect.poll(async () => (await videoState(page)).paused).toBe(true);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => (await videoState(page)).time).toBeLessThan(0.1);
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await videoState(page)).time).toBeGreaterThan(3.9);
  // A button keeps its own Space: the player does not take it. Refresh all is disabled while a read of the interview
  // runs (the trail's, after each play), and a disabled button takes no focus: Space then went to the player.
  const refresh = page.getByRole('button', { name: 'Refresh all' });
  await expect(refresh).toBeEnabled();
  await refresh.focus();
  await expect(refresh).toBeFocused();
  await page.keyboard.press('Space');
  expect((await videoState(page)).paused).toBe(true);

  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog');
  for (const [key, what] of [
    ['Space', 'Video: play or pause'],
    ['←', 'Video: back 5 seconds'],
    ['→', 'Video: forward 5 seconds'],
    ['d', 'Go to the decision'],
  ] as const)
    await expect(sheet.getByRole('row').filter({ hasText: what })).toContainText(key);
  await page.keyboard.press('Escape');

  // From the top of the interview: Tab, Tab, Enter and the keyboard is on Approve.
  await page.locator('main#main').focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('go-to-decision')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Approve', exact: true })).toBeFocused();

  await goTo(page, '/interviews');
  await page.getByTestId('queue-row').first().waitFor();
  await page.keyboard.press('?');
  await expect(
    page.getByRole('dialog').getByRole('row').filter({ hasText: 'Open the selected interview' }),
  ).toContainText('Enter');
});

/**
 * Words (runs without spaces) of `root` that the layout cut across two lines. In prose (`hyphens: 'break'`) a line
 * may end after a hyphen ("screen-" / "replay"); ids, codes and dates keep theirs whole.
 */
const wordsBrokenIn = (root: Locator, { hyphens = 'keep' }: { hyphens?: 'keep' | 'break' } = {}) =>
  root.evaluate(
    (el, word) => {
      const broken: string[] = [];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        const node = walker.currentNode;
        for (const m of (node.textContent ?? '').matchAll(new RegExp(word, 'g'))) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) broken.push(m[0]);
        }
      }
      return broken;
    },
    hyphens === 'break' ? String.raw`[^\s-]+-*` : String.raw`\S+`,
  );

for (const language of ['en', 'es'] as const)
  for (const width of [1024, 1280])
    testOpeningTheApp(
      `cross-document table and fraud codes (${language}, ${width} px): no word or id cut in two, nothing runs out of the panel, fields in words`,
      async ({ page, shell }) => {
        await shell.ipc('settings.setPreferences', { language });
        await page.setViewportSize({ width, height: 800 });
        await openApp(page, shell);
        for (const id of ['demo-fraud-high', 'demo-no-fraud-risk']) {
          await openInterview(page, shell, id);
          await panelsSettled(page);
          const table = page.getByTestId('crossdoc-table');
          await expect(table).toBeVisible();
          expect(await wordsBrokenIn(table)).toEqual([]);
          const overflow = await table.evaluate(
            (t) => t.getBoundingClientRect().right - t.closest('.panel')!.getBoundingClientRect().right,
          );
          expect(overflow).toBeLessThanOrEqual(0);
          await expect(table).toContainText(language === 'es' ? 'Nombre completo' : 'Full name');
          await expect(table).not.toContainText('fullName');
        }
        // Fraud codes are ids too: "DEVICE_ / REUSE" reads as two codes.
        await openInterview(page, shell, 'demo-fraud-high');
        await panelsSettled(page);
        const fraud = page.getByTestId('fraud-risk');
        await expect(fraud).toContainText('DEVICE_REUSE');
        expect(await wordsBrokenIn(fraud, { hyphens: 'break' })).toEqual([]);
        const overflow = await fraud.evaluate((f) => f.scrollWidth - f.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await goTo(page, '/interviews/demo-no-fraud-risk');
        await panelsSettled(page);
        await expect(page.getByTestId('crossdoc-table')).toContainText(
          language === 'es' ? 'No comparado' : 'Not compared',
        );
        await expect(page.getByTestId('crossdoc-table')).toContainText(language === 'es' ? 'Domicilio' : 'Address');
      },
    );

test('at 1024 px the video stays in view while the analyst reads down to the notes', async ({ page, shell }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await openInterview(page, shell, 'demo-fraud-high');
  await panelsSettled(page);
  await page.getByLabel('Conference notes').scrollIntoViewIfNeeded();
  await expect(page.getByLabel('Conference notes')).toBeInViewport();
  await expect(page.locator('[data-testid="video-player"] video')).toBeInViewport({ ratio: 0.9 });
  await expect(page.getByRole('button', { name: 'Approve', exact: true })).toBeInViewport();
});

/** Visible texts (and the names given to controls) of the page that are English texts of the app's catalog. */
async function englishOnScreen(page: Page, patterns: RegExp[]): Promise<string[]> {
  await expect(page.locator('.skeleton, [aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
  const texts = await page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const parent = walker.currentNode.parentElement;
      const text = walker.currentNode.textContent?.trim();
      if (text && parent && parent.checkVisibility() && !parent.closest('.visually-hidden')) out.push(text);
    }
    for (const el of document.querySelectorAll<HTMLElement>('[aria-label], [title], [placeholder]'))
      if (el.checkVisibility() || el.closest('dialog[open]'))
        for (const a of ['aria-label', 'title', 'placeholder'])
          if (el.getAttribute(a)) out.push(el.getAttribute(a)!.trim());
    return out;
  });
  return [...new Set(texts.filter((text) => patterns.some((p) => p.test(text))))];
}

testOpeningTheApp(
  'es-MX: no English on any screen, the pickers, API-key columns and values, and the same word for one thing',
  async ({ page, shell }) => {
    const patterns = englishOnlyPatterns();
    await shell.ipc('settings.setPreferences', { language: 'es' });
    await shell.ipc('queue.addDemoSeeds', {});
    await openApp(page, shell);
    const seen: Record<string, string[]> = {};
    const scan = async (screen: string) => {
      seen[screen] = await englishOnScreen(page, patterns);
      expect(await page.locator('body').innerText()).not.toMatch(/\bentorno\b/i);
    };

    await goTo(page, '/interviews');
    await expect(page.getByTestId('queue-row').first()).toBeVisible();
    await scan('queue');
    for (const id of ['demo-fraud-high', 'demo-no-fraud-risk', 'demo-clean-pass']) {
      await goTo(page, `/interviews/${id}`);
      await panelsSettled(page);
      await scan(id);
    }
    // "Captura" is the Capture area; the player's button says what it takes.
    await expect(page.getByRole('button', { name: 'Captura', exact: true })).toHaveCount(0);
    await page.getByRole('button', { name: 'Aprobar', exact: true }).click();
    await scan('decision dialog');
    // After the decision: the recorded dialog with its way on, then the question before changing it.
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Motivo (obligatorio)').fill('Todo coincide con la identificación.');
    await dialog.getByRole('button', { name: 'Registrar decisión' }).click();
    await expect(dialog.getByTestId('decision-recorded')).toBeVisible();
    await scan('decision recorded');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.getByRole('button', { name: 'Rechazar', exact: true }).click();
    await expect(page.getByRole('dialog').getByTestId('already-decided')).toBeVisible();
    await scan('change decision question');
    await page.getByRole('dialog').getByRole('button', { name: 'Conservar la decisión' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.locator('main#main').focus();
    await page.keyboard.press('?');
    await scan('shortcut sheet');
    await page.keyboard.press('Escape');

    const seeds = (await (await fetch(`${shell.demoUrl}/__demo/interviews`)).json()) as {
      interviewId: string;
      label: string;
      labelEs?: string;
    }[];
    for (const area of ['/signing', '/validation', '/capture', '/api-keys', '/settings']) {
      await goTo(page, area);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await scan(area);
      if (area === '/capture')
        for (const tab of ['Reverso de segunda identificación', 'Autenticación facial', 'Importar video']) {
          await page.getByRole('tab', { name: tab }).click();
          await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
          await scan(`${area} ${tab}`);
        }
      // The interview pickers name the demo interviews in Spanish.
      for (const option of await page.locator('select option').allTextContents())
        for (const seed of seeds)
          if (seed.labelEs && seed.labelEs !== seed.label) expect(option).not.toContain(`${seed.label} —`);
    }
    await goTo(page, '/api-keys');
    const headers = page.locator('.apikeys-table thead th');
    // Six columns in view, the masked key under the key id and the organization's id under its name.
    await expect(headers).toHaveCount(6);
    await expect(headers.nth(0)).toHaveText('Id de clave · Clave enmascarada');
    await expect(headers.nth(4)).toHaveText('Organización · ID de la organización');
    await expect(headers.nth(5)).toHaveText('Superadmin');
    const superAdmin = await page.getByTestId('apikey-row').locator('td:nth-child(6)').allTextContents();
    expect(new Set(superAdmin)).toEqual(new Set(['Sí', 'No']));

    expect(seen).toEqual(Object.fromEntries(Object.keys(seen).map((k) => [k, []])));
  },
);

test('API keys show all eight attributes in six columns at 1280 px; the PDF opens whole in its viewer; the raw-value bars are readable', async ({
  page,
  shell,
}) => {
  await goTo(page, '/api-keys');
  const box = page.getByTestId('apikeys-scroll');
  await expect(page.getByTestId('apikey-row').first()).toBeVisible();
  const headers = box.locator('thead th');
  await expect(headers).toHaveCount(6);
  // English names and words too, not the raw field names and true/false.
  await expect(headers.nth(4)).toHaveText('Organization · Organization ID');
  await expect(headers.nth(5)).toHaveText('Super admin');
  const superAdmin = await page.getByTestId('apikey-row').locator('td:nth-child(6)').allTextContents();
  expect(new Set(superAdmin)).toEqual(new Set(['Yes', 'No']));
  const boxRect = (await box.boundingBox())!;
  for (const header of await headers.all()) {
    const rect = (await header.boundingBox())!;
    expect(rect.x + rect.width).toBeLessThanOrEqual(boxRect.x + boxRect.width + 1);
  }

  for (const width of [1280, 1024]) {
    await page.setViewportSize({ width, height: 800 });
    await openInterview(page, shell, 'demo-clean-pass');
    await panelsSettled(page);
    await page.getByRole('button', { name: 'Open demo-clean-pass-credito' }).click();
    await expect(page.getByTestId('pdf-page')).toHaveText(/Page 1 of \d+/);
    const canvasBox = page.locator('.pdf-canvas');
    await expect
      .poll(() => canvasBox.evaluate((b) => b.querySelector('canvas')!.getBoundingClientRect().width))
      .toBeGreaterThan(200);
    expect(await canvasBox.evaluate((b) => b.scrollWidth - b.clientWidth)).toBeLessThanOrEqual(0);
    const meter = (await page.getByTestId('checks-table').locator('.meter').first().boundingBox())!;
    expect(meter.width).toBeGreaterThanOrEqual(80);
    expect(meter.height).toBeGreaterThanOrEqual(8);
    await page.getByRole('button', { name: 'Close document' }).click();
  }
});
