import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * The queue's checked rows, by interview id, in the order they were checked (a "select all" in the view's order).
 * A shift-click checks or unchecks every row read between the last one clicked and this one, as the clicked one
 * turns. A new view (filters, search, order) starts with nothing checked: "all in this view" means that view.
 */
export function useRowSelection(rowIds: readonly string[], viewKey: string) {
  const [checked, setChecked] = useState<ReadonlySet<string>>(() => new Set());
  const anchor = useRef<string | null>(null);
  useEffect(() => {
    setChecked(new Set());
    anchor.current = null;
  }, [viewKey]);

  const toggle = useCallback(
    (interviewId: string, { range }: { range: boolean }) => {
      // Read now: the state updater runs later, after the anchor has moved to this row.
      const from = range && anchor.current !== null ? rowIds.indexOf(anchor.current) : -1;
      const to = rowIds.indexOf(interviewId);
      const ids = from >= 0 && to >= 0 ? rowIds.slice(Math.min(from, to), Math.max(from, to) + 1) : [interviewId];
      anchor.current = interviewId;
      setChecked((before) => {
        const on = !before.has(interviewId);
        const next = new Set(before);
        for (const id of ids)
          if (on) next.add(id);
          else next.delete(id);
        return next;
      });
    },
    [rowIds],
  );
  const replace = useCallback((ids: readonly string[]) => setChecked(new Set(ids)), []);
  const drop = useCallback(
    (ids: readonly string[]) =>
      setChecked((before) => {
        const next = new Set(before);
        for (const id of ids) next.delete(id);
        return next;
      }),
    [],
  );
  const clear = useCallback(() => {
    setChecked(new Set());
    anchor.current = null;
  }, []);
  return { checked, toggle, replace, drop, clear };
}

export type RowSelection = ReturnType<typeof useRowSelection>;
