import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { neighboursQuery, useQueueNeighbours } from '../../api/queue';
import { queueQuery, useQueueView } from './queue-view';

/**
 * Previous and next interview, following the queue as the analyst filtered and sorted it (queue-view.ts, asked of
 * main). The neighbours' own ways are asked for as soon as this one is known, so j and k pressed in a row never wait.
 */
export function useWay(interviewId: string): { prev?: string; next?: string; index: number; count: number } {
  const client = useQueryClient();
  const query = queueQuery(useQueueView());
  const way = useQueueNeighbours(interviewId, query);
  const { prev, next } = way.data ?? {};
  const queryKey = JSON.stringify(query);
  useEffect(() => {
    for (const id of [prev, next]) if (id) void client.prefetchQuery(neighboursQuery(id, JSON.parse(queryKey)));
  }, [client, prev, next, queryKey]);
  return way.data ?? { index: -1, count: 0 };
}
