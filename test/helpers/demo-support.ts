import { PNG } from 'pngjs';
import jpeg from 'jpeg-js';
import { serviceDestination } from '../../main/auth/destination';
import { MemoryVault } from '../../main/auth/memory-vault';
import { OmniClient } from '../../main/omni/client';
import type { OmniError } from '../../main/omni/omni-error';
import { startDemoServer, type DemoServer, type DemoServerOptions } from '../../main/demo-server';

/** Shared set-up for the demo-server integration tests: a server on a random loopback port and app clients for it. */

export interface Credentials {
  apiKey: string;
  integrationId: string;
  secret: string;
}

export interface DemoInterview {
  interviewId: string;
  sessionToken: string;
  sessionStatus: string;
  label: string;
  organizationId: string;
}

export interface SeenResponse {
  method: string;
  url: string;
  status: number;
  contentType: string;
  text: string;
}

export interface Harness {
  server: DemoServer;
  credentials: Credentials & { organizations: Array<Credentials & { organizationId: string; superAdmin: boolean }> };
  interviews: DemoInterview[];
  /** Every response any client of this harness received, for the conformance check. */
  seen: SeenResponse[];
  client(opts?: { credentials?: Credentials; retryAttempts?: number; now?: () => number }): Promise<OmniClient>;
  raw(
    path: string,
    init?: {
      method?: string;
      headers?: Record<string, string>;
      body?: unknown;
      token?: string;
      apiKey?: string | null;
      apiVersion?: string | null;
    },
  ): Promise<{ status: number; headers: Headers; json: any; text: string }>;
  serverToken(credentials?: Credentials): Promise<string>;
  session(interviewId: string): string;
  /** POST to a /__demo/ control route (reset, clock, faults). */
  demo(path: string, body?: unknown): Promise<any>;
  close(): Promise<void>;
}

export async function startHarness(opts: DemoServerOptions = {}): Promise<Harness> {
  const server = await startDemoServer(opts);
  const seen: SeenResponse[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    const text = await res.clone().text();
    seen.push({
      method: init?.method ?? 'GET',
      url: String(input),
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      text,
    });
    return res;
  };
  const credentials = await (await fetch(`${server.url}/__demo/credentials`)).json();
  const interviews: DemoInterview[] = await (await fetch(`${server.url}/__demo/interviews`)).json();

  const harness: Harness = {
    server,
    credentials,
    interviews,
    seen,
    async client({ credentials: creds = credentials, retryAttempts = 1, now } = {}) {
      const vault = new MemoryVault();
      const envId = 'demo';
      const to = serviceDestination({ id: envId, baseUrl: server.url, authUrl: server.url });
      await vault.setCredential(to, 'apiKey', creds.apiKey);
      await vault.setCredential(to, 'integrationId', creds.integrationId);
      await vault.setCredential(to, 'secret', creds.secret);
      for (const i of interviews) await vault.setSessionToken(to, i.interviewId, i.sessionToken);
      return new OmniClient({
        env: {
          id: envId,
          baseUrl: server.url,
          authUrl: server.url,
          apiVersion: '1.0',
          tokenHeader: 'X-Incode-Hardware-Id',
        },
        vault,
        fetch: recordingFetch,
        retry: { attempts: retryAttempts, baseDelayMs: 5, maxDelayMs: 20 },
        ...(now ? { now } : {}),
      });
    },
    async raw(
      path,
      { method = 'GET', headers = {}, body, token, apiKey = credentials.apiKey, apiVersion = '1.0' } = {},
    ) {
      const all: Record<string, string> = { ...headers };
      if (apiVersion !== null) all['api-version'] = apiVersion;
      if (apiKey !== null) all['x-api-key'] = apiKey;
      if (token) all['X-Incode-Hardware-Id'] = token;
      if (body !== undefined) all['content-type'] ??= 'application/json';
      const res = await recordingFetch(`${server.url}${path}`, {
        method,
        headers: all,
        ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, json, text };
    },
    async serverToken(creds = credentials) {
      const res = await harness.raw('/v1/integration/authorize/server', {
        method: 'POST',
        apiKey: creds.apiKey,
        body: { integration_id: creds.integrationId, integrationId: creds.integrationId, secret: creds.secret },
      });
      if (res.status !== 200) throw new Error(`authorize failed: ${res.text}`);
      return res.json.token as string;
    },
    session(interviewId) {
      const found = interviews.find((i) => i.interviewId === interviewId);
      if (!found) throw new Error(`no seeded interview ${interviewId}`);
      return found.sessionToken;
    },
    async demo(path, body) {
      const res = await fetch(`${server.url}/__demo/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      });
      if (!res.ok) throw new Error(`/__demo/${path} answered ${res.status}: ${await res.text()}`);
      return res.json();
    },
    close: () => server.close(),
  };
  return harness;
}

/** A deterministic pseudo-random generator, so test images are the same on every run. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export interface ImageSpec {
  width?: number;
  height?: number;
  /** Mean luminance 0..255. */
  mean?: number;
  /** Amplitude of per-pixel noise (sharp texture); 0 gives a flat image. */
  noise?: number;
  /** Smooth horizontal gradient amplitude (no edges: blurry). */
  gradient?: number;
  /** Share of pixels set to pure white (glare). */
  glare?: number;
}

function pixels({ width = 320, height = 240, mean = 140, noise = 60, gradient = 0, glare = 0 }: ImageSpec): {
  width: number;
  height: number;
  data: Buffer;
} {
  const random = rng(width * 31 + height);
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      let v = mean + (random() - 0.5) * 2 * noise + (gradient ? (x / width - 0.5) * gradient : 0);
      if (glare && random() < glare) v = 255;
      const c = Math.max(0, Math.min(255, Math.round(v)));
      data[i] = c;
      data[i + 1] = c;
      data[i + 2] = c;
      data[i + 3] = 255;
    }
  }
  return { width, height, data };
}

export function pngBase64(spec: ImageSpec = {}): string {
  const { width, height, data } = pixels(spec);
  const png = new PNG({ width, height });
  data.copy(png.data);
  return PNG.sync.write(png).toString('base64');
}

export function jpegBase64(spec: ImageSpec = {}): string {
  return Buffer.from(jpeg.encode(pixels(spec), 92).data).toString('base64');
}

/** A clear, bright, sharp photo: passes every pixel check. */
export const GOOD_IMAGE = pngBase64();

/** Resolves with the error a call was expected to fail with; a call that succeeds fails the test. */
export const fail = (p: Promise<unknown>): Promise<OmniError> =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: OmniError) => e,
  );
