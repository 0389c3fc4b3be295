import { axeOf } from './axe';
import type { Page } from '@playwright/test';
import { expect, type ShellFixture } from './fixtures';

/** Outside Playwright's output folder, which is emptied at the start of every run. */
export const SHOTS = 'out/screens/review';

/** Adds every seeded demo interview to the queue through the app's own IPC, then opens one in the workspace. */
export async function openInterview(page: Page, shell: ShellFixture, interviewId: string) {
  await shell.ipc('queue.addDemoSeeds', {});
  await goTo(page, `/interviews/${interviewId}`);
  await expect(page.getByTestId('interview-id')).toHaveText(interviewId);
}

/** The app uses a hash router; the launch key already sits in the tab's session storage. */
export async function goTo(page: Page, path: string) {
  await page.evaluate((p) => {
    window.location.hash = `#${p}`;
  }, path);
}

/** Every panel of the workspace left loading (no skeleton, nothing busy). */
export async function panelsSettled(page: Page) {
  await expect(page.locator('.workspace .panel[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
  await expect(page.locator('.workspace .skeleton')).toHaveCount(0);
}

export async function expectAxeClean(page: Page) {
  const result = await axeOf(page).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** The workspace's video element as the browser plays it. */
export const videoState = (page: Page) =>
  page
    .locator('[data-testid="video-player"] video')
    .evaluate((v: HTMLVideoElement) => ({ time: v.currentTime, paused: v.paused, src: v.currentSrc }));
