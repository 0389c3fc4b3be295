import { SHELL_KEY_HEADER } from '../../common/web-shell';

/**
 * A channel called over a running web shell's HTTP IPC as its page calls it: from its origin, with the launch key
 * that the app's address carries (`#k=`). A refusal throws with the IPC error in the message.
 */
export async function callShell<T = unknown>(appUrl: string, channel: string, input: unknown = {}): Promise<T> {
  const url = new URL(appUrl);
  const key = url.hash.replace('#k=', '');
  const res = await fetch(`${url.origin}/ipc/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url.origin, [SHELL_KEY_HEADER]: key },
    body: JSON.stringify(input),
  });
  const result = (await res.json()) as { ok: boolean; data?: T; error?: unknown };
  if (!result.ok) throw new Error(`${channel} failed: ${JSON.stringify(result.error)}`);
  return result.data as T;
}
