import type { InvalidateQueryFilters, QueryClient } from '@tanstack/react-query';

/**
 * Marks the queries stale and reads the shown ones again, including those whose first read is still on its way.
 * react-query lets a running fetch stand when the query has no data yet (it restarts one only over data), but that
 * read may have been made before the change being announced: an analyst's queue stayed empty when another's
 * interviews arrived while it was first being read. Such reads of shown queries are cancelled first, so a new one
 * starts; a prefetch nobody shows yet is left to finish (cancelled, it would not be read again until shown).
 */
export async function readAgain(queryClient: QueryClient, filters: InvalidateQueryFilters): Promise<void> {
  await queryClient.cancelQueries({
    ...filters,
    type: 'active',
    predicate: (query) =>
      query.state.data === undefined && query.state.fetchStatus === 'fetching' && (filters.predicate?.(query) ?? true),
  });
  await queryClient.invalidateQueries(filters);
}
