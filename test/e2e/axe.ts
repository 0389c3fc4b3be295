import AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import type { Page } from '@playwright/test';

/**
 * axe on the page, in the builder's legacy mode: it runs the rules in the page itself instead of opening a blank page
 * to gather each frame's results, the part of a pass that only cross-origin frames need (the app has no frames). The
 * same rules and results at about half the cost: 1.0 s of wall a pass on the workspace against 1.9 s, 0.6 s less CPU
 * (docs/testing.md, fourth round); the suite runs about ninety.
 *
 * axe's 550 kB source goes into a page once, not at every pass: the builder sends and runs whatever source it holds
 * twice a pass, so it holds none here, and the page keeps the axe it was given until it reloads (docs/testing.md, fifth
 * round). Each pass still configures axe and runs the rules afresh (axe empties its caches after every run).
 */
export function axeOf(page: Page): AxeBuilder {
  const builder = new AxeBuilder({ page, axeSource: ';' }).setLegacyMode();
  const analyze = builder.analyze.bind(builder);
  builder.analyze = async () => {
    const present = await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function');
    if (!present) await page.evaluate(axe.source);
    return analyze();
  };
  return builder;
}
