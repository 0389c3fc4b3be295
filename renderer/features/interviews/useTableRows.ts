import { useVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useState, type RefObject } from 'react';

const ROW_ESTIMATE = 52;

/**
 * Only the rows in view (and a few more) of a table that scrolls with the page (the screen's `main`), with the spacer
 * heights before and after them: a queue of 5,000 took 6 s to show with every row drawn.
 */
export function useTableRows(
  count: number,
  getItemKey: (index: number) => string,
  tableRef: RefObject<HTMLTableElement | null>,
) {
  // Where the rows start inside the screen's scrolling area: the table scrolls with the page, not in a box of its own.
  const [rowsOffset, setRowsOffset] = useState(0);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => tableRef.current?.closest('main') ?? null,
    estimateSize: () => ROW_ESTIMATE,
    getItemKey,
    overscan: 10,
    scrollMargin: rowsOffset,
    // Before the screen is measured, draw as many rows as a window shows, not none.
    initialRect: { width: 0, height: window.innerHeight },
  });
  // Measured after every render (the rows' offset moves with anything drawn above them); set only when it changed.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => {
    const body = tableRef.current?.tBodies[0];
    const scroller = tableRef.current?.closest('main');
    if (!body || !scroller) return;
    const offset = body.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
    if (Math.abs(offset - rowsOffset) > 0.5) setRowsOffset(offset);
  });
  const items = virtualizer.getVirtualItems();
  const before = items[0] ? items[0].start - rowsOffset : 0;
  const after = items.length ? virtualizer.getTotalSize() - (items.at(-1)!.end - rowsOffset) : 0;
  return { virtualizer, items, before, after, rowsOffset };
}
