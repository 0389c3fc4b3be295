import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Nom151Verification } from '../../common/ipc/nom151';
import { threadFile } from '../record/engines';
import { isPdf, tooComplexToVerify, verifyEvidence as verifyHere, type VerifyInput } from './verify';

/**
 * A sealed PDF from outside is verified on a thread of its own (verifier-thread.mjs): pdf-lib parses it in JavaScript,
 * and the caps on what one load may decode and build (pdf.ts) still left a crafted file seconds of main and hundreds of
 * MB (red team 10). The thread has its own heap limit, main a time limit: past either the thread is ended, the PDF
 * reported as too complex, and the next verification gets a new thread. Main keeps answering meanwhile.
 * Evidence that is no PDF (a token, its base64) is only parsed as ASN.1 and hashed: verified here.
 */
export interface VerifierLimits {
  memoryMb: number;
  timeMs: number;
  /** The module whose `verifyEvidence` the thread runs (tests give one that misbehaves). */
  entry?: string;
}

const LIMITS: VerifierLimits = { memoryMb: 1024, timeMs: 60_000 };

type Answer = { id: number; result: Nom151Verification } | { id: number; failed: string } | { ready: true };

export function createVerifier(limits: VerifierLimits = LIMITS) {
  let thread: Worker | undefined;
  const ready = new WeakSet<Worker>();
  let nextId = 0;
  // One verification at a time: the time limit is each one's own, and loads in the thread are serial anyway.
  let queue: Promise<unknown> = Promise.resolve();

  const start = () => {
    const worker = new Worker(threadFile('verifier-thread.mjs', import.meta.url), {
      workerData: { entry: limits.entry ?? verifierEntry() },
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb },
    });
    // An idle thread never keeps the app (or a test run) from ending, and one that fails between verifications is
    // replaced at the next (each verification listens for its own failures).
    worker.unref();
    worker.once('message', () => ready.add(worker));
    worker
      .on('error', () => undefined)
      .on('exit', () => {
        if (thread === worker) thread = undefined;
      });
    return worker;
  };

  const runOnThread = (input: VerifyInput) =>
    new Promise<Nom151Verification>((resolve, reject) => {
      const worker = (thread ??= start());
      const id = ++nextId;
      // A last bound on what the thread holds outside its heap (buffers: pdf.js's image decoders, say): the process
      // may grow by twice the heap limit while a verification runs, no more.
      const rssAtStart = process.memoryUsage.rss();
      const watch = setInterval(() => {
        if (process.memoryUsage.rss() - rssAtStart <= limits.memoryMb * 2 * 2 ** 20) return;
        discard();
        end(() => resolve(tooComplexToVerify(input)));
      }, 100);
      watch.unref();
      const end = (settle: () => void) => {
        clearInterval(watch);
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit).off('message', startClock);
        settle();
      };
      const discard = () => {
        if (thread === worker) thread = undefined;
        void worker.terminate();
      };
      const onMessage = (answer: Answer) => {
        if ('ready' in answer || answer.id !== id) return;
        end(() => ('result' in answer ? resolve(answer.result) : reject(new Error(answer.failed))));
      };
      const onError = (error: Error & { code?: string }) => {
        discard();
        end(() => (error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? resolve(tooComplexToVerify(input)) : reject(error)));
      };
      const onExit = (code: number) => {
        discard();
        end(() => reject(new Error(`The verifier's thread stopped (${code}) before it answered.`)));
      };
      // The clock runs from when the thread has its verifier: loading it (compiling, from the sources) is not the PDF's.
      let timer: NodeJS.Timeout | undefined;
      const startClock = () => {
        timer = setTimeout(() => {
          discard();
          end(() => resolve(tooComplexToVerify(input)));
        }, limits.timeMs);
      };
      if (ready.has(worker)) startClock();
      else worker.once('message', startClock);
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage({ id, input });
    });

  return {
    verify(input: VerifyInput): Promise<Nom151Verification> {
      if (!isPdf(input.evidence)) return verifyHere(input);
      const turn = queue.then(() => runOnThread(input));
      queue = turn.catch(() => undefined);
      return turn;
    },
    async stop(): Promise<void> {
      await thread?.terminate();
      thread = undefined;
    },
  };
}

/** The bundled verifier beside main's build, or verify.ts itself when main runs from its sources (tsx, tests). */
function verifierEntry(): string {
  return import.meta.url.endsWith('.ts')
    ? new URL('./verify.ts', import.meta.url).href
    : pathToFileURL(threadFile('nom151-verify.js', import.meta.url)).href;
}

const shared = createVerifier();

/** Every verification in the app goes through here (see above). */
export const verifyEvidence = (input: VerifyInput) => shared.verify(input);
