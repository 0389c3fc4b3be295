import { useQueueList } from '../../api/queue';
import { neighbours, useQueueOrder } from './queue-view';

/** Previous and next interview, following the queue as the analyst filtered and sorted it (queue-view.ts). */
export function useWay(interviewId: string) {
  const queue = useQueueList({ refresh: false });
  const order = useQueueOrder();
  return neighbours(interviewId, order, queue.data?.map((e) => e.interviewId) ?? []);
}
