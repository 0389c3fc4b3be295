// The embedded engine's thread: PGlite (PostgreSQL in WebAssembly) serving the PostgreSQL protocol on a socket only
// this user can open. Plain JavaScript so it runs as it is from the sources (tsx, tests) and from the build.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const { dataDir, listen, settings } = workerData;
try {
  const db = await PGlite.create({ dataDir, postgresqlconf: settings });
  const server = new PGLiteSocketServer({ db, ...listen, maxConnections: 8 });
  await server.start();
  parentPort.on('message', async (message) => {
    if (message !== 'stop') return;
    await server.stop();
    await db.close();
    parentPort.postMessage({ stopped: true });
  });
  parentPort.postMessage({ ready: true });
} catch (error) {
  parentPort.postMessage({ failed: error instanceof Error ? error.message : String(error) });
}
