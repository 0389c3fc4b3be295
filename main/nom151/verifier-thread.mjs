// NOM-151 verification on a thread of its own (verifier.ts), where a PDF from outside is parsed under the thread's
// memory limit and main's time limit. Plain JavaScript, as the record's threads: from the build it imports the
// bundled verifier (out/main/nom151-verify.js), from the sources it has tsx compile verify.ts.
import { parentPort, workerData } from 'node:worker_threads';

const { verifyEvidence } = workerData.entry.endsWith('.ts')
  ? await (await import('tsx/esm/api')).tsImport(workerData.entry, import.meta.url)
  : await import(workerData.entry);

parentPort.on('message', async ({ id, input }) => {
  try {
    parentPort.postMessage({ id, result: await verifyEvidence(input) });
  } catch (error) {
    parentPort.postMessage({ id, failed: error instanceof Error ? error.message : String(error) });
  }
});
parentPort.postMessage({ ready: true });
