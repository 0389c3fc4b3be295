import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PoolConfig } from 'pg';
import { isLoopbackHost } from '../../common/ipc/settings';
import { ReviewError } from '../errors';
import { currentSchemaFingerprint } from './migrate';
import { PRIVATE_DIR_MODE } from '../private-files';

const require = createRequire(import.meta.url);

/** Where the review record lives: the embedded engine in the user's data folder, or a team's PostgreSQL server. */
export type RecordEngine = { kind: 'embedded'; dataDir: string } | ({ kind: 'team'; waits?: LockWaits } & TeamDatabase);

/**
 * How long the app's sessions on a team's server wait. A transaction left open elsewhere (a client frozen or cut off
 * mid-write, a psql session left at BEGIN) holds the trail's lock, which every decision, note and entry waits for:
 * a write gives up after `lockMs` and says whose session holds it (while-away.ts), instead of hanging; and a
 * transaction of this app's own left idle (its process frozen, its network cut) is ended by the server after
 * `idleInTransactionMs`, so it never holds up the team for longer.
 */
export interface LockWaits {
  lockMs: number;
  idleInTransactionMs: number;
}
const TEAM_LOCK_WAITS: LockWaits = { lockMs: 20_000, idleInTransactionMs: 60_000 };

export interface TeamDatabase {
  host: string;
  port: number;
  database: string;
  user: string;
  password?: string;
  /** `verify-full`: TLS with the server's certificate checked against the system's roots (or `ca`). */
  tls: 'disable' | 'verify-full';
  /** PEM of the CA that signed the server's certificate, when it is not a public one. */
  ca?: string;
}

/** How main connects to a running engine (node-postgres pool settings), and how to stop the engine. */
export interface RunningEngine {
  connection: PoolConfig;
  /** Connections the engine takes at once: PGlite is one session, so the pool must not interleave transactions. */
  maxConnections: number;
  /** Embedded, made by initdb at this start: once its schema is made, kept as the copy new databases start from. */
  keepAsTemplate?: () => Promise<void>;
  /** Embedded, its folder empty at this start: a record nobody has worked in yet (a first run). */
  isNew?: boolean;
  stop(): Promise<void>;
}

/**
 * PGlite's settings. Its defaults (128 MB shared buffers) cost ~280 MB of memory; a queue of 100,000 interviews
 * fits in far less. Measured in bench/ (embedded-db-extra-rss-mb).
 */
export const EMBEDDED_SETTINGS = ['shared_buffers=16MB', 'work_mem=4MB', 'temp_buffers=4MB', 'wal_buffers=1MB'];

/** PGlite's compiled WebAssembly module and file-system bundle, shared by the engines this process starts. */
interface PgliteArtifacts {
  wasmModule: WebAssembly.Module;
  fsBundle: Blob;
}
let pgliteArtifacts: PgliteArtifacts | undefined;

/**
 * Starts PGlite on a thread of its own, so a slow query never holds main's IPC. It speaks the PostgreSQL protocol on
 * a Unix socket in a private temporary folder (a socket path must be short; the folder is 0700), so main talks to it
 * with the same driver and the same queries as to a team's server.
 */
export async function startEmbedded(dataDir: string): Promise<RunningEngine> {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  // The folder keeps others out of PGlite's files, whatever their own modes; one made readable by hand is closed again.
  if (process.platform !== 'win32') chmodSync(dataDir, PRIVATE_DIR_MODE);
  const socketDir = mkdtempSync(join(tmpdir(), 'omni-db-'));
  // Windows has no Unix sockets node-postgres can use: loopback TCP on a free port instead.
  const listen =
    process.platform === 'win32'
      ? { host: '127.0.0.1', port: await freePort() }
      : { path: join(socketDir, '.s.PGSQL.5432') };
  const template = await emptyDatabaseCopy();
  const worker = new Worker(threadFile('embedded-worker.mjs'), {
    workerData: { dataDir, listen, settings: EMBEDDED_SETTINGS, template, artifacts: pgliteArtifacts },
  });
  type FirstWord = { ready?: true; madeNew?: boolean; fresh?: boolean; failed?: string; artifacts?: PgliteArtifacts };
  const first: FirstWord = await new Promise<FirstWord>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  }).catch((error: unknown) => ({ failed: error instanceof Error ? error.message : String(error) }));
  if (first.ready) pgliteArtifacts ??= first.artifacts;
  if (!first.ready) {
    await worker.terminate();
    rmSync(socketDir, { recursive: true, force: true });
    throw embeddedFailed(first.failed ?? 'no answer');
  }
  return {
    connection:
      'path' in listen
        ? { host: socketDir, port: 5432, user: 'postgres', database: 'postgres' }
        : { host: listen.host, port: listen.port, user: 'postgres', database: 'postgres' },
    maxConnections: 1,
    isNew: first.fresh === true,
    ...(first.madeNew && template
      ? {
          keepAsTemplate: async () => {
            const kept = new Promise((resolve) => worker.once('message', resolve));
            worker.postMessage('keep-as-template');
            await kept;
          },
        }
      : {}),
    async stop() {
      const stopped = new Promise((resolve) => worker.once('message', resolve));
      worker.postMessage('stop');
      await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      await worker.terminate();
      rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

/** The pool settings of a team's server. A server on another machine is reached only over verified TLS. */
export function teamConnection(team: TeamDatabase, waits: LockWaits = TEAM_LOCK_WAITS): RunningEngine {
  if (team.tls === 'disable' && !isLoopbackHost(team.host)) throw tlsRequired(team.host);
  return {
    connection: {
      host: team.host,
      port: team.port,
      database: team.database,
      user: team.user,
      // Without a password saved for this very address, a server that asks for one gets none (not PGPASSWORD either).
      password: team.password ?? noPasswordHere,
      ssl: team.tls === 'verify-full' ? { rejectUnauthorized: true, ...(team.ca ? { ca: team.ca } : {}) } : false,
      connectionTimeoutMillis: 10_000,
      lock_timeout: waits.lockMs,
      idle_in_transaction_session_timeout: waits.idleInTransactionMs,
      // A cut network (no reset from the server) is found by the OS instead of hanging a query for good.
      keepAlive: true,
    },
    maxConnections: 10,
    stop: async () => undefined,
  };
}

async function noPasswordHere(): Promise<string> {
  throw new ReviewError(
    'TEAM_DATABASE_PASSWORD_NEEDED',
    {
      en: 'The team database asked for a password, and none is saved for this address and user.',
      es: 'La base de datos del equipo pidió una contraseña, y no hay ninguna guardada para esta dirección y usuario.',
    },
    {
      en: 'Type the password in Settings > Team database and save: a password is kept only for the address it was typed for.',
      es: 'Escribe la contraseña en Configuración > Base de datos del equipo y guarda: una contraseña se guarda solo para la dirección para la que se escribió.',
    },
  );
}

/**
 * A thread's file beside the module at `from` (this one by default), or its unpacked copy in a packaged app
 * (electron-builder.yml). In the build every module is main's bundle, so the threads are copied beside it.
 */
export function threadFile(name: string, from: string = import.meta.url): string {
  const beside = fileURLToPath(new URL(`./${name}`, from));
  const unpacked = beside.replace(`${sep}app.asar${sep}`, `${sep}app.asar.unpacked${sep}`);
  return unpacked !== beside && existsSync(unpacked) ? unpacked : beside;
}

/**
 * The folder where a copy of an empty database is kept for the next new one (a new data folder, a test), in a folder of this
 * user's that nobody else can write; undefined when that cannot be had (the copy is then not used).
 */
export async function emptyDatabaseCopy(): Promise<string | undefined> {
  try {
    const folder = join(tmpdir(), `omni-reviewer-${process.getuid?.() ?? 'user'}`);
    mkdirSync(folder, { mode: PRIVATE_DIR_MODE, recursive: true });
    const stats = lstatSync(folder);
    const own = process.getuid === undefined || stats.uid === process.getuid();
    if (!stats.isDirectory() || !own || (process.platform !== 'win32' && (stats.mode & 0o077) !== 0)) return undefined;
    // The copy is PGlite's own format, with this schema: one per PGlite version and migrations' content.
    const manifest = join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    return join(folder, `pglite-${version}-schema-${await currentSchemaFingerprint()}-empty`);
  } catch {
    return undefined;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function embeddedFailed(reason: string): ReviewError {
  return new ReviewError(
    'RECORD_EMBEDDED_FAILED',
    {
      en: 'The review database on this computer could not be opened.',
      es: 'No se pudo abrir la base de datos de revisión de esta computadora.',
    },
    {
      en: 'Close other copies of the app that use this data folder, then start again.',
      es: 'Cierra otras copias de la aplicación que usen esta carpeta de datos y vuelve a iniciar.',
    },
    { details: { reason } },
  );
}

function tlsRequired(host: string): ReviewError {
  return new ReviewError(
    'RECORD_TLS_REQUIRED',
    {
      en: `The team database at ${host} is on another machine, so the connection must be encrypted and its certificate checked.`,
      es: `La base de datos del equipo en ${host} está en otra máquina, así que la conexión debe ir cifrada y con su certificado verificado.`,
    },
    {
      en: 'Choose "TLS, certificate verified" in Settings.',
      es: 'Elige «TLS, certificado verificado» en Configuración.',
    },
  );
}
