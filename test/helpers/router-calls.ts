import type { IpcErrorData } from '../../common/ipc/define';
import type { AuditAction } from '../../common/views';
import type { createRouter } from '../../main/ipc/router';
import type { MainContext } from '../../main/ports';

/** The window the integration tests call the router from: the app's own main frame. */
export const APP_URL = 'http://127.0.0.1:1';
export const APP_SENDER = { url: `${APP_URL}/`, isMainFrame: true };

/** A channel called through the router as the renderer would; a refusal throws with its IPC error under `data`. */
export async function callThrough<T>(
  router: ReturnType<typeof createRouter>,
  channel: string,
  input: unknown,
): Promise<T> {
  const result = await router.handle(channel, input, APP_SENDER);
  if (!result.ok)
    throw Object.assign(new Error(`${channel}: ${result.error.code} ${result.error.message.en}`), {
      data: result.error,
    });
  return result.data as T;
}

/** The IPC error a call was refused with; fails the test when it went through. */
export const failure = (p: Promise<unknown>): Promise<IpcErrorData> =>
  p.then(
    () => Promise.reject(new Error('expected a failure')),
    (e: { data: IpcErrorData }) => e.data,
  );

/** Just what the validation and API-key services use of the main context: the client, an audit sink, saved files. */
export function serviceContext(client: unknown, saved: { suggestedName: string; data: Uint8Array }[]): MainContext {
  return {
    omni: () => client,
    audit: {
      append: async (e: { action: AuditAction }) => ({
        ...e,
        seq: 1,
        at: '',
        environment: 'demo',
        prevHash: '',
        hash: '',
      }),
    },
    files: {
      save: async (file: { suggestedName: string; data: Uint8Array }) => {
        saved.push(file);
        return { downloadUrl: `/download/${saved.length}` };
      },
    },
  } as unknown as MainContext;
}
