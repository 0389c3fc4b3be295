#!/usr/bin/env node
/**
 * `npm start`: the Electron app where Electron's binary exists; otherwise says why and starts the same app in the
 * system browser through the web shell (`npm run start:web`). Extra arguments go to the web shell.
 */
import { spawn } from 'node:child_process';
import { downloadElectronBinary, electronBinary, missingTools } from './electron-binary.mjs';

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

let electron = electronBinary();
// Since Electron 42 the binary is fetched on first use, not at install: try once, and say plainly when it cannot be.
if (!electron.path && electron.downloadable && process.env.ELECTRON_SKIP_BINARY_DOWNLOAD !== '1') {
  process.stdout.write("Fetching Electron's binary (first start only, about 100 MB)...\n");
  const problem = downloadElectronBinary();
  electron = problem
    ? { reason: `its binary could not be downloaded from github.com or ELECTRON_MIRROR: ${problem}` }
    : electronBinary();
}
if (electron.path) {
  run(npm, ['exec', '--', 'electron-vite', 'preview']);
} else {
  process.stdout.write(
    `Electron is not available here (${electron.reason}); starting the web shell in your browser instead.\n` +
      `Electron no está disponible aquí; se abre el shell web en tu navegador.\n`,
  );
  run(npm, ['run', '--silent', 'start:web', '--', ...process.argv.slice(2)]);
}
