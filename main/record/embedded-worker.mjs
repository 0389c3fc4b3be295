// The embedded engine's thread: PGlite (PostgreSQL in WebAssembly) serving the PostgreSQL protocol on a socket only
// this user can open. Plain JavaScript so it runs as it is from the sources (tsx, tests) and from the build.
import { chmodSync, constants, copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import v8 from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';

// PostgreSQL's WebAssembly (~9 MB) is compiled by V8's baseline compiler only. With the optimizing tier on, V8
// recompiled it in the background at every start: ~2.8 s of CPU against ~1.0 s, and queries ran slower while it did
// (200 small queries: 483 ms against 63 ms, measured here). Set before PGlite is loaded, when it is compiled.
v8.setFlagsFromString('--liftoff-only');
const { PGlite } = await import('@electric-sql/pglite');
const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');

const { dataDir, listen, settings, template, artifacts } = workerData;

/**
 * PGlite's compiled WebAssembly and its file-system bundle, made by the process's first engine and handed to the
 * next ones by main: a second record in one process (a test's next web shell) skips compiling and reading them
 * again (about a third of an opening's CPU, docs/testing.md).
 */
async function pgliteArtifacts() {
  if (artifacts) return artifacts;
  const dist = new URL('./', import.meta.resolve('@electric-sql/pglite'));
  const [wasm, data] = await Promise.all([
    readFile(new URL('pglite.wasm', dist)),
    readFile(new URL('pglite.data', dist)),
  ]);
  return { wasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([data]) };
}

/** A folder copied file by file: Node 20's cpSync spends twice the CPU on the template's thousand small files. */
function copyFolder(from, to) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory()) copyFolder(join(from, entry.name), join(to, entry.name));
    else copyFileSync(join(from, entry.name), join(to, entry.name), constants.COPYFILE_FICLONE);
  }
}

try {
  // A new database starts as a copy of an empty, migrated one made earlier on this machine: a folder copy and an
  // opening (~1 s) instead of initdb (~4 s) or unpacking a dump (~3 s).
  const fresh = !existsSync(join(dataDir, 'PG_VERSION'));
  const copied = fresh && template && existsSync(join(template, 'PG_VERSION'));
  if (copied) {
    copyFolder(template, dataDir);
    // The copy takes the template's folder mode; the record's folder stays closed to others.
    if (process.platform !== 'win32') chmodSync(dataDir, 0o700);
  }
  const { wasmModule, fsBundle } = await pgliteArtifacts();
  const db = await PGlite.create({ dataDir, postgresqlconf: settings, pgliteWasmModule: wasmModule, fsBundle });
  const server = new PGLiteSocketServer({ db, ...listen, maxConnections: 8 });
  await server.start();
  parentPort.on('message', async (message) => {
    if (message === 'keep-as-template') {
      // Asked only right after the schema was made in a new database: nothing of anyone's work is in the copy.
      const partial = `${template}.${process.pid}.partial`;
      const copy = await PGlite.create({ dataDir: partial, loadDataDir: await db.dumpDataDir('none') });
      await copy.close();
      if (existsSync(template)) rmSync(partial, { recursive: true, force: true });
      else renameSync(partial, template);
      parentPort.postMessage({ kept: true });
    }
    if (message === 'stop') {
      await server.stop();
      await db.close();
      parentPort.postMessage({ stopped: true });
    }
  });
  parentPort.postMessage({
    ready: true,
    madeNew: fresh && !copied,
    fresh: Boolean(fresh),
    artifacts: { wasmModule, fsBundle },
  });
} catch (error) {
  parentPort.postMessage({ failed: error instanceof Error ? error.message : String(error) });
}
