import { axeOf } from './axe';
import type { Locator, Page } from '@playwright/test';
import { AuthErrorName } from '../../common/omni';
import { pngBase64 } from '../helpers/demo-support';
import { recordNotifications } from './notification-recorder';
import { expect, openApp, testOpeningTheApp as test, type ShellFixture } from './fixtures';

const SHOTS = '.tmp/screenshots/capture-tools';
const PHOTO = { name: 'selfie.png', mimeType: 'image/png', buffer: Buffer.from(pngBase64(), 'base64') };
const SMALL_PHOTO = {
  name: 'small.png',
  mimeType: 'image/png',
  buffer: Buffer.from(pngBase64({ width: 120, height: 120 }), 'base64'),
};

async function axeClean(page: Page) {
  const { violations } = await axeOf(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function openCapture(page: Page, shell: ShellFixture) {
  await shell.ipc('queue.addDemoSeeds', {});
  await openApp(page, shell);
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: /^Capture/ })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Capture' })).toBeVisible();
}

const interview = (page: Page) => page.getByLabel('Interview', { exact: true });
const panel = (page: Page) => page.getByRole('tabpanel');

async function upload(page: Page, interviewId: string, button: string, file = PHOTO): Promise<Locator> {
  await interview(page).selectOption(interviewId);
  await panel(page).getByLabel('Photo', { exact: true }).setInputFiles(file);
  await panel(page).getByRole('button', { name: button }).click();
  return panel(page);
}

test('the tabs stay where they are while the interview list is read', async ({ page, shell }) => {
  await shell.ipc('queue.addDemoSeeds', {});
  // The queue's answer held back until the tabs have been measured: a click aimed at a tab while the list arrived
  // landed below it (seen in CI: "Back of second ID" focused, "Selfie" still chosen).
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname.startsWith('/ipc'),
    async (route) => {
      const call = route.request();
      // A call goes alone (/ipc/<channel>) or in a batch (/ipc, the channels in its body).
      if (call.url().endsWith('/ipc/queue.list') || call.postData()?.includes('"queue.list"')) await held;
      await route.continue();
    },
  );
  await openApp(page, shell);
  await page.evaluate(() => (window.location.hash = '#/capture'));
  const tabs = page.getByRole('tablist', { name: 'Capture tools' });
  await expect(interview(page)).toBeDisabled();
  await expect(interview(page)).toHaveText('Reading the review queue…');
  const before = await tabs.boundingBox();
  await page.screenshot({ path: `${SHOTS}/capture-reading-queue.png` });
  release();
  await expect(interview(page)).toBeEnabled();
  await expect(page.getByTestId('token-state')).toContainText('Choose the interview to act on');
  expect(await tabs.boundingBox()).toEqual(before);
  await page.screenshot({ path: `${SHOTS}/capture-queue-read.png` });
});

test('selfie: disabled without a token, file checked before sending, advice per indicator, every 40xx status and attempts', async ({
  page,
  shell,
}) => {
  await shell.ipc('queue.add', { items: [{ interviewId: 'interview-without-token' }] });
  await openCapture(page, shell);
  const tools = panel(page);
  await expect(tools.getByTestId('disabled-reason')).toHaveText('Disabled: choose the interview first.');
  await interview(page).selectOption('interview-without-token');
  await expect(tools.getByTestId('disabled-reason')).toContainText('has no session token');
  await expect(page.getByTestId('token-state')).toContainText('This interview has no session token');

  // A renamed text file is refused from its bytes, before anything is sent.
  await interview(page).selectOption('demo-face-recapture');
  await tools
    .getByLabel('Photo', { exact: true })
    .setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('just some text, not a photo') });
  await expect(tools.getByRole('alert')).toContainText('This file is not a PNG or JPEG photo');
  await expect(tools.getByRole('button', { name: 'Upload selfie' })).toBeDisabled();
  // The picker speaks the app's language (the browser's own control would say "Choose File" whatever the app's).
  await expect(tools.locator('.file-field')).toContainText('Choose another…');
  await expect(tools.locator('.file-field')).toContainText('notes.png · 27 B');

  await upload(page, 'demo-face-recapture', 'Upload selfie');
  const result = tools.getByTestId('selfie-result');
  await expect(result).toContainText('Recapture advised');
  for (const field of ['confidence', 'hasLenses', 'hasFaceMask', 'hasClosedEyes', 'hasHeadCover', 'faceOccluded']) {
    await expect(result.getByTestId(`indicator-${field}`)).toHaveAttribute('data-verdict', 'recapture');
  }
  await expect(result.getByTestId('indicator-isBright')).toContainText('Bright enough.');
  await expect(result.getByTestId('attempts')).toHaveText('The session flow does not limit attempts.');
  await panel(page).screenshot({ path: `${SHOTS}/selfie-recapture.png` });
  await axeClean(page);

  for (const [id, code, text] of [
    ['demo-face-multiple', '4010', 'More than one face'],
    ['demo-face-not-found', '4019', 'No face was found'],
    ['demo-face-low-quality', '4077', 'quality is too low'],
    ['demo-face-occluded', '4078', 'covered or partly hidden'],
  ] as const) {
    await upload(page, id, 'Upload selfie');
    const error = tools.getByTestId('capture-error');
    await expect(error).toContainText(text);
    await expect(error).toContainText(code);
    await expect(error.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  }
  await panel(page).screenshot({ path: `${SHOTS}/selfie-4078.png` });

  // Optional face coordinates: checked against the contract as typed, then sent.
  await tools.locator('summary', { hasText: 'Face coordinates (optional)' }).click();
  const coords = tools.getByRole('textbox', { name: 'Coordinates as JSON' });
  await coords.fill('{"leftEyeX": 1}');
  await expect(tools.getByRole('alert').filter({ hasText: 'These coordinates are not valid' })).toBeVisible();
  await expect(tools.getByRole('button', { name: 'Upload selfie' })).toBeDisabled();
  await coords.fill(
    JSON.stringify({
      leftEyeX: 120,
      leftEyeY: 90,
      rightEyeX: 180,
      rightEyeY: 90,
      rightMouthX: 170,
      rightMouthY: 170,
      noseTipX: 150,
      noseTipY: 130,
      x: 80,
      y: 40,
      width: 160,
      height: 180,
    }),
  );
  await upload(page, 'demo-clean-pass', 'Upload selfie');
  await expect(tools.getByTestId('selfie-result')).toContainText('No recapture needed');

  // An image URL whose domain is not on the service's allow-list is refused with the service's reason.
  await tools.getByRole('radio', { name: 'URL on the allow-list' }).check();
  await tools.getByLabel('Image URL').fill('https://images.example.com/selfie.png');
  await tools.getByRole('button', { name: 'Upload selfie' }).click();
  await expect(tools.getByTestId('capture-error')).toContainText('is not allowed');
  await tools.getByRole('radio', { name: 'File (PNG or JPEG)' }).check();

  await upload(page, 'demo-attempts-limited', 'Upload selfie');
  await expect(tools.getByTestId('attempts')).toHaveText('2 of 3 capture attempts left');
  await upload(page, 'demo-attempts-exhausted', 'Upload selfie');
  await expect(tools.getByTestId('capture-error').getByTestId('attempts')).toContainText(
    'No capture attempts left (3 allowed by the session flow).',
  );
  await upload(page, 'demo-closed', 'Upload selfie');
  await expect(tools.getByTestId('capture-error')).toContainText(/Closed/);
});

test('back of ID: quality against 155, consent and expiry, every failReason, accepted documents, and the refusal rules', async ({
  page,
  shell,
}) => {
  // A round trip per failReason / error name: on a loaded machine this outlasts the default minute.
  test.slow();
  await openCapture(page, shell);
  await page.getByRole('tab', { name: 'Back of second ID' }).click();
  const tools = panel(page);

  await upload(page, 'demo-expired-id', 'Upload back of ID');
  const result = tools.getByTestId('backid-result');
  const refusal = tools.getByTestId('capture-error');
  // The shell's first call: authorization, then the demo server measuring the photo; slow on a loaded machine.
  await expect(result.or(refusal)).toBeVisible({ timeout: 30_000 });
  if (await refusal.isVisible()) throw new Error(`The first back of ID was refused: ${await refusal.innerText()}`);
  await expect(result.getByTestId('indicator-horizontalResolution')).toHaveAttribute('data-verdict', 'ok');
  await expect(result.getByTestId('indicator-isDocumentExpired')).toContainText(
    'This side of the document is expired.',
  );
  await expect(result.getByTestId('indicator-showMandatoryConsent')).toContainText('Show the mandatory consent page');
  await expect(result.getByTestId('indicator-regulationType')).toContainText('MX_LFPDPPP');
  // A year is a year, not "2,021".
  await expect(result.getByTestId('indicator-issueYear').locator('td').first()).toHaveText(/^\d{4}$/);
  for (const field of [
    'correctSharpness',
    'correctGlare',
    'shadowConfidence',
    'classification',
    'readability',
    'typeOfId',
    'issueYear',
    'issueName',
    'countryCode',
    'state',
  ]) {
    await expect(result.getByTestId(`indicator-${field}`)).toBeVisible();
  }
  await panel(page).screenshot({ path: `${SHOTS}/backid-expired.png` });
  await axeClean(page);

  await upload(page, 'demo-clean-pass', 'Upload back of ID', SMALL_PHOTO);
  await expect(result.getByTestId('indicator-horizontalResolution')).toHaveAttribute('data-verdict', 'recapture');
  await expect(result.getByTestId('indicator-horizontalResolution')).toContainText('Below 155');

  const seen = new Set<string>();
  let previous = '';
  for (let i = 0; i < 10; i++) {
    await upload(page, 'demo-id-fail-reasons', 'Upload back of ID');
    const reasonCode = result.getByTestId('fail-reason').locator('.code');
    // The previous answer stays on screen until the new one arrives, so wait for the code to change.
    await expect(reasonCode).toBeVisible();
    if (previous) await expect(reasonCode).not.toHaveText(`Code ${previous}`);
    const code = (await reasonCode.textContent())!.replace('Code ', '');
    previous = code;
    expect(seen.has(code)).toBe(false);
    seen.add(code);
    if (code === 'ID_TYPE_UNACCEPTABLE') {
      await expect(result.getByTestId('accepted-documents')).toContainText('VoterIdentification');
      await panel(page).screenshot({ path: `${SHOTS}/backid-unacceptable.png` });
    }
  }
  expect(seen.size).toBe(10);

  for (const [id, rule] of [
    ['demo-no-front-id', 'The front side must be uploaded first.'],
    ['demo-passport', 'Passports have no back side'],
    ['demo-id-processing-finished', 'Once ID processing finishes'],
  ] as const) {
    await upload(page, id, 'Upload back of ID');
    const applied = tools.getByTestId('backid-rules').locator('li[data-applied]');
    await expect(applied).toHaveCount(1);
    await expect(applied).toContainText(rule);
  }
  await panel(page).screenshot({ path: `${SHOTS}/backid-refused.png` });
});

test('face authentication: one-to-one PASS with the candidate, every error name explained, one-to-N without a hint', async ({
  page,
  shell,
}) => {
  // A round trip per failReason / error name: on a loaded machine this outlasts the default minute.
  test.slow();
  await openCapture(page, shell);
  await page.getByRole('tab', { name: 'Face authentication' }).click();
  const tools = panel(page);
  await expect(tools.getByText(/no interview is needed/)).toBeVisible();
  await tools.getByLabel('Photo', { exact: true }).setInputFiles(PHOTO);
  const hint = tools.getByLabel('Hint (customer id, email or phone)');
  await expect(tools.getByTestId('auth-mode')).toContainText('One-to-N');
  await hint.fill('ana.lopez@demo.mx');
  await expect(tools.getByTestId('auth-mode')).toContainText('One-to-one');
  await tools.getByRole('button', { name: 'Authenticate' }).click();
  const result = tools.getByTestId('auth-result');
  await expect(result).toContainText('PASS');
  await expect(result.getByTestId('candidate')).toHaveText('cust-ana-lopez');
  await panel(page).screenshot({ path: `${SHOTS}/auth-pass.png` });
  await axeClean(page);

  for (const name of AuthErrorName.options) {
    const value =
      name === 'HINT_NOT_PROVIDED'
        ? ''
        : name === 'NONEXISTENT_CUSTOMER'
          ? 'nobody@demo.mx'
          : `${name.toLowerCase().replaceAll('_', '-')}@demo.mx`;
    await hint.fill(value);
    await tools.getByRole('button', { name: 'Authenticate' }).click();
    await expect(result.getByTestId('auth-error')).toContainText(`Code ${name}`);
    await expect(result).toContainText('FAIL');
  }
  await panel(page).screenshot({ path: `${SHOTS}/auth-fail.png` });
});

test('video import: streamed with progress, cancel, and a non-video file refused up front', async ({ page, shell }) => {
  await openCapture(page, shell);
  await page.getByRole('tab', { name: 'Video import' }).click();
  const tools = panel(page);
  await interview(page).selectOption('demo-clean-pass');
  const video = Buffer.alloc(6 * 1024 * 1024, 7);
  video.writeUInt32BE(0x1a45dfa3, 0);

  await tools
    .getByLabel('Video file')
    .setInputFiles({ name: 'notes.webm', mimeType: 'video/webm', buffer: Buffer.from('not a video') });
  await expect(tools.getByRole('alert')).toContainText('not a WebM or MP4 recording');

  await tools.getByLabel('Video file').setInputFiles({ name: 'clip.webm', mimeType: 'video/webm', buffer: video });
  // Recording types read in words, with the service's code kept beside them where it says something else.
  await expect(tools.getByLabel('Recording type').locator('option')).toHaveText([
    'Selfie',
    'Front of ID (frontId)',
    'Back of ID (backId)',
    'Merged',
    'Authentication attempt',
  ]);
  await tools.getByLabel('Recording type').selectOption('frontId');
  await expect(tools.getByLabel('Recording type')).toHaveValue('frontId');
  await shell.demo('faults', { route: 'importVideo', kind: 'delay', delayMs: 1500 });
  await tools.getByRole('button', { name: 'Import video' }).click();
  await expect(tools.getByRole('progressbar')).toBeVisible();
  await panel(page).screenshot({ path: `${SHOTS}/video-progress.png` });
  await axeClean(page);
  await expect(tools.getByTestId('import-done')).toContainText('rec-', { timeout: 20_000 });
  const recordings = (await (await fetch(`${shell.demoUrl}/__demo/interviews/demo-clean-pass/recordings`)).json()) as {
    type: string;
    sizeBytes: number;
  }[];
  expect(recordings).toEqual([expect.objectContaining({ type: 'frontId', sizeBytes: video.length })]);

  await shell.demo('faults', { route: 'importVideo', kind: 'delay', delayMs: 5000 });
  await tools.getByRole('button', { name: 'Import video' }).click();
  await expect(tools.getByText(/Uploading to the service|All bytes sent/)).toBeVisible();
  await tools.getByRole('button', { name: 'Cancel' }).click();
  await expect(tools.getByTestId('import-cancelled')).toBeVisible();
  await panel(page).screenshot({ path: `${SHOTS}/video-cancelled.png` });
});

test('video import finished or failed in the background raises one notification; staging and cancelling none', async ({
  page,
  shell,
}) => {
  await shell.ipc('queue.addDemoSeeds', {});
  const notifications = await recordNotifications(page);
  await openApp(page, shell);
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: /^Capture/ })
    .click();
  await page.getByRole('tab', { name: 'Video import' }).click();
  const tools = panel(page);
  await interview(page).selectOption('demo-clean-pass');
  const video = Buffer.alloc(2 * 1024 * 1024, 7);
  video.writeUInt32BE(0x1a45dfa3, 0);
  await tools.getByLabel('Video file').setInputFiles({ name: 'clip.webm', mimeType: 'video/webm', buffer: video });

  await shell.demo('faults', { route: 'importVideo', kind: 'delay', delayMs: 1500 });
  await tools.getByRole('button', { name: 'Import video' }).click();
  await notifications.background(true);
  await expect(tools.getByTestId('import-done')).toContainText('rec-', { timeout: 20_000 });
  await expect(tools.getByRole('progressbar', { name: 'Uploading to the service' })).toHaveAttribute(
    'aria-valuetext',
    /Finished/,
  );
  await expect
    .poll(notifications.shown)
    .toEqual([{ title: 'Omni Reviewer', body: 'Video import for demo-clean-pass: finished.' }]);
  await panel(page).screenshot({ path: `${SHOTS}/video-done-notified.png` });

  await shell.demo('faults', { route: 'importVideo', kind: 'status', status: 400 });
  await tools.getByRole('button', { name: 'Import video' }).click();
  await expect(tools.getByRole('progressbar', { name: 'Uploading to the service' })).toHaveAttribute(
    'aria-valuetext',
    /Failed/,
    { timeout: 20_000 },
  );
  await expect
    .poll(async () => (await notifications.shown()).map((n) => n.body))
    .toEqual([
      'Video import for demo-clean-pass: finished.',
      expect.stringMatching(/^Video import for demo-clean-pass: failed\./),
    ]);

  await notifications.background(false);
  await shell.demo('faults', { route: 'importVideo', kind: 'delay', delayMs: 5000 });
  await tools.getByRole('button', { name: 'Import video' }).click();
  await expect(tools.getByText(/Uploading to the service|All bytes sent/)).toBeVisible();
  await notifications.background(true);
  await tools.getByRole('button', { name: 'Cancel' }).click();
  await expect(tools.getByTestId('import-cancelled')).toBeVisible();
  expect(await notifications.shown()).toHaveLength(2);
});
