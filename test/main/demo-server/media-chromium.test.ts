import { existsSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../helpers/demo-support';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);

let h: Harness;
let browser: Browser | undefined;
beforeAll(async () => {
  h = await startHarness();
  if (hasChromium) {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--autoplay-policy=no-user-gesture-required',
      ],
    });
  }
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await h.close();
});

// Runs wherever Debian's Chromium is installed; elsewhere it is reported as skipped, not passed.
describe.skipIf(!hasChromium)('demo server media in Chromium', () => {
  it('plays and seeks the video selfie through its pre-signed URL', async () => {
    const client = await h.client();
    const { url } = await client.call('getVideoSelfieUrl', { query: { interviewId: 'demo-clean-pass' } });
    const page = await browser!.newPage();
    try {
      await page.goto(`${h.server.url}/__demo/credentials`);
      const result = await page.evaluate(async (src) => {
        const video = document.createElement('video');
        video.muted = true;
        video.preload = 'auto';
        const event = (name: string) =>
          new Promise<void>((resolve, reject) => {
            video.addEventListener(name, () => resolve(), { once: true });
            video.addEventListener(
              'error',
              () => reject(new Error(`media error ${video.error?.code}: ${video.error?.message}`)),
              { once: true },
            );
          });
        const loaded = event('loadedmetadata');
        video.src = src;
        document.body.append(video);
        await loaded;
        const duration = video.duration;
        const seekableEnd = video.seekable.length ? video.seekable.end(0) : 0;
        const seeked = event('seeked');
        video.currentTime = 3;
        await seeked;
        const afterSeek = video.currentTime;
        const playing = event('timeupdate');
        await video.play();
        await playing;
        return { duration, seekableEnd, afterSeek, width: video.videoWidth, height: video.videoHeight };
      }, url);
      expect(result.duration).toBeGreaterThan(3.5);
      expect(result.duration).toBeLessThan(4.5);
      expect(result.seekableEnd).toBeGreaterThan(3.5);
      expect(result.afterSeek).toBeCloseTo(3, 0);
      expect(result.width).toBe(320);
      expect(result.height).toBe(240);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('plays the 10-minute recording, reports its duration and seeks to the middle without reading the file', async () => {
    const client = await h.client();
    const { url } = await client.call('getVideoSelfieUrl', { query: { interviewId: 'demo-long-video' } });
    const page = await browser!.newPage();
    try {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      // Each media response's first byte (its Content-Range) and how many bytes came on it.
      const media = new Map<string, { start: number; received: number }>();
      cdp.on('Network.requestWillBeSent', (e) => {
        if (e.request.url.includes('/files/video-selfies/')) media.set(e.requestId, { start: 0, received: 0 });
      });
      cdp.on('Network.responseReceived', (e) => {
        const range = Object.entries(e.response.headers).find(([name]) => name.toLowerCase() === 'content-range');
        const read = media.get(e.requestId);
        if (read && range) read.start = Number(/bytes (\d+)-/.exec(range[1])?.[1] ?? 0);
      });
      cdp.on('Network.dataReceived', (e) => {
        const read = media.get(e.requestId);
        if (read) read.received += e.dataLength;
      });
      await page.goto(`${h.server.url}/__demo/credentials`);
      const result = await page.evaluate(`(async () => {
        const video = document.createElement('video');
        video.muted = true;
        video.preload = 'metadata';
        const event = (name) => new Promise((resolve, reject) => {
          video.addEventListener(name, () => resolve(), { once: true });
          video.addEventListener('error', () => reject(new Error('media error ' + video.error?.code + ': ' + video.error?.message)), { once: true });
        });
        const loaded = event('loadedmetadata');
        video.src = ${JSON.stringify(url)};
        document.body.append(video);
        await loaded;
        const duration = video.duration;
        const middle = duration / 2;
        const seeked = event('seeked');
        video.currentTime = middle;
        await seeked;
        const afterSeek = video.currentTime;
        await video.play();
        await new Promise((resolve) => {
          const tick = () => (video.currentTime >= middle + 1 ? resolve() : requestAnimationFrame(tick));
          tick();
        });
        video.pause();
        return { duration, afterSeek, played: video.currentTime - middle, width: video.videoWidth };
      })()`);
      const { duration, afterSeek, played, width } = result as {
        duration: number;
        afterSeek: number;
        played: number;
        width: number;
      };
      expect(duration).toBeCloseTo(600.45, 1);
      expect(afterSeek).toBeCloseTo(300.225, 0);
      expect(played).toBeGreaterThanOrEqual(1);
      expect(width).toBe(320);
      const size = Number(
        (await fetch(url, { headers: { range: 'bytes=0-0' } })).headers.get('content-range')?.split('/')[1],
      );
      // The seek went to the middle by a range of its own, and no read from the start ran through to it: how far a
      // read from the start gets before Chromium drops it depends on the machine's load, not on the app.
      const reads = [...media.values()];
      expect(reads.some((r) => r.start > size * 0.4 && r.start < size * 0.6)).toBe(true);
      const fromStart = reads.filter((r) => r.start < size * 0.4).map((r) => r.start + r.received);
      expect(Math.max(...fromStart) / size).toBeLessThan(0.5);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('refuses an expired link in the browser too', async () => {
    const client = await h.client();
    const { url } = await client.call('getVideoSelfieUrl', { query: { interviewId: 'demo-clean-pass' } });
    await h.demo('clock', { advanceMs: 61 * 60_000 });
    const page = await browser!.newPage();
    try {
      const response = await page.goto(url);
      expect(response?.status()).toBe(403);
    } finally {
      await page.close();
      await h.demo('reset');
    }
  });
});
