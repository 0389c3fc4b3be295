#!/usr/bin/env node
/**
 * `npm start`: the Electron app where Electron's binary exists; otherwise says why and starts the same app in the
 * system browser through the web shell (`npm run start:web`). Extra arguments go to the web shell.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { downloadElectronBinary, electronBinary, electronVersion, missingTools } from './electron-binary.mjs';

const root = new URL('..', import.meta.url).pathname;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
}

// After a failed or missing install nothing below can run: say so instead of "vite: not found".
const missing = missingTools();
if (missing.length > 0) {
  process.stderr.write(
    `The project's packages are not installed (${missing.join(', ')} missing). Run npm install, then npm start.\n` +
      `Los paquetes del proyecto no están instalados (faltan ${missing.join(', ')}). Ejecuta npm install y luego npm start.\n`,
  );
  process.exit(1);
}

/**
 * The web shell's data folder (as main/web-shell/cli.ts picks it): where this script remembers that Electron's
 * binary could not be had, so a start without it says so once rather than at every start.
 */
function dataDir(args) {
  const given = args.indexOf('--data-dir');
  if (given >= 0 && args[given + 1]) return args[given + 1];
  if (process.env.OMNI_REVIEWER_DATA_DIR) return process.env.OMNI_REVIEWER_DATA_DIR;
  if (process.platform === 'win32')
    return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Omni Reviewer', 'web');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Omni Reviewer', 'web');
  return join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'omni-reviewer', 'web');
}

const webShellArgs = process.argv.slice(2);
const noteFile = join(dataDir(webShellArgs), 'electron-binary-absent.json');

/** The Electron version whose absence was already told, or undefined (never told, or a version since installed). */
function alreadyTold() {
  try {
    const note = JSON.parse(readFileSync(noteFile, 'utf8'));
    return note.electronVersion === electronVersion() ? note : undefined;
  } catch {
    return undefined;
  }
}

function remember(reason) {
  try {
    mkdirSync(dataDir(webShellArgs), { recursive: true, mode: 0o700 });
    writeFileSync(noteFile, JSON.stringify({ electronVersion: electronVersion(), reason }) + '\n', { mode: 0o600 });
  } catch {
    // Not remembered: the next start says it again, which is all that is lost.
  }
}

let electron = electronBinary();
const told = electron.path ? undefined : alreadyTold();
const askedAgain = process.env.OMNI_FETCH_ELECTRON === '1';
// Since Electron 42 the binary is fetched on first use, not at install: try once (per Electron version, or when
// asked again), and say plainly when it cannot be.
if (
  !electron.path &&
  electron.downloadable &&
  process.env.ELECTRON_SKIP_BINARY_DOWNLOAD !== '1' &&
  (!told || askedAgain)
) {
  process.stdout.write("Fetching Electron's binary (about 100 MB)...\n");
  const problem = downloadElectronBinary();
  electron = problem
    ? { reason: `its binary could not be downloaded from github.com or ELECTRON_MIRROR: ${problem}` }
    : electronBinary();
}
if (electron.path) {
  rmSync(noteFile, { force: true });
  run(npm, ['exec', '--', 'electron-vite', 'preview']);
} else {
  if (!told || askedAgain) {
    process.stdout.write(
      `Electron is not available here (${electron.reason}); starting the web shell in your browser instead. ` +
        `Later starts go straight to the web shell; OMNI_FETCH_ELECTRON=1 npm start tries Electron again.\n` +
        `Electron no está disponible aquí; se abre el shell web en tu navegador. Los siguientes inicios van directo ` +
        `al shell web; OMNI_FETCH_ELECTRON=1 npm start vuelve a intentar con Electron.\n`,
    );
    remember(electron.reason);
  }
  run(npm, ['run', '--silent', 'start:web', '--', ...webShellArgs]);
}
