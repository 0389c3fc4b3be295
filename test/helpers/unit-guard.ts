import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

/**
 * Setup of the `unit` project (vitest.config.ts): a unit test starts no server, no PostgreSQL, no web shell, no
 * browser and no child process, so `npm run test:unit` answers in seconds. Each of those listens on a socket or starts
 * a process, so here both throw, naming the way out: a file that needs one belongs to the `integration` project.
 */
const why = 'so it is an integration test: name it *.integration.test.ts, or list it in vitest.config.ts (integration)';

const processStarters = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
for (const name of processStarters) {
  Object.assign(childProcess, {
    [name]: () => {
      throw new Error(`This unit test starts a child process (child_process.${name}), ${why}.`);
    },
  });
}
net.Server.prototype.listen = function listen(): never {
  throw new Error(`This unit test starts a server (it listens on a socket), ${why}.`);
};
// `import { spawn } from 'node:child_process'` reads the module's named exports: bring them in line.
syncBuiltinESMExports();
