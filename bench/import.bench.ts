import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import { pipeline } from 'node:stream/promises';
import { MemoryVault } from '../main/auth/vault';
import { READ_CHUNK_BYTES } from '../main/capture/file-chunks';
import { ImportJobs } from '../main/capture/import-jobs';
import { streamingFetch } from '../main/capture/streaming-fetch';
import type { CallInput } from '../main/omni/endpoints';
import { OmniClient } from '../main/omni/client';

/**
 * Video import of a 500 MB file through the app's streaming path (file chunks → base64 on 3-byte boundaries →
 * streamed JSON body → OmniClient) to a local server that counts and discards what it receives.
 *
 * - `import-500mb-extra-rss-mb`: this process's peak RSS during the import minus its RSS just before (MB).
 *   Reading the file whole would need over 1,000 (bytes + base64 + JSON string).
 * - `import-throughput-ratio`: file bytes per second of that import divided by a bare HTTP upload of the same file
 *   (raw bytes piped into node:http, same server) in the same run. Best of three rounds each, so a scheduling hiccup on a
 *   2-core machine does not decide the figure.
 */

const FILE_BYTES = 500 * 1024 * 1024;
const ROUNDS = 3;

/** The receiving server runs in its own process so its memory and CPU are not counted as the importer's. */
const SINK = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  let n = 0;
  req.on('data', (c) => { n += c.length; });
  req.on('end', () => {
    const body = JSON.stringify({ recordingId: 'rec-bench', receivedBytes: n });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));
`;

async function startSink(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', SINK], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = out.match(/port (\d+)/);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`sink exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

async function writeTestFile(path: string): Promise<void> {
  const handle = await open(path, 'w');
  const block = Buffer.alloc(4 * 1024 * 1024);
  for (let i = 0; i < block.length; i++) block[i] = (i * 131 + 7) & 0xff;
  block.writeUInt32BE(0x1a45dfa3, 0);
  try {
    for (let written = 0; written < FILE_BYTES; written += block.length) await handle.write(block, 0, Math.min(block.length, FILE_BYTES - written));
  } finally {
    await handle.close();
  }
}

/** The file's raw bytes piped into a plain node:http request: the fastest honest upload of the same data. */
async function bareUpload(url: string, path: string): Promise<number> {
  const started = performance.now();
  const received = await new Promise<number>((resolve, reject) => {
    const req = http.request(`${url}/bare`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', 'content-length': String(FILE_BYTES) } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve((JSON.parse(text) as { receivedBytes: number }).receivedBytes));
    });
    req.on('error', reject);
    pipeline(createReadStream(path, { highWaterMark: READ_CHUNK_BYTES }), req).catch(reject);
  });
  if (received !== FILE_BYTES) throw new Error(`bare upload sent ${received} bytes`);
  return performance.now() - started;
}

async function appImport(client: OmniClient, path: string): Promise<{ ms: number; peakExtraBytes: number }> {
  const jobs = new ImportJobs((e) => ({ code: 'X', message: { en: String(e), es: String(e) } }));
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  const started = performance.now();
  try {
    const job = await jobs.start({ interviewId: 'bench', filePath: path, fileName: 'bench.webm', type: 'selfie' }, (rawBody, { interviewId, signal }) =>
      client.call('importVideo', {} as CallInput<'importVideo'>, { interviewId, signal, rawBody }),
    );
    const done = await jobs.settled(job.jobId);
    if (done?.state !== 'done') throw new Error(`import ended ${done?.state}: ${JSON.stringify(done?.error)}`);
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage.rss());
  return { ms: performance.now() - started, peakExtraBytes: peak - baseline };
}

export default async function importBench(): Promise<Record<string, number>> {
  const path = join(tmpdir(), `omni-import-bench-${process.pid}.webm`);
  const sink = await startSink();
  try {
    await writeTestFile(path);
    const vault = new MemoryVault();
    await vault.setCredential('bench', 'apiKey', 'bench-api-key');
    await vault.setSessionToken('bench', 'bench', 'bench-session-token');
    const client = new OmniClient({ env: { id: 'bench', baseUrl: sink.url, authUrl: sink.url, apiVersion: '1.0', tokenHeader: 'X-Incode-Hardware-Id' }, vault, fetch: streamingFetch() });

    let bare = Infinity;
    let imported = Infinity;
    let peakExtra = 0;
    for (let round = 0; round < ROUNDS; round++) {
      bare = Math.min(bare, await bareUpload(sink.url, path));
      const run = await appImport(client, path);
      imported = Math.min(imported, run.ms);
      peakExtra = Math.max(peakExtra, run.peakExtraBytes);
    }
    return {
      'import-500mb-extra-rss-mb': Math.round((peakExtra / (1024 * 1024)) * 10) / 10,
      'import-throughput-ratio': Math.round((bare / imported) * 1000) / 1000,
    };
  } finally {
    sink.child.kill();
    await rm(path, { force: true });
  }
}
