import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { createServer, type ViteDevServer } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The UI kit's long-task notification (ux.md: finishing long work in the background raises an OS notification),
 * on a harness page that renders the real ProgressBar. The Notification API and the window's background state are
 * replaced by recorders, so the test sees exactly what the app asked for.
 */

// One worker for the file's four short tests, so one dev server: spread over both workers (fullyParallel), each
// started its own worker and Vite server, for tests of two seconds each.
test.describe.configure({ mode: 'default' });

let server: ViteDevServer;
let origin: string;

test.beforeAll(async () => {
  server = await createServer({
    configFile: false,
    root: fileURLToPath(new URL('./shell-long-task', import.meta.url)),
    plugins: [react()],
    server: { host: '127.0.0.1', port: 0, hmr: false },
    logLevel: 'error',
  });
  await server.listen();
  const address = server.httpServer!.address() as { port: number };
  origin = `http://127.0.0.1:${address.port}`;
});

test.afterAll(async () => {
  await server?.close();
});

interface Recorded {
  asked: number;
  shown: { title: string; body: string; lang?: string }[];
}

const pageErrors = new WeakMap<Page, string[]>();

test.afterEach(({ page }) => {
  expect(pageErrors.get(page) ?? []).toEqual([]);
});

async function open(page: Page, opts: { lang?: 'es'; permission: NotificationPermission }) {
  if (!pageErrors.has(page)) {
    const errors: string[] = [];
    pageErrors.set(page, errors);
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  }
  await page.addInitScript(
    ({ permission }) => {
      const log = { asked: 0, shown: [] as { title: string; body: string; lang?: string }[] };
      class RecordingNotification {
        static get permission() {
          return permission;
        }
        static async requestPermission() {
          log.asked += 1;
          return permission;
        }
        onclick: (() => void) | null = null;
        constructor(title: string, options: { body: string; lang?: string }) {
          log.shown.push({ title, body: options.body, ...(options.lang ? { lang: options.lang } : {}) });
        }
        close() {}
      }
      let background = false;
      Object.defineProperty(window, 'Notification', { value: RecordingNotification, configurable: true });
      Object.defineProperty(document, 'hidden', { get: () => background, configurable: true });
      document.hasFocus = () => !background;
      Object.assign(window, { __notifications: log, __setBackground: (b: boolean) => (background = b) });
    },
    { permission: opts.permission },
  );
  await page.goto(`${origin}/index.html${opts.lang ? `?lang=${opts.lang}` : ''}`);
  await expect(page.getByRole('button', { name: 'start' })).toBeVisible();
}

const recorded = (page: Page) =>
  page.evaluate(() => (window as unknown as { __notifications: Recorded }).__notifications);
const setBackground = (page: Page, background: boolean) =>
  page.evaluate((b) => (window as unknown as { __setBackground: (b: boolean) => void }).__setBackground(b), background);

test('asks for permission on the first long task, not at startup, and only once', async ({ page }) => {
  await open(page, { permission: 'default' });
  expect((await recorded(page)).asked).toBe(0);
  await page.getByRole('button', { name: 'start' }).click();
  await expect(page.getByRole('progressbar', { name: 'Uploading video' })).toBeVisible();
  await expect.poll(async () => (await recorded(page)).asked).toBe(1);
  // The user dismissed the prompt (still "default"): the next long task does not ask again.
  await page.getByRole('button', { name: 'remove' }).click();
  await page.getByRole('button', { name: 'start' }).click();
  await expect(page.getByRole('progressbar', { name: 'Uploading video' })).toBeVisible();
  expect((await recorded(page)).asked).toBe(1);
});

test('work that finishes in the background notifies with the task and its outcome, in English', async ({ page }) => {
  await open(page, { permission: 'granted' });
  await page.getByRole('button', { name: 'start' }).click();
  await setBackground(page, true);
  await page.getByRole('button', { name: 'done' }).click();
  await expect
    .poll(async () => (await recorded(page)).shown)
    .toEqual([{ title: 'Omni Reviewer', body: 'Video import: finished.', lang: 'en' }]);
  await expect(page.getByRole('progressbar', { name: 'Uploading video' })).toHaveAttribute(
    'aria-valuetext',
    /Finished/,
  );
  await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/shell-long-task-done-en.png' });
});

test('a failure in the background notifies in Spanish; cancelling never does', async ({ page }) => {
  await open(page, { lang: 'es', permission: 'granted' });
  await page.getByRole('button', { name: 'start' }).click();
  await setBackground(page, true);
  await page.getByRole('button', { name: 'cancelled' }).click();
  await expect(page.getByText('Cancelado', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'failed' }).click();
  await expect
    .poll(async () => (await recorded(page)).shown)
    .toEqual([
      {
        title: 'Omni Reviewer',
        body: 'Importación de video: falló. Abre Omni Reviewer para ver qué pasó y reintentar.',
        lang: 'es-MX',
      },
    ]);
  await expect(page.getByText('Falló', { exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/shell-long-task-failed-es.png' });
});

test('work that finishes while the user is looking, or without permission, shows no notification', async ({ page }) => {
  await open(page, { permission: 'granted' });
  await page.getByRole('button', { name: 'start' }).click();
  await page.getByRole('button', { name: 'done' }).click();
  await expect(page.getByText('Finished', { exact: true })).toBeVisible();
  expect((await recorded(page)).shown).toEqual([]);

  await open(page, { permission: 'denied' });
  await page.getByRole('button', { name: 'start' }).click();
  await setBackground(page, true);
  await page.getByRole('button', { name: 'failed' }).click();
  await expect(page.getByText('Failed', { exact: true })).toBeVisible();
  expect((await recorded(page)).shown).toEqual([]);
  expect((await recorded(page)).asked).toBe(0);
});
