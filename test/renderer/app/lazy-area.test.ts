import { createElement, Suspense, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { lazyArea } from '../../../renderer/app/lazy-area';

const Screen: ComponentType = () => createElement('h1', null, 'Screen');
// Wrapped in a boundary whose fallback would show if the area suspended: it never should (React would hold that
// placeholder for at least 300 ms).
const render = (Component: ComponentType) =>
  renderToString(
    createElement(Suspense, { fallback: createElement('p', null, 'suspended') }, createElement(Component)),
  );

describe('lazyArea', () => {
  it('renders the screen at once when its code was preloaded before the first render', async () => {
    let loads = 0;
    const area = lazyArea(async () => {
      loads++;
      return { default: Screen };
    });
    await area.preload();
    const html = render(area.Component);
    expect(html).toContain('<h1>Screen</h1>');
    expect(html).not.toContain('skeleton');
    await area.preload();
    expect(loads).toBe(1);
  });

  it('shows its own placeholder, without suspending, while its code is on the way', () => {
    const area = lazyArea(() => new Promise(() => undefined));
    const html = render(area.Component);
    expect(html).toContain('class="skeleton"');
    expect(html).not.toContain('suspended');
  });

  it('tries a failed load again instead of remembering the failure', async () => {
    let attempt = 0;
    const area = lazyArea(async () => {
      attempt++;
      if (attempt === 1) throw new Error('chunk could not be read');
      return { default: Screen };
    });
    await expect(area.preload()).rejects.toThrow('chunk could not be read');
    await area.preload();
    expect(attempt).toBe(2);
    expect(render(area.Component)).toContain('<h1>Screen</h1>');
  });
});
