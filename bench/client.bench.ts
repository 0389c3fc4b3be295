import { performance } from 'node:perf_hooks';
import { serviceDestination } from '../main/auth/destination';
import { MemoryVault } from '../main/auth/memory-vault';
import { startDemoServer } from '../main/demo-server';
import { createLogger } from '../main/log';
import { OmniClient, type ClientEnvironment } from '../main/omni/client';
import type { Targets } from './targets';

/**
 * The client's cost over the network: latency of `client.call` divided by a bare `fetch` of the same request
 * (same URL, headers and token, JSON parsed), against the same local demo server in the same run, interleaved
 * so both see the same machine load. Plus the number of authorizations 1,000 concurrent calls cause.
 * The client's share includes what the bare fetch skips: input and response validation, the vault read, and the
 * AbortSignal that carries its timeout and cancellation (about half of the difference).
 *
 * - `client-p50-ratio`: on loopback, where a call takes ~1 ms. No target: the client's cost per call is fixed, so
 *   this ratio says how short a loopback call is as much as what the client adds (docs/bench.md).
 * - `client-overhead-us-p50`: that fixed cost, client p50 minus bare p50 in microseconds, same samples.
 * - `client-p50-ratio-20ms-service`: the same comparison with the demo server answering 20 ms late, a service on
 *   the same network: the share of a call's time the client adds where the service sets the pace.
 */
export const targets: Targets = {
  'client-p50-ratio-20ms-service': { atMost: 1.05 },
  'authorizations-for-1000-calls': { exactly: 1 },
};

const WARMUP = 300;
const SAMPLES = 3000;
const SERVICE_DELAY_MS = 20;
/** Fewer pairs with the delay: each takes 40 ms, and the ratio there moves far less than on loopback. */
const DELAYED_WARMUP = 20;
const DELAYED_SAMPLES = 400;

export default async function (): Promise<Record<string, number>> {
  const server = await startDemoServer();
  try {
    const creds = (await (await fetch(`${server.url}/__demo/credentials`)).json()) as {
      apiKey: string;
      integrationId: string;
      secret: string;
    };
    const env: ClientEnvironment = {
      id: 'bench',
      baseUrl: server.url,
      authUrl: server.url,
      apiVersion: '1.0',
      tokenHeader: 'X-Incode-Hardware-Id',
    };
    const vault = new MemoryVault();
    await vault.setCredential(serviceDestination(env), 'apiKey', creds.apiKey);
    await vault.setCredential(serviceDestination(env), 'integrationId', creds.integrationId);
    await vault.setCredential(serviceDestination(env), 'secret', creds.secret);

    let authorizations = 0;
    const countingFetch: typeof fetch = (input, init) => {
      if (String(input).endsWith('/v1/integration/authorize/server')) authorizations++;
      return fetch(input, init);
    };
    const quiet = createLogger({ sink: () => undefined });

    // 1,000 concurrent calls on a client without a token.
    const cold = new OmniClient({ env, vault, fetch: countingFetch, logger: quiet });
    await Promise.all(Array.from({ length: 1000 }, () => cold.call('listApiKeys', {})));
    const authorizationsFor1000 = authorizations;

    const client = new OmniClient({ env, vault, logger: quiet });
    await client.call('listApiKeys', {});
    // The bare request: the same URL and headers the client sends, with a server token of its own.
    const authorized = await fetch(`${server.url}/v1/integration/authorize/server`, {
      method: 'POST',
      headers: { 'api-version': '1.0', 'x-api-key': creds.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        integration_id: creds.integrationId,
        integrationId: creds.integrationId,
        secret: creds.secret,
      }),
    });
    const { token } = (await authorized.json()) as { token: string };
    const url = `${server.url}/omni/api-key`;
    const headers = { 'api-version': '1.0', 'x-api-key': creds.apiKey, 'X-Incode-Hardware-Id': token };
    const bare = async () => {
      const res = await fetch(url, { method: 'GET', headers });
      if (!res.ok) throw new Error(`bare fetch answered ${res.status}`);
      return res.json();
    };
    const viaClient = () => client.call('listApiKeys', {});

    const { tBare, tClient } = await interleaved(bare, viaClient, WARMUP, SAMPLES);
    // Last: the delay stays on the demo server until it closes.
    const fault = await fetch(`${server.url}/__demo/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ route: 'listApiKeys', kind: 'delay', delayMs: SERVICE_DELAY_MS, times: 10_000 }),
    });
    if (!fault.ok) throw new Error(`the demo server refused a delay: ${fault.status}`);
    const delayed = await interleaved(bare, viaClient, DELAYED_WARMUP, DELAYED_SAMPLES);
    if (percentile(delayed.tBare, 0) < SERVICE_DELAY_MS)
      throw new Error('a delayed call answered sooner than the delay');
    return {
      'client-p50-ratio': percentile(tClient, 0.5) / percentile(tBare, 0.5),
      'client-overhead-us-p50': Math.round((percentile(tClient, 0.5) - percentile(tBare, 0.5)) * 1000),
      'client-p99-ratio': percentile(tClient, 0.99) / percentile(tBare, 0.99),
      'client-p50-ratio-20ms-service': percentile(delayed.tClient, 0.5) / percentile(delayed.tBare, 0.5),
      'authorizations-for-1000-calls': authorizationsFor1000,
    };
  } finally {
    await server.close();
  }
}

/** Pairs of calls, alternating which goes first so neither always gets the warmer socket. */
async function interleaved(
  bare: () => Promise<unknown>,
  viaClient: () => Promise<unknown>,
  warmup: number,
  samples: number,
) {
  for (let i = 0; i < warmup; i++) {
    await bare();
    await viaClient();
  }
  const tBare: number[] = [];
  const tClient: number[] = [];
  for (let i = 0; i < samples; i++) {
    if (i % 2 === 0) {
      tBare.push(await time(bare));
      tClient.push(await time(viaClient));
    } else {
      tClient.push(await time(viaClient));
      tBare.push(await time(bare));
    }
  }
  return { tBare, tClient };
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
