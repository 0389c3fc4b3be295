import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PNG } from 'pngjs';
import { startDemoServer } from '../main/demo-server';

/**
 * Demo server throughput against a bare node:http server answering the same bytes, in the same run:
 * `demo-read-rps-ratio` on a read endpoint (raw IDV results) and `demo-upload-rps-ratio` on a selfie upload
 * (the demo decodes and measures the image; the bare server only reads the body). 1.0 would mean no overhead.
 */

const DURATION_MS = 2_000;
const WARMUP_MS = 300;
const CONCURRENCY = 8;

interface Target {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: Buffer;
}

async function requestsPerSecond(target: Target): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(target.url, { method: target.method, headers: target.headers, agent }, (res) => {
        res.on('data', () => {});
        res.on('end', () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`${target.url} answered ${res.statusCode}`)),
        );
      });
      req.on('error', reject);
      req.end(target.body);
    });
  const run = async (ms: number) => {
    let done = 0;
    const until = performance.now() + ms;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < until) {
          await once();
          done++;
        }
      }),
    );
    return done;
  };
  await run(WARMUP_MS);
  const started = performance.now();
  const done = await run(DURATION_MS);
  agent.destroy();
  return done / ((performance.now() - started) / 1000);
}

/** A bare server that answers every request with fixed bytes after reading the whole body. */
async function bareServer(payload: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.on('data', () => {});
    req.on('end', () =>
      res
        .writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(payload),
        })
        .end(payload),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function selfiePng(): string {
  const png = new PNG({ width: 320, height: 240 });
  let seed = 7;
  for (let i = 0; i < png.data.length; i += 4) {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    const v = 80 + (seed >>> 24) / 2;
    png.data[i] = v;
    png.data[i + 1] = v;
    png.data[i + 2] = v;
    png.data[i + 3] = 255;
  }
  return PNG.sync.write(png).toString('base64');
}

export default async function demoBench(): Promise<Record<string, number>> {
  const demo = await startDemoServer();
  try {
    const credentials = await (await fetch(`${demo.url}/__demo/credentials`)).json();
    const interviews: Array<{ interviewId: string; sessionToken: string }> = await (
      await fetch(`${demo.url}/__demo/interviews`)
    ).json();
    const base = { 'api-version': '1.0', 'x-api-key': credentials.apiKey as string };
    const auth = await fetch(`${demo.url}/v1/integration/authorize/server`, {
      method: 'POST',
      headers: { ...base, 'content-type': 'application/json' },
      body: JSON.stringify({ integration_id: credentials.integrationId, secret: credentials.secret }),
    });
    const { token } = await auth.json();

    const readPath = '/omni/get/raw-idv-results?id=demo-fraud-high';
    const readHeaders = { ...base, 'X-Incode-Hardware-Id': token as string };
    const readPayload = await (await fetch(demo.url + readPath, { headers: readHeaders })).text();

    const session = interviews.find((i) => i.interviewId === 'demo-clean-pass')!.sessionToken;
    const uploadPath = '/omni/add/face/third-party';
    const uploadBody = Buffer.from(JSON.stringify({ base64Image: selfiePng() }));
    const uploadHeaders = {
      ...base,
      'X-Incode-Hardware-Id': session,
      'content-type': 'application/json',
      'content-length': String(uploadBody.length),
    };
    const uploadPayload = await (
      await fetch(demo.url + uploadPath, { method: 'POST', headers: uploadHeaders, body: uploadBody })
    ).text();

    const bareRead = await bareServer(readPayload);
    const bareUpload = await bareServer(uploadPayload);
    try {
      const bareReadRps = await requestsPerSecond({
        url: bareRead.url + readPath,
        method: 'GET',
        headers: readHeaders,
      });
      const demoReadRps = await requestsPerSecond({ url: demo.url + readPath, method: 'GET', headers: readHeaders });
      const bareUploadRps = await requestsPerSecond({
        url: bareUpload.url + uploadPath,
        method: 'POST',
        headers: uploadHeaders,
        body: uploadBody,
      });
      const demoUploadRps = await requestsPerSecond({
        url: demo.url + uploadPath,
        method: 'POST',
        headers: uploadHeaders,
        body: uploadBody,
      });
      return {
        'demo-read-rps-ratio': demoReadRps / bareReadRps,
        'demo-upload-rps-ratio': demoUploadRps / bareUploadRps,
      };
    } finally {
      await bareRead.close();
      await bareUpload.close();
    }
  } finally {
    await demo.close();
  }
}
