/**
 * Server figures of `npm run bench` (also runnable alone: `tsx bench/server-bench.ts`).
 * The real intake server runs as its own process on 127.0.0.1 (free port,
 * temp DATA_DIR, a stub web root), so the load generator does not share its
 * event loop:
 * - durable submits/s and p99 at 50 connections: autocannon posts valid
 *   requests with unique Idempotency-Keys; each names two photos registered
 *   beforehand straight in the photos table (the bench-only shortcut: no
 *   image decoding; a small JPEG file each, which the desk's mail attaches),
 *   so every submit still runs validation, the photo claim, the outbox
 *   inserts and the group commit with fsync before its 201, while the
 *   server mails (as .eml files) beside it;
 * - time to refuse a 33 MB upload (declared length; the streamed case in detail);
 * - server RSS growth during 8 concurrent 30 MB photo uploads (real JPEGs,
 *   decoded and re-encoded);
 * - a small upload's time while another client (another 127.0.0.x address)
 *   floods large PNGs: photo decoding takes turns between clients.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon, { type Options, type Result } from 'autocannon';
import sharp from 'sharp';
import { openStorage } from '../src/server/storage/storage';
import { largePatternPng } from '../tests/fixtures/photos';
import { simpleRequest } from '../tests/fixtures/requests';
import { freePort } from '../tests/support/free-port';
import type { BenchFigure } from './figures';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MB = 1024 * 1024;
const CONNECTIONS = 50;
const WARMUP_SUBMITS = 3_000;
const MEASURED_SUBMITS = 40_000;

export interface Server {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Spawns a TypeScript server script on a free port and waits for its /healthz. */
async function spawnServer(script: string, env: NodeJS.ProcessEnv): Promise<{ url: string; port: number; child: ChildProcess }> {
  const port = await freePort();
  // BENCH_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the server side.
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', join(ROOT, script)], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) break;
    if (i > 300) throw new Error(`${script} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, port, child };
}

function stopChild(child: ChildProcess): Promise<unknown> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  return exited;
}

/** The real server as its own process; `env` adds to (or overrides) the bench's settings. */
export async function startServer(env: Record<string, string> = {}): Promise<Server> {
  const root = mkdtempSync(join(tmpdir(), 'server-bench-'));
  const webRoot = join(root, 'web');
  mkdirSync(join(webRoot, 'assets'), { recursive: true });
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>bench</title>');
  const dataDir = join(root, 'data');
  const { url, port, child } = await spawnServer('src/server/server.ts', {
    DATA_DIR: dataDir,
    WEB_ROOT: webRoot,
    RATE_LIMIT_SUBMITS: '100000000',
    RATE_LIMIT_UPLOADS: '100000000',
    // The load generator is every client at once, from one address.
    MAX_CONNECTIONS_PER_CLIENT: '0',
    PHOTO_DECODE_PER_CLIENT: '100000',
    PHOTO_DECODE_QUEUE: '100000',
    PHOTO_QUOTA_PER_CLIENT_MB: '1000000',
    PHOTO_QUOTA_TOTAL_MB: '1000000',
    MIN_FREE_DISK_MB: '0',
    LOG_LEVEL: 'warn',
    ...env,
  });
  return {
    url,
    port,
    dataDir,
    child,
    async stop() {
      await stopChild(child);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/** CPU seconds (user + system, all threads) a process has used so far. */
function cpuSeconds(pid: number): number {
  // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks (100/s).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Photo names registered as uploaded, two per submit to come, each a file of `bytes` (the desk's mail attaches them). */
export async function seedPhotos(dataDir: string, count: number, bytes: Buffer, databaseUrl = ''): Promise<string[]> {
  const storage = await openStorage({ dataDir, databaseUrl, databasePoolSize: 1 });
  const names = Array.from({ length: count }, () => `${randomUUID()}.jpg`);
  const inRows = storage.sql.dialect === 'postgres';
  await storage.sql.transaction(async (tx) => {
    for (const name of names) {
      await (inRows
        ? tx.run('INSERT INTO photos (name, created_at, owner, bytes, data) VALUES (?, ?, ?, ?, ?)', [name, Date.now(), 'bench', bytes.length, bytes])
        : tx.run('INSERT INTO photos (name, created_at, owner, bytes) VALUES (?, ?, ?, ?)', [name, Date.now(), 'bench', bytes.length]));
    }
  });
  await storage.close();
  if (!inRows) for (const name of names) writeFileSync(join(dataDir, 'photos', name), bytes);
  return names;
}

function requestBody(image1: string, image2: string): string {
  return JSON.stringify({ ...simpleRequest(image1, image2), description: 'De oven wordt niet warm. '.repeat(8) });
}

interface TimedResult extends Result {
  /** 2xx answers divided by the time from the start to the last answer. */
  perSecond: number;
}

/**
 * Runs a load and measures throughput itself: autocannon's `requests.average` is a mean of
 * per-second samples and its `finish` waits for the next whole-second tick, so both can
 * only take values of amount / whole seconds.
 */
async function timedLoad(options: Options): Promise<TimedResult> {
  const started = performance.now();
  let last = started;
  let succeeded = 0;
  const run = autocannon(options).on('response', (_client, statusCode) => {
    last = performance.now();
    if (statusCode >= 200 && statusCode < 300) succeeded++;
  });
  const result = await run;
  return { ...result, perSecond: succeeded / ((last - started) / 1000) };
}

const BASELINE_REQUESTS = 60_000;

/** Req/s and p99 of a bare Fastify JSON echo at the same concurrency and body, this run, this machine. */
async function baselineLoad(): Promise<{ perSecond: number; p99: number }> {
  const echo = await spawnServer('bench/baseline-echo.ts', {});
  try {
    const body = requestBody(`${randomUUID()}.jpg`, `${randomUUID()}.jpg`);
    const run = (amount: number) =>
      timedLoad({
        url: `${echo.url}/echo`,
        connections: CONNECTIONS,
        amount,
        timeout: 10,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body,
      });
    await run(BASELINE_REQUESTS / 10);
    const result = await run(BASELINE_REQUESTS);
    return { perSecond: result.perSecond, p99: result.latency.p99 };
  } finally {
    await stopChild(echo.child);
  }
}

async function submitLoad(server: Server, amount: number, photos: string[]) {
  let next = 0;
  return timedLoad({
    url: server.url,
    connections: CONNECTIONS,
    amount,
    timeout: 10,
    requests: [
      {
        method: 'POST',
        path: '/api/forms/ilve',
        setupRequest: (req) => {
          const i = next++ % amount;
          return {
            ...req,
            headers: { 'content-type': 'application/json', accept: 'application/json', 'idempotency-key': randomUUID() },
            body: requestBody(photos[2 * i], photos[2 * i + 1]),
          };
        },
      },
    ],
  });
}

/** ms from sending the headers of a 33 MB upload to its 413; `declared` sends Content-Length. */
function refuseTime(server: Server, declared: boolean): Promise<number> {
  const boundary = 'benchboundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
  const headers: Record<string, string | number> = { 'content-type': `multipart/form-data; boundary=${boundary}` };
  if (declared) headers['content-length'] = 33 * MB;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let answered = false;
    const req = request({ host: '127.0.0.1', port: server.port, path: '/api/forms/images', method: 'POST', headers }, (res) => {
      answered = true;
      const ms = performance.now() - started;
      res.resume();
      res.on('end', () => (res.statusCode === 413 ? resolve(ms) : reject(new Error(`expected 413, got ${res.statusCode}`))));
    });
    // The server closes the socket right after its 413, so the write side may fail (EPIPE)
    // a moment before the answer is read: only an error without an answer is a failure.
    req.on('error', (error) => setTimeout(() => answered || reject(error), 1000));
    req.write(head);
    const chunk = Buffer.alloc(MB, 0xd8);
    let sent = 0;
    const pump = () => {
      while (!answered && sent < 33 * MB) {
        sent += MB;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    // With a declared length the refusal must come before any body byte: the body follows only
    // if no answer came within a second (which the figure then shows). Sending it at once raced
    // the server's close, and the EPIPE sometimes arrived before the 413 could be read.
    if (declared) setTimeout(pump, 1000);
    else pump();
  });
}

/** A real JPEG of about `bytes` (noise compresses badly, so the pixel count stays moderate). */
async function largeJpeg(bytes: number): Promise<Buffer> {
  const width = 4096;
  let height = 2048;
  for (;;) {
    const jpeg = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).jpeg({ quality: 100 }).toBuffer();
    if (jpeg.length >= bytes) return jpeg;
    height = Math.ceil((height * bytes) / jpeg.length) + 16;
  }
}

/** Uploads one photo; `localAddress` (127.0.0.x) makes it another client of the same machine. */
function upload(server: Server, bytes: Buffer, { type = 'image/jpeg', localAddress = '127.0.0.1' } = {}): Promise<number> {
  const boundary = 'benchupload';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="p"\r\nContent-Type: ${type}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        localAddress,
        port: server.port,
        path: '/api/forms/images',
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + bytes.length + tail.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.write(head);
    // Sent in 1 MB writes, as a network would deliver it, not as one buffer.
    for (let at = 0; at < bytes.length; at += MB) req.write(bytes.subarray(at, at + MB));
    req.end(tail);
  });
}

async function uploadMemory(server: Server): Promise<{ growthMb: number; detail: string }> {
  const photo = await largeJpeg(30 * MB);
  const pid = server.child.pid!;
  await upload(server, await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } }).jpeg().toBuffer());
  await new Promise((r) => setTimeout(r, 500));
  const idle = rssMb(pid);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
  const started = performance.now();
  const statuses = await Promise.all(Array.from({ length: 8 }, () => upload(server, photo)));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const ok = statuses.filter((s) => s === 201).length;
  return {
    growthMb: Math.round(peak - idle),
    detail: `idle ${Math.round(idle)} MB, peak ${Math.round(peak)} MB; photo ${(photo.length / MB).toFixed(1)} MB JPEG; ${ok}/8 stored in ${seconds.toFixed(1)} s`,
  };
}

/** How long a small upload from one client takes while another floods large PNGs (decoding takes turns). */
async function uploadDuringFlood(server: Server): Promise<{ ms: number; detail: string }> {
  const [big, small] = [await largePatternPng(), await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } }).jpeg().toBuffer()];
  const started = performance.now();
  let floodMs = 0;
  const flood = Promise.all(Array.from({ length: 12 }, () => upload(server, big, { type: 'image/png' }))).then((statuses) => {
    floodMs = performance.now() - started;
    return statuses;
  });
  await new Promise((r) => setTimeout(r, 300));
  const t0 = performance.now();
  const status = await upload(server, small, { localAddress: '127.0.0.2' });
  const ms = performance.now() - t0;
  const stored = (await flood).filter((s) => s === 201).length;
  return { ms, detail: `small upload ${status}; flood of 12 × ${(big.length / MB).toFixed(1)} MB 4000×4000 PNG from another client: ${stored}/12 stored in ${(floodMs / 1000).toFixed(1)} s` };
}

export async function runServerBench(): Promise<BenchFigure[]> {
  // Before the server starts and after it stopped, so a change in the machine's load shows as a
  // spread; measured after the submits with the server still up, the echo shared the CPU with the
  // server's deliveries draining (its rate halved).
  const baselineBefore = await baselineLoad();
  const server = await startServer();
  let measured;
  try {
    // Seeded up front: a bench write transaction during the load would stall the server's writes.
    const smallPhoto = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c0392b' } }).jpeg().toBuffer();
    const photos = await seedPhotos(server.dataDir, 2 * (WARMUP_SUBMITS + MEASURED_SUBMITS), smallPhoto);
    await submitLoad(server, WARMUP_SUBMITS, photos.slice(0, 2 * WARMUP_SUBMITS));
    const busyBefore = loadavg()[0];
    // CPU per submit tells whether the server or the load generator limits the rate on 2 shared cores.
    const [serverCpu, benchCpu] = [cpuSeconds(server.child.pid!), process.cpuUsage()];
    const load = await submitLoad(server, MEASURED_SUBMITS, photos.slice(2 * WARMUP_SUBMITS));
    const serverUs = ((cpuSeconds(server.child.pid!) - serverCpu) * 1e6) / load.requests.total;
    const { user, system } = process.cpuUsage(benchCpu);
    const benchUs = (user + system) / load.requests.total;
    const failed = load.non2xx + load.errors + load.timeouts;
    const submitDetail = `${CONNECTIONS} connections, ${load.requests.total} submits, ${failed} not 2xx/errors; p50 ${load.latency.p50} ms, p99 ${load.latency.p99} ms, max ${load.latency.max} ms; group commit, WAL + synchronous=FULL; photos pre-registered; CPU per submit: server ${Math.round(serverUs)} µs, load generator ${Math.round(benchUs)} µs; 1-min load average before the run ${busyBefore.toFixed(1)} (2 cores shared with the load generator)`;
    const declared = await refuseTime(server, true);
    const streamed = await refuseTime(server, false);
    const memory = await uploadMemory(server);
    const fairness = await uploadDuringFlood(server);
    measured = { load, submitDetail, declared, streamed, memory, fairness };
  } finally {
    await server.stop();
  }
  const { load, submitDetail, declared, streamed, memory, fairness } = measured;
  const baselineAfter = await baselineLoad();
  const baseline = (baselineBefore.perSecond + baselineAfter.perSecond) / 2;
  const submitsPerSecond = load.perSecond;
  const baselineDetail = `same-run baseline, bare Fastify JSON echo at ${CONNECTIONS} connections: ${Math.round(baselineBefore.perSecond)} req/s (p99 ${baselineBefore.p99} ms) before the server started, ${Math.round(baselineAfter.perSecond)} req/s (p99 ${baselineAfter.p99} ms) after it stopped`;
  return [
    {
      name: 'durable submits per second (50 connections, completed / elapsed)',
      value: Math.round(submitsPerSecond),
      unit: 'req/s',
      better: 'higher',
      detail: submitDetail,
    },
    {
      name: 'durable submits per second ÷ same-run Fastify echo baseline',
      value: Math.round((submitsPerSecond / baseline) * 1000) / 1000,
      unit: '',
      budgetKey: 'server.submitsPerBaseline',
      better: 'higher',
      detail: baselineDetail,
    },
    {
      name: 'submit p99 latency (50 connections)',
      value: load.latency.p99,
      unit: 'ms',
      budgetKey: 'server.submitP99Ms',
      better: 'lower',
      detail: `${(load.latency.p99 / ((baselineBefore.p99 + baselineAfter.p99) / 2)).toFixed(1)} × the echo baseline's p99`,
    },
    {
      name: 'time to refuse a 33 MB upload (declared length)',
      value: Math.round(declared * 10) / 10,
      unit: 'ms',
      budgetKey: 'server.refuseOversizeUploadMs',
      better: 'lower',
      detail: `streamed without Content-Length: refused after ${Math.round(streamed)} ms, once 32 MB had arrived`,
    },
    {
      name: 'server memory growth during 8 concurrent 30 MB uploads',
      value: memory.growthMb,
      unit: 'MB',
      budgetKey: 'server.uploadMemoryMb',
      better: 'lower',
      detail: memory.detail,
    },
    {
      name: 'small upload while another client floods large PNGs',
      value: Math.round(fairness.ms),
      unit: 'ms',
      budgetKey: 'server.smallUploadDuringFloodMs',
      better: 'lower',
      detail: fairness.detail,
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const figure of await runServerBench()) {
    console.log(`${figure.name}: ${figure.value} ${figure.unit}${figure.detail ? `\n    ${figure.detail}` : ''}`);
  }
}
