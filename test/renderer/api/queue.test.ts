import { describe, expect, it } from 'vitest';
import { QUEUE_PAGE_MAX, type QueueEntry, type QueuePage } from '../../../common/ipc/queue';
import { QUEUE_PAGE, nextPage } from '../../../renderer/api/queue';

const page = (rows: number, next?: string): QueuePage => ({
  rows: Array.from({ length: rows }, (_, i) => ({ interviewId: `i${i}` }) as QueueEntry),
  ...(next ? { next: { key: null, interviewId: next } } : {}),
});

describe('nextPage', () => {
  it('asks for the rows after the last page read, a page at a time', () => {
    const pages = [page(QUEUE_PAGE, 'a'), page(QUEUE_PAGE, 'b')];
    expect(nextPage(pages[1]!, pages, 0)).toEqual({ after: { key: null, interviewId: 'b' }, limit: QUEUE_PAGE });
  });

  it('reaches a row far down in one call, up to the most a page may hold', () => {
    const pages = [page(QUEUE_PAGE, 'a')];
    expect(nextPage(pages[0]!, pages, 2_050)?.limit).toBe(1_950);
    expect(nextPage(pages[0]!, pages, 90_000)?.limit).toBe(QUEUE_PAGE_MAX);
    expect(nextPage(pages[0]!, pages, 150)?.limit).toBe(QUEUE_PAGE);
  });

  it('stops after the last page', () => {
    const pages = [page(3)];
    expect(nextPage(pages[0]!, pages, 2_000)).toBeUndefined();
  });
});
