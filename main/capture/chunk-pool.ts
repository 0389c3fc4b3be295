/**
 * Output buffers a body producer lends to the socket writer and gets back once the bytes are in the kernel, so a
 * 500 MB import reuses a handful of buffers instead of allocating 660 MB of fresh ones: the page faults and
 * garbage collection of fresh buffers cost more than the base64 encoding itself.
 *
 * A buffer goes back only through `releaseChunk`, which `streamingFetch` calls from the socket's write callback
 * (the moment Node no longer reads it). A consumer that never releases makes the pool allocate, never reuse.
 * Chunks are tracked by identity: the streams between producer and writer pass the same objects along.
 */
const lent = new WeakMap<Uint8Array, { pool: ChunkPool; slot: Uint8Array }>();

export class ChunkPool {
  private readonly free: Uint8Array[];
  private readonly keep: number;

  /**
   * `bytes`: the size of every buffer. `slots`: buffers to lend first (e.g. the encoder's own memory, so base64 is
   * written where the socket reads it); when all are out, fresh ones. `keep`: how many given back are kept.
   */
  constructor(
    private readonly bytes: number,
    { slots = [], keep = 8 }: { slots?: Uint8Array[]; keep?: number } = {},
  ) {
    if (slots.some((s) => s.length !== bytes)) throw new RangeError(`every slot must be ${bytes} bytes`);
    this.free = [...slots];
    this.keep = Math.max(keep, slots.length);
  }

  /** `length` bytes (at most the pool's size) that nobody else holds. */
  take(length: number): Uint8Array {
    if (length > this.bytes) throw new RangeError(`a chunk of ${length} bytes does not fit buffers of ${this.bytes}`);
    const slot = this.free.pop() ?? Buffer.allocUnsafeSlow(this.bytes);
    const chunk = slot.subarray(0, length);
    lent.set(chunk, { pool: this, slot });
    return chunk;
  }

  giveBack(chunk: Uint8Array): void {
    const loan = lent.get(chunk);
    if (loan?.pool !== this) return;
    lent.delete(chunk);
    if (this.free.length < this.keep) this.free.push(loan.slot);
  }
}

/** Hands a written chunk back to the pool it came from; a no-op for chunks of no pool. */
export function releaseChunk(chunk: Uint8Array): void {
  lent.get(chunk)?.pool.giveBack(chunk);
}
