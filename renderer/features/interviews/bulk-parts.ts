import type { BulkResult } from '../../../common/ipc/bulk';

/**
 * Sends rows to a bulk action in parts of `partRows`, one part after the other, adding up their answers and saying
 * after each how many rows were handled, so the screen can show progress and stop between parts. A failed call ends
 * the run: what the parts before it did stands, and `failed` holds the error. So does a part that main stopped
 * (`stoppedBy`): the rows it handled count, the rest of the run is not sent.
 */
export async function runInParts(
  rows: readonly string[],
  partRows: number,
  call: (part: string[]) => Promise<BulkResult>,
  { onProgress, stopped }: { onProgress?: (handled: number) => void; stopped?: () => boolean } = {},
): Promise<{ result: BulkResult; handled: number; failed?: unknown }> {
  const result: BulkResult = { done: [], refused: [] };
  let handled = 0;
  while (handled < rows.length && !stopped?.()) {
    const part = rows.slice(handled, handled + partRows);
    try {
      const answer = await call(part);
      result.done.push(...answer.done);
      result.refused.push(...answer.refused);
      if (answer.stoppedBy) {
        handled += answer.done.length + answer.refused.length;
        onProgress?.(handled);
        return { result: { ...result, stoppedBy: answer.stoppedBy }, handled };
      }
    } catch (failed) {
      return { result, handled, failed };
    }
    handled += part.length;
    onProgress?.(handled);
  }
  return { result, handled };
}
