import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** A real PostgreSQL server from Debian's `postgresql` package, in a temp folder, on a free loopback port. */
export interface TestPostgres {
  host: string;
  port: number;
  /** The superuser (trust authentication: the server listens on loopback only, for this test run). */
  user: string;
  /** A new, empty database for one test file. */
  createDatabase(name: string): Promise<string>;
  /** Runs SQL (statements separated by `;`) as the superuser in one database: a team's logins made, a grant given. */
  asSuperuser(database: string, sql: string): Promise<void>;
  /** Runs an SQL file with psql as the superuser, as an administrator would (`psql -f`); stops at the first error. */
  psql(file: string): void;
  /** Stops the server as a restart would (its connections are cut), keeping its data for `resume`. */
  pause(): void;
  /** Starts the paused server again on the same port. */
  resume(): void;
  stop(): Promise<void>;
}

function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const bin = versions.map((v) => join(root, v, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
  if (!bin) throw new Error("PostgreSQL's server is not installed: apt-get install postgresql (.ci/run does).");
  return bin;
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'omni-pg-'));
  // initdb refuses to run as root: the package's own postgres user runs the server then.
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) =>
    execFileSync(
      asRoot ? 'runuser' : join(bin, command),
      asRoot ? ['-u', 'postgres', '--', join(bin, command), ...args] : args,
      {
        stdio: 'pipe',
      },
    );
  if (asRoot) {
    const { uid, gid } = userIds('postgres');
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', 'start']);
  start();
  const admin = () => new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
  return {
    host: '127.0.0.1',
    port,
    user: 'postgres',
    async createDatabase(name) {
      const client = admin();
      await client.connect();
      try {
        await client.query(`create database "${name}"`);
      } finally {
        await client.end();
      }
      return name;
    },
    async asSuperuser(database, sql) {
      const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    },
    psql(file) {
      execFileSync(
        join(bin, 'psql'),
        [
          '-h',
          '127.0.0.1',
          '-p',
          String(port),
          '-U',
          'postgres',
          '-d',
          'postgres',
          '-v',
          'ON_ERROR_STOP=1',
          '-q',
          '-f',
          file,
        ],
        { stdio: 'pipe' },
      );
    },
    pause() {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    resume: start,
    async stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function userIds(name: string): { uid: number; gid: number } {
  const line = execFileSync('getent', ['passwd', name], { encoding: 'utf8' }).split(':');
  return { uid: Number(line[2]), gid: Number(line[3]) };
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

/** The database docs/team-database.sql makes, and its owner's password there. */
export const TEAM_DATABASE = 'omni_review';
const OWNER = { user: 'omni_owner', password: 'change-me-owner' };

/**
 * A team database set up as README says: docs/team-database.sql run by an administrator (its roles, ana, beto and
 * sofia), then the owner's first start migrating it. `owner` is a session of the tables' owner, as psql would open it.
 */
export async function startTeamPostgres(): Promise<{ server: TestPostgres; owner: pg.Client }> {
  const server = await startPostgres();
  server.psql(join(import.meta.dirname, '../../docs/team-database.sql'));
  // Loaded here, not at the top: most files that start a server never open a record through the app's code.
  const { openRecord } = await import('../../main/record/open');
  await (
    await openRecord({
      kind: 'team',
      host: server.host,
      port: server.port,
      database: TEAM_DATABASE,
      tls: 'disable',
      ...OWNER,
    })
  ).close();
  const owner = new pg.Client({ host: server.host, port: server.port, database: TEAM_DATABASE, ...OWNER });
  owner.on('error', () => undefined);
  await owner.connect();
  return { server, owner };
}
