import { describe, expect, it } from 'vitest';
import { spanishOf } from '../../../common/ipc/define';
import { QUEUE_SEARCH_MAX, QueueSearch, SavedViewName, hasVisibleCharacter, queue } from '../../../common/ipc/queue';

/** The queue's inputs refused with a reason in both languages (red team 20c findings 3 and 7). */

const reasonOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('a saved view’s name', () => {
  it('needs a visible character: only zero-width or other invisible characters are refused, in both languages', () => {
    for (const name of ['\u200b\u200b\u200b', '\u200d', '\ufeff \u2060', '\u00ad', '\u3164', '\u2800', '\u202e\u200b'])
      expect(hasVisibleCharacter(name), JSON.stringify(name)).toBe(false);
    const refused = reasonOf(SavedViewName.safeParse('\u200b\u200b\u200b'));
    expect(refused).toMatch(/^A view name needs at least one visible character/);
    expect(spanishOf(refused!)).toMatch(/^El nombre de la vista necesita al menos un carácter visible/);
    expect(spanishOf(reasonOf(SavedViewName.safeParse('   '))!)).toBe('Ponle un nombre a la vista');
  });

  it('keeps names people write, with accents, emoji, other scripts, and an invisible character beside visible ones', () => {
    for (const name of ['Alto riesgo', 'Ñ', '🔥 urgentes', 'مراجعة', '審査', 'x\u200b'])
      expect(SavedViewName.safeParse(name).success, name).toBe(true);
  });
});

describe('the queue’s search', () => {
  it('takes up to QUEUE_SEARCH_MAX characters and says the limit in both languages', () => {
    expect(QUEUE_SEARCH_MAX).toBe(300);
    expect(QueueSearch.safeParse('x'.repeat(300)).success).toBe(true);
    const refused = reasonOf(QueueSearch.safeParse('x'.repeat(301)));
    expect(refused).toBe('A search has at most 300 characters');
    expect(spanishOf(refused!)).toBe('La búsqueda admite hasta 300 caracteres');
    expect(
      queue.page.input.safeParse({
        filter: { state: 'all', status: 'all' },
        sort: 'added',
        search: 'x'.repeat(301),
        limit: 1,
      }).success,
    ).toBe(false);
  });
});
