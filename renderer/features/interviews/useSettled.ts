import { useEffect, useState } from 'react';

/** `value` once it has stopped changing for `ms`: the queue's search asks main when typing pauses, not per key. */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
