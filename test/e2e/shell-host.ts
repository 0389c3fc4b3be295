import { createInterface } from 'node:readline';
import { startWebShell, type WebShell } from '../../main/web-shell/index';

/**
 * One process per Playwright worker that starts the worker's web shells one after another, in-process, as
 * `startWebShell` does for `npm run start:web` (main/web-shell/cli.ts): a test that needs only a fresh app gets a new
 * data folder, record, demo server and port without a new Node process (measured in docs/testing.md). Tests that
 * need their own environment variables start a process of their own (`startShell` in fixtures.ts).
 *
 * Commands, one JSON object a line on stdin: `{"op":"start","id":1,"dataDir":"…","staticDir":"…"}`,
 * `{"op":"stop","id":1}`. Answers on stdout, each on a line of its own: `@@shell 1 ready <url>`,
 * `@@shell 1 stopped`, `@@shell 1 failed <json message>`. An error nobody caught is printed as `@@uncaught <text>`
 * for the fixture to fail the test it happened in, instead of ending the process under the next tests.
 */
const shells = new Map<number, WebShell>();

function say(line: string) {
  process.stdout.write(`\n${line}\n`);
}

process.on('uncaughtException', (error) => say(`@@uncaught ${JSON.stringify(error?.stack ?? String(error))}`));
process.on('unhandledRejection', (error) =>
  say(`@@uncaught ${JSON.stringify((error as Error)?.stack ?? String(error))}`),
);

type Command = { op: 'start'; id: number; dataDir: string; staticDir?: string } | { op: 'stop'; id: number };

async function run(command: Command) {
  if (command.op === 'start') {
    try {
      const shell = await startWebShell({
        port: 0,
        dataDir: command.dataDir,
        ...(command.staticDir ? { staticDir: command.staticDir } : {}),
      });
      shells.set(command.id, shell);
      say(`@@shell ${command.id} ready ${shell.appUrl}`);
    } catch (error) {
      say(`@@shell ${command.id} failed ${JSON.stringify((error as Error).stack ?? String(error))}`);
    }
    return;
  }
  const shell = shells.get(command.id);
  shells.delete(command.id);
  try {
    await shell?.close();
    say(`@@shell ${command.id} stopped`);
  } catch (error) {
    say(`@@shell ${command.id} failed ${JSON.stringify((error as Error).stack ?? String(error))}`);
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim()) void run(JSON.parse(line) as Command);
});
// The worker is gone: close what is open, so each record's files are released before the process ends.
process.stdin.on('end', () => {
  void Promise.allSettled([...shells.values()].map((s) => s.close())).then(() => process.exit(0));
});
