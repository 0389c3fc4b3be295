import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * axe on the page, in the builder's legacy mode: it runs the rules in the page itself instead of opening a blank page
 * to gather each frame's results, the part of a pass that only cross-origin frames need (the app has no frames). The
 * same rules and results at about half the cost: 1.0 s of wall a pass on the workspace against 1.9 s, 0.6 s less CPU
 * (docs/testing.md, fourth round); the suite runs about ninety.
 */
export function axeOf(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode();
}
