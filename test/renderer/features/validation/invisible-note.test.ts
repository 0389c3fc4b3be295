import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LocaleProvider } from '../../../../renderer/i18n/index';
import { InvisibleNote } from '../../../../renderer/features/validation/SingleChecks';

const render = (value: string, locale: 'en' | 'es') =>
  renderToString(
    createElement(LocaleProvider, {
      value: { locale, setLocale: () => undefined },
      children: createElement(InvisibleNote, { value }),
    }),
  );

describe('the RFC / CURP form on a paste with invisible characters', () => {
  it('says in both languages which were left out and not sent', () => {
    expect(render('GODE\u200b5612\u202e31GR8\u200b', 'en')).toContain(
      'The pasted text carried invisible characters (U+200B, U+202E): they are left out of the check and are not sent.',
    );
    expect(render('GODE\u200b561231GR8', 'es')).toContain(
      'El texto pegado traía caracteres invisibles (U+200B): no se toman en cuenta en la revisión y no se envían.',
    );
    expect(render('GODE 561231-GR8', 'en')).toBe('');
  });
});
