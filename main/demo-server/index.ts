import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createDemoTsa, type DemoTsa } from '../nom151/tsa';
import { buildDemoApp } from './app';
import { DemoClock } from './clock';
import { profileFromEnv, type DemoProfile } from './production-profile';
import type { DemoDeps } from './context';
import { renderContractPdf } from './contract-pdf';
import { longCallBytes } from './media';
import { UrlSigner } from './signing';
import { DemoState } from './state';
import { TokenIssuer } from './tokens';

export interface DemoServerOptions {
  port?: number;
  /** Default 127.0.0.1; anything that is not loopback needs allowNonLoopback: true. */
  host?: string;
  allowNonLoopback?: boolean;
  /** Domains `imageUrl` may be fetched from (subdomains included). None by default. */
  imageUrlAllowList?: string[];
  /** Largest accepted request body; default 200 MB. */
  maxBodyBytes?: number;
  /** Host clock in epoch ms; /__demo/clock moves the server clock ahead of it. */
  now?: () => number;
  /** How the endpoints answer (docs/demo-server.md); default `OMNI_DEMO_PROFILE`, else `spec`. */
  profile?: DemoProfile;
}

export interface DemoServer {
  url: string;
  close(): Promise<void>;
  reset(): Promise<void>;
}

export const DEFAULT_MAX_BODY_BYTES = 200 * 1024 * 1024;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export async function startDemoServer(opts: DemoServerOptions = {}): Promise<DemoServer> {
  const host = opts.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && !opts.allowNonLoopback) {
    throw new Error(
      `The demo server binds loopback only; ${host} needs allowNonLoopback: true (--allow-non-loopback on the command line), because it serves demo credentials to anyone who can reach it.`,
    );
  }
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const clock = new DemoClock(opts.now);
  const recordingsDir = await mkdtemp(join(tmpdir(), 'omni-demo-recordings-'));
  const state = new DemoState(recordingsDir, opts.profile ?? profileFromEnv());
  const pdfCache = new Map<string, Promise<Uint8Array>>();
  let tsa: Promise<DemoTsa> | undefined;
  let origin = '';
  const longCallVideo = longCallBytes();
  // Awaited by the media route; this only keeps a failed build from being reported as unhandled before then.
  longCallVideo.catch(() => undefined);
  const deps: DemoDeps = {
    state,
    clock,
    tokens: new TokenIssuer(clock),
    signer: new UrlSigner(clock),
    // Key generation costs a few ms; do it once, on first use, and keep the chain for the life of the process.
    tsa: () => (tsa ??= createDemoTsa({ now: () => new Date(clock.now()) })),
    contractPdf: (interview, documentId) => {
      const contract = interview.contracts.find((c) => c.documentId === documentId);
      if (!contract) return Promise.reject(new Error(`no contract ${documentId}`));
      const key = `${interview.id}/${documentId}`;
      let pdf = pdfCache.get(key);
      if (!pdf) {
        pdf = renderContractPdf(contract, interview.fullName, interview.id);
        pdfCache.set(key, pdf);
      }
      return pdf;
    },
    longCallVideo: () => longCallVideo,
    imageUrlAllowList: opts.imageUrlAllowList ?? [],
    origin: () => origin,
  };
  // Bound to loopback, it checks Host too; bound elsewhere on purpose, clients name it however they reach it.
  const app = buildDemoApp(deps, maxBodyBytes, { loopbackHostOnly: isLoopbackHost(host) });
  await app.listen({ port: opts.port ?? 0, host });
  const address = app.server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  origin = `http://${urlHost}:${address.port}`;
  return {
    url: origin,
    async close() {
      await app.close();
      await rm(recordingsDir, { recursive: true, force: true });
    },
    async reset() {
      await state.reset();
      clock.reset();
    },
  };
}
