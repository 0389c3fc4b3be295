import { useCallback } from 'react';
import { useLocale, type Bilingual } from './index';

/**
 * Field names the service sends (cross-document entries, API-key attributes) in words. A name the table does not
 * know is made readable rather than shown raw: `birthPlace`, `birth_place` and `BIRTH_PLACE` read "Birth place".
 */
export function readableName(name: string): string {
  // In a mixed-case name a run of capitals is an acronym (validRFC); in an all-capitals name it is just a word.
  const mixed = /[a-z]/.test(name);
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s._-]+/)
    .filter(Boolean)
    .map((w) => (mixed && /^[A-Z0-9]+$/.test(w) ? w : w.toLowerCase() === 'id' ? 'ID' : w.toLowerCase()));
  if (words.length === 0) return name;
  const first = words[0]!;
  return [first.charAt(0).toUpperCase() + first.slice(1), ...words.slice(1)].join(' ');
}

/** A field's words in the screen's language from `table`, or its readable name when the table does not know it. */
export function useFieldWord(table: Record<string, Bilingual>): (name: string) => string {
  const { locale } = useLocale();
  return useCallback(
    (name: string) => (Object.hasOwn(table, name) ? table[name]![locale] : readableName(name)),
    [table, locale],
  );
}
