import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  forgetAllKept,
  forgetKept,
  isKept,
  keep,
  keptValue,
  useKeptState,
  type ForgetOptions,
} from '../../../renderer/ui/kept-state';

/** What a form typed, kept outside the screen until the server confirms it (red team 20c finding 2). */

type Kept<T> = [T, (next: T | ((previous: T) => T)) => void, (options?: ForgetOptions) => void];

/**
 * The hook as one render of a screen shows it: the tuple it returned, and the markup. Each call is a new mount, as
 * coming back to a screen is (the areas unmount on navigation).
 */
function mount<T>(key: string, initial: T): { kept: Kept<T>; html: string } {
  let kept: Kept<T> | undefined;
  function Form() {
    kept = useKeptState(key, initial);
    return createElement('output', null, JSON.stringify(kept[0]));
  }
  const html = renderToString(createElement(Form));
  return { kept: kept!, html };
}

describe('useKeptState', () => {
  beforeEach(() => forgetAllKept());

  it('shows the initial value while nothing is kept, and keeps nothing for it', () => {
    const { kept, html } = mount('test.form', 'start');
    expect(kept[0]).toBe('start');
    expect(html).toContain('&quot;start&quot;');
    expect(isKept('test.form')).toBe(false);
  });

  it('keeps what is typed through leaving the screen and coming back', () => {
    const first = mount('test.rfc', '');
    first.kept[1]('GODE561231GR8');
    // The screen closed; a new one opens under the same key.
    const again = mount('test.rfc', '');
    expect(again.kept[0]).toBe('GODE561231GR8');
    expect(again.html).toContain('GODE561231GR8');
  });

  it('applies an update function to the kept value, one update after another', () => {
    const { kept } = mount('test.rules', { hours: 24, minutes: 30 });
    kept[1]((r) => ({ ...r, hours: 7 }));
    kept[1]((r) => ({ ...r, minutes: 5 }));
    expect(keptValue('test.rules')).toEqual({ hours: 7, minutes: 5 });
    expect(mount('test.rules', { hours: 24, minutes: 30 }).kept[0]).toEqual({ hours: 7, minutes: 5 });
  });

  it('keeps each key apart: another form, environment or interview shows its own value', () => {
    mount('test.curp.demo', '').kept[1]('DEMO');
    mount('test.curp.production', '').kept[1]('PROD');
    expect(mount('test.curp.demo', '').kept[0]).toBe('DEMO');
    expect(mount('test.curp.production', '').kept[0]).toBe('PROD');
    expect(mount('test.curp.custom', '').kept[0]).toBe('');
  });

  it('follows a changing initial value while nothing is kept (the saved settings once read)', () => {
    expect(mount('test.settings', { hours: 24 }).kept[0]).toEqual({ hours: 24 });
    expect(mount('test.settings', { hours: 48 }).kept[0]).toEqual({ hours: 48 });
    mount('test.settings', { hours: 48 }).kept[1]({ hours: 7 });
    expect(mount('test.settings', { hours: 96 }).kept[0]).toEqual({ hours: 7 });
  });

  it('starts fresh next time once the server confirmed it (forget)', () => {
    const { kept } = mount('test.org', '');
    kept[1]('acme');
    // The mutation's onSuccess, here after the screen closed (no screen shows the key).
    kept[2]();
    expect(isKept('test.org')).toBe(false);
    expect(mount('test.org', '').kept[0]).toBe('');
  });

  it('forgets at once with `now`, and a later edit is a new draft, kept again', () => {
    const { kept } = mount('test.codes', 'saved');
    kept[1]('edited');
    kept[2]({ now: true });
    expect(mount('test.codes', 'saved').kept[0]).toBe('saved');
    kept[1]('edited again');
    expect(mount('test.codes', 'saved').kept[0]).toBe('edited again');
  });

  it('keeps an empty value typed over a non-empty initial one (a cleared field stays cleared)', () => {
    mount('test.hint', 'prefilled').kept[1]('');
    expect(mount('test.hint', 'prefilled').kept[0]).toBe('');
  });
});

describe('the store behind it', () => {
  beforeEach(() => forgetAllKept());

  it('keeps, reads and forgets by key', () => {
    keep('test.a', { x: 1 });
    expect(isKept('test.a')).toBe(true);
    expect(keptValue('test.a')).toEqual({ x: 1 });
    forgetKept('test.a');
    expect(isKept('test.a')).toBe(false);
    expect(keptValue('test.a')).toBeUndefined();
    // Forgetting what is not kept is harmless.
    forgetKept('test.a');
    forgetKept('test.never');
  });
});
