import { QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient, keys, readAgain } from '../../../../renderer/api/index';
import { openingQuery } from '../../../../renderer/features/interviews/prefetch';

/**
 * The opening answers with the trail and the overview it read, and seeds those panels. A write announced while the
 * opening was on its way (a play recorded, seen in a journey) is newer than that answer: the panel is read again,
 * never left showing the opening's older read as fresh.
 */
describe('openingQuery', () => {
  afterEach(() => vi.unstubAllGlobals());

  function setUp() {
    const trail = { entries: ['opened'] };
    let answerOpening!: () => void;
    const openingHeld = new Promise<void>((resolve) => (answerOpening = resolve));
    const api = {
      interview: {
        // Reads the trail at once, answers when released: as main's answer still on its way to the renderer.
        open: async () => {
          const audit = { entries: [...trail.entries] };
          await openingHeld;
          return { overview: { entry: { interviewId: 'i-1' } }, audit };
        },
        audit: async () => ({ entries: [...trail.entries] }),
      },
    };
    vi.stubGlobal('window', { omni: api });
    const client = createQueryClient();
    // The trail panel, as the workspace shows it: not read on its own while the opening is under way.
    const panel = new QueryObserver(client, {
      queryKey: keys.interview.audit('i-1'),
      queryFn: () => api.interview.audit(),
      enabled: false,
    });
    const stop = panel.subscribe(() => undefined);
    return { client, trail, answerOpening, panel, stop };
  }

  it('reads the trail again when a play was recorded while the opening was on its way', async () => {
    const { client, trail, answerOpening, panel, stop } = setUp();
    const opening = client.fetchQuery(openingQuery(client, 'i-1'));
    await vi.waitFor(() => expect(client.getQueryState(keys.interview.opening('i-1'))?.fetchStatus).toBe('fetching'));
    trail.entries.push('played');
    await readAgain(client, { queryKey: keys.interview.audit('i-1') });
    answerOpening();
    await opening;
    panel.setOptions({ queryKey: keys.interview.audit('i-1'), queryFn: () => ({ entries: [...trail.entries] }) });
    await vi.waitFor(() => expect(panel.getCurrentResult().data).toEqual({ entries: ['opened', 'played'] }));
    stop();
  });

  it('seeds the trail from the opening when nothing changed meanwhile, without another read', async () => {
    const { client, answerOpening, panel, stop } = setUp();
    const reads = vi.fn(() => ({ entries: ['read again'] }));
    const opening = client.fetchQuery(openingQuery(client, 'i-1'));
    answerOpening();
    await opening;
    panel.setOptions({ queryKey: keys.interview.audit('i-1'), queryFn: reads });
    expect(panel.getCurrentResult().data).toEqual({ entries: ['opened'] });
    expect(reads).not.toHaveBeenCalled();
    stop();
  });
});
