import type { Page } from '@playwright/test';

/**
 * Replaces the Notification API (permission granted) and the window's background state with recorders, as
 * shell-long-task.spec.ts does, from the page's next load: a page on the app reloads now, a blank one
 * (`testOpeningTheApp`) gets them when the test opens the app. `shown()`: what the app showed;
 * `background(b)`: puts the window in or out of the background.
 */
export async function recordNotifications(page: Page) {
  await page.addInitScript(() => {
    const shown: { title: string; body: string }[] = [];
    class RecordingNotification {
      static permission = 'granted';
      static requestPermission = async () => 'granted';
      onclick: (() => void) | null = null;
      constructor(title: string, options: { body: string }) {
        shown.push({ title, body: options.body });
      }
      close() {}
    }
    let background = false;
    Object.defineProperty(window, 'Notification', { value: RecordingNotification, configurable: true });
    Object.defineProperty(document, 'hidden', { get: () => background, configurable: true });
    document.hasFocus = () => !background;
    Object.assign(window, { __shown: shown, __setBackground: (b: boolean) => (background = b) });
  });
  if (page.url() !== 'about:blank') await page.reload();
  return {
    shown: () => page.evaluate(() => (window as unknown as { __shown: { title: string; body: string }[] }).__shown),
    background: (b: boolean) =>
      page.evaluate(
        (value) => (window as unknown as { __setBackground: (b: boolean) => void }).__setBackground(value),
        b,
      ),
  };
}
