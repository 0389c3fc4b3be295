// The embedded engine's thread: PGlite (PostgreSQL in WebAssembly) serving the PostgreSQL protocol on a socket only
// this user can open. Plain JavaScript so it runs as it is from the sources (tsx, tests) and from the build.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const { dataDir, listen, settings, template } = workerData;
try {
  // A new database starts from a copy of an empty one made earlier on this machine (~1 s), not from initdb (~4 s).
  const fresh = !existsSync(join(dataDir, 'PG_VERSION'));
  const copy = fresh && template && existsSync(template) ? new Blob([readFileSync(template)]) : undefined;
  const db = await PGlite.create({ dataDir, postgresqlconf: settings, ...(copy ? { loadDataDir: copy } : {}) });
  const server = new PGLiteSocketServer({ db, ...listen, maxConnections: 8 });
  await server.start();
  parentPort.on('message', async (message) => {
    if (message === 'keep-as-template') {
      // Asked only right after the schema was made in a new database: nothing of anyone's work is in the copy.
      const dump = Buffer.from(await (await db.dumpDataDir('gzip')).arrayBuffer());
      const partial = `${template}.${process.pid}.partial`;
      writeFileSync(partial, dump, { mode: 0o600 });
      renameSync(partial, template);
      parentPort.postMessage({ kept: true });
    }
    if (message === 'stop') {
      await server.stop();
      await db.close();
      parentPort.postMessage({ stopped: true });
    }
  });
  parentPort.postMessage({ ready: true, madeNew: fresh && !copy });
} catch (error) {
  parentPort.postMessage({ failed: error instanceof Error ? error.message : String(error) });
}
