import { axeOf } from './axe';
import { expect, test } from './fixtures';

// The suite's axe helper (axe.ts) puts axe into a page once and reuses it: each pass must still find what is there
// now, and a page that reloaded gets axe again. No web shell: a page of its own, with planted faults.
test('the axe helper finds planted faults at every pass, after a change and after a reload', async ({ browser }) => {
  const page = await browser.newPage();
  const planted = `<!doctype html><html lang="en"><head><title>axe</title></head><body><main><h1>Planted</h1>
    <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" id="no-alt"><button id="no-name"></button></main></body></html>`;
  const ids = async () =>
    (await axeOf(page).analyze()).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join()}`);
  try {
    await page.setContent(planted);
    expect(await ids()).toEqual(['button-name: #no-name', 'image-alt: #no-alt']);
    // The second pass runs on the axe the first one left in the page, and sees the page as it is now.
    await page.locator('#no-name').evaluate((b) => (b.textContent = 'Named'));
    expect(await ids()).toEqual(['image-alt: #no-alt']);
    await page.setContent(planted);
    expect(await ids()).toEqual(['button-name: #no-name', 'image-alt: #no-alt']);
    await page.locator('#no-alt').evaluate((img) => img.setAttribute('alt', 'A dot'));
    await page.locator('#no-name').evaluate((b) => (b.textContent = 'Named'));
    expect(await ids()).toEqual([]);
  } finally {
    await page.close();
  }
});
