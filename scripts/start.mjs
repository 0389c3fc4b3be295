#!/usr/bin/env node
/**
 * `npm start`: the Electron app where Electron's binary exists; otherwise says why and starts the same app in the
 * system browser through the web shell (`npm run start:web`). Extra arguments go to the web shell.
 */
import { spawn } from 'node:child_process';
import { electronBinary } from './electron-binary.mjs';

const root = new URL('..', import.meta.url).pathname;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
}

const electron = electronBinary();
if (electron.path) {
  run(npm, ['exec', '--', 'electron-vite', 'preview']);
} else {
  process.stdout.write(`Electron is not available here (${electron.reason}); starting the web shell in your browser instead.\n`);
  run(npm, ['run', '--silent', 'start:web', '--', ...process.argv.slice(2)]);
}
