import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { readAgain } from '../../../renderer/api/read-again';

/** A shown query whose read takes the value at its start and answers a moment later, as a read through main does. */
function shownQuery(client: QueryClient, source: { value: string }) {
  let reads = 0;
  const observer = new QueryObserver(client, {
    queryKey: ['queue', 'list'],
    queryFn: async () => {
      reads++;
      const seen = source.value;
      await new Promise((resolve) => setTimeout(resolve, 30));
      return seen;
    },
  });
  const stop = observer.subscribe(() => undefined);
  return { observer, stop, reads: () => reads };
}

describe('readAgain', () => {
  const client = new QueryClient();
  afterEach(() => client.clear());

  it('reads again a query whose first read started before the change it is told of', async () => {
    const source = { value: 'empty' };
    const query = shownQuery(client, source);
    await new Promise((resolve) => setTimeout(resolve, 5));
    source.value = 'added';
    await readAgain(client, { queryKey: ['queue'] });
    await expect.poll(() => query.observer.getCurrentResult().data).toBe('added');
    expect(query.reads()).toBe(2);
    query.stop();
  });

  it('where invalidating alone keeps the answer of the read that started before', async () => {
    const source = { value: 'empty' };
    const query = shownQuery(client, source);
    await new Promise((resolve) => setTimeout(resolve, 5));
    source.value = 'added';
    await client.invalidateQueries({ queryKey: ['queue'] });
    await expect.poll(() => query.observer.getCurrentResult().isFetching).toBe(false);
    expect(query.observer.getCurrentResult().data).toBe('empty');
    query.stop();
  });

  it('leaves a prefetch nobody shows to finish', async () => {
    let reads = 0;
    const prefetch = client.prefetchQuery({
      queryKey: ['queue', 'neighbours'],
      queryFn: async () => {
        reads++;
        await new Promise((resolve) => setTimeout(resolve, 30));
        return 'read';
      },
    });
    await readAgain(client, { queryKey: ['queue'] });
    await prefetch;
    expect(client.getQueryData(['queue', 'neighbours'])).toBe('read');
    expect(reads).toBe(1);
  });

  it('over data, and on queries the filters leave out, does what invalidating does', async () => {
    const source = { value: 'first' };
    const query = shownQuery(client, source);
    await expect.poll(() => query.observer.getCurrentResult().data).toBe('first');
    source.value = 'second';
    await readAgain(client, { queryKey: ['team'] });
    expect(query.observer.getCurrentResult().data).toBe('first');
    await readAgain(client, { queryKey: ['queue'] });
    await expect.poll(() => query.observer.getCurrentResult().data).toBe('second');
    expect(query.reads()).toBe(2);
    query.stop();
  });
});
