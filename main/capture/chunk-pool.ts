/**
 * Output buffers a body producer lends to the socket writer and gets back once the bytes are in the kernel, so a
 * 500 MB import reuses a handful of buffers instead of allocating 660 MB of fresh ones: the page faults and
 * garbage collection of fresh buffers cost more than the base64 encoding itself.
 *
 * A buffer goes back only through `releaseChunk`, which `streamingFetch` calls from the socket's write callback
 * (the moment Node no longer reads it). A consumer that never releases makes the pool allocate, never reuse.
 */
const owners = new WeakMap<ArrayBufferLike, ChunkPool>();

export class ChunkPool {
  private readonly free: Buffer[] = [];

  /** `bytes`: the size of every buffer; `keep`: how many released buffers wait for reuse at most. */
  constructor(
    private readonly bytes: number,
    private readonly keep = 8,
  ) {}

  /** A buffer of `length` bytes (at most the pool's size) that nobody else holds. */
  take(length: number): Buffer {
    if (length > this.bytes) throw new RangeError(`a chunk of ${length} bytes does not fit buffers of ${this.bytes}`);
    const buffer = this.free.pop() ?? Buffer.allocUnsafeSlow(this.bytes);
    owners.set(buffer.buffer, this);
    return buffer.subarray(0, length);
  }

  giveBack(chunk: Uint8Array): void {
    owners.delete(chunk.buffer);
    if (this.free.length < this.keep) this.free.push(Buffer.from(chunk.buffer, 0, this.bytes));
  }
}

/** Hands a written chunk back to the pool it came from; a no-op for chunks of no pool. */
export function releaseChunk(chunk: Uint8Array): void {
  owners.get(chunk.buffer)?.giveBack(chunk);
}
