import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { neighboursQuery, useQueueNeighbours } from '../../api/queue';
import { queueQuery, useQueueView } from './queue-view';

/**
 * Previous and next interview, following the queue as the analyst filtered and sorted it (queue-view.ts, asked of
 * main). The neighbours' own ways are asked for as soon as this one is known, so j and k pressed in a row never wait.
 */
export interface Way {
  prev?: string;
  next?: string;
  index: number;
  count: number;
  /** False while main is still asked: a step asked for meanwhile waits for the answer (useStep). */
  known: boolean;
}

export function useWay(interviewId: string): Way {
  const client = useQueryClient();
  const query = queueQuery(useQueueView());
  const way = useQueueNeighbours(interviewId, query);
  const { prev, next } = way.data ?? {};
  const queryKey = JSON.stringify(query);
  useEffect(() => {
    for (const id of [prev, next]) if (id) void client.prefetchQuery(neighboursQuery(id, JSON.parse(queryKey)));
  }, [client, prev, next, queryKey]);
  return way.data ? { ...way.data, known: true } : { index: -1, count: 0, known: false };
}

/**
 * A step to the previous or next interview. Pressed before the way is known (just arrived, the queue being read
 * again), it is taken once the way arrives instead of being lost.
 */
export function useStep(
  interviewId: string,
  way: Way,
  go: (interviewId: string) => void,
): (direction: 'prev' | 'next') => void {
  const [waiting, setWaiting] = useState<{ from: string; direction: 'prev' | 'next' } | null>(null);
  useEffect(() => {
    if (!waiting || (waiting.from === interviewId && !way.known)) return;
    setWaiting(null);
    // Asked on another interview (the analyst moved on meanwhile): not taken from this one.
    const to = waiting.from === interviewId ? way[waiting.direction] : undefined;
    if (to) go(to);
  }, [waiting, interviewId, way, go]);
  return (direction) => {
    if (!way.known) return setWaiting({ from: interviewId, direction });
    const to = way[direction];
    if (to) go(to);
  };
}
