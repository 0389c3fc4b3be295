import { homedir } from 'node:os';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DemoProfile } from '../demo-server/production-profile';
import { DataDirInUseError } from '../errors';
import { openerFile, openThroughPrivateFile, resetWebShellDemoData, startWebShell } from './index';
import { privateUmask } from '../private-files';

/**
 * `npm run start:web -- [--port N] [--no-open] [--data-dir DIR] [--static-dir DIR]`: the app in the system browser, served from
 * 127.0.0.1. Prints one line, `Omni Reviewer ready at <url>`; the URL's fragment holds the per-launch key.
 * `--reset-demo-data` forgets the demo environment's queue, drafts and decisions in the data folder, and exits.
 * `--demo-profile production-like` makes the built-in demo service answer as a production service does
 * (docs/demo-server.md, "Production profile").
 */
function defaultDataDir(): string {
  if (process.env.OMNI_REVIEWER_DATA_DIR) return process.env.OMNI_REVIEWER_DATA_DIR;
  if (process.platform === 'win32')
    return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Omni Reviewer', 'web');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Omni Reviewer', 'web');
  return join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'omni-reviewer', 'web');
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

const USAGE =
  'Usage: npm run start:web -- [--port N] [--no-open] [--data-dir DIR] [--static-dir DIR] [--reset-demo-data] [--demo-profile spec|production-like]';

let values: {
  port?: string;
  'no-open'?: boolean;
  'data-dir'?: string;
  'static-dir'?: string;
  'reset-demo-data'?: boolean;
  'demo-profile'?: string;
  help?: boolean;
};
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string' },
      'no-open': { type: 'boolean' },
      'data-dir': { type: 'string' },
      'static-dir': { type: 'string' },
      'reset-demo-data': { type: 'boolean' },
      'demo-profile': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  }));
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const dataDir = values['data-dir'] ?? defaultDataDir();
if (values['reset-demo-data']) {
  try {
    const { interviews } = await resetWebShellDemoData(dataDir);
    process.stdout.write(
      `Demo data reset in ${dataDir}: ${interviews} interview(s) removed from the demo queue, with their drafts and decisions. The audit trail is kept.\n` +
        `Datos de demostración restablecidos en ${dataDir}: se quitaron ${interviews} entrevista(s) de la bandeja, con sus borradores y decisiones. La bitácora de auditoría se conserva.\n`,
    );
    process.exit(0);
  } catch (error) {
    fail(
      error instanceof DataDirInUseError
        ? error.message
        : `Demo data could not be reset / No se pudieron restablecer los datos de demostración: ${(error as Error).message}`,
    );
  }
}
if (values['demo-profile'] !== undefined) {
  const profile = DemoProfile.safeParse(values['demo-profile']);
  if (!profile.success) fail(`--demo-profile must be spec or production-like, got "${values['demo-profile']}".`);
  // Read by the demo server when the app starts it (main/demo-server/production-profile.ts).
  process.env.OMNI_DEMO_PROFILE = profile.data;
}
// A port of its own at each launch, so the app's origin never repeats: a page another local user served on a fixed
// port while no shell ran there could leave a service worker behind that reads the next launch's key.
const port = values.port === undefined ? 0 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`--port must be a number from 0 to 65535, got "${values.port}".`);

// Everything this program writes (settings, vault, the record's files) is for its user alone.
privateUmask();
try {
  const shell = await startWebShell({
    port,
    dataDir,
    ...(values['static-dir'] ? { staticDir: values['static-dir'] } : {}),
  });
  process.stdout.write(`Omni Reviewer ready at ${shell.appUrl}\n`);
  // Not appUrl: a command line is readable by other local users, so the browser gets a private file's path instead.
  if (!values['no-open']) openThroughPrivateFile(dataDir, shell.host.oneTimeOpenUrl());
  const stop = () => {
    rmSync(openerFile(dataDir), { force: true });
    void shell.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  if (error instanceof DataDirInUseError) fail(error.message);
  if (code === 'EADDRINUSE')
    fail(`Port ${port} is already in use. Pick another with --port, or --port 0 for any free port.`);
  fail(`Omni Reviewer could not start: ${(error as Error).message}`);
}
