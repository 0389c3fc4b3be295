/** The header that carries the web shell's per-launch key on every IPC request (preload/web.ts sends it, main/web-shell/host.ts checks it). */
export const SHELL_KEY_HEADER = 'x-omni-shell-key';
