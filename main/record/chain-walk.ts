import { Worker } from 'node:worker_threads';
import type { PoolConfig } from 'pg';
import { threadFile } from './engines';

/** A walk along the chain from a verified head: the new head, or the first entry that breaks the chain. */
export type ChainWalk = { ok: true; count: number; hash: string } | { ok: false; brokenAt: number };
export type ChainWalker = (from: { count: number; hash: string }) => Promise<ChainWalk>;

/**
 * Walks the chain on a thread of its own (chain-walker.mjs) through a connection of its own, so main keeps answering
 * while the whole trail is read and hashed. A team's server only: PGlite is one session, which a second connection
 * would share mid-transaction.
 */
export function walkInThread(connection: PoolConfig): ChainWalker {
  return async (from) => {
    // A thread is handed data, not functions: a password given as one is asked now. The one that refuses (none saved
    // for this address) is passed on as such, for the thread to refuse in turn if the server asks.
    const { password, ...rest } = connection;
    const asked =
      typeof password === 'function'
        ? await Promise.resolve()
            .then(password)
            .then(
              (value) => ({ password: value }),
              () => ({ passwordMissing: true }),
            )
        : { password };
    const workerData = { connection: rest, ...asked, from };
    return new Promise<ChainWalk>((resolve, reject) => {
      const worker = new Worker(threadFile('chain-walker.mjs'), { workerData });
      worker.once('message', (answer: ChainWalk | { failed: string }) =>
        'failed' in answer ? reject(new Error(`The audit trail could not be read: ${answer.failed}`)) : resolve(answer),
      );
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`The chain walker stopped (${code}) before it answered.`)));
    });
  };
}
